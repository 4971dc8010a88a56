package io.shelfmark.server.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TestLongIntMap {
  @Test
  void assignsDenseIdsInFirstSeenOrderWhateverTheOrderOfKeys() {
    Random random = new Random(9);
    LongIntMap map = new LongIntMap(2);
    Map<Long, Integer> expected = new HashMap<>();
    // Runs of equal keys (the sorted case the map short-cuts), repeats after other keys, and
    // enough distinct keys to grow the table several times.
    for (int i = 0; i < 50_000; i++) {
      long key = random.nextInt(4) == 0 ? random.nextLong() : (i / 7) * 1_000L;
      int id = map.getOrAdd(key);
      Integer known = expected.putIfAbsent(key, expected.size());
      assertThat(id)
          .as("key %d at %d", key, i)
          .isEqualTo(known == null ? expected.size() - 1 : known);
    }
    assertThat(map.size()).isEqualTo(expected.size());
    long[] keys = map.keys();
    for (Map.Entry<Long, Integer> entry : expected.entrySet()) {
      assertThat(keys[entry.getValue()]).isEqualTo(entry.getKey());
      assertThat(map.get(entry.getKey())).isEqualTo(entry.getValue());
    }
    assertThat(map.get(-1L)).isEqualTo(expected.getOrDefault(-1L, -1));
  }

  @Test
  void firstKeyZeroIsNotMistakenForARepeat() {
    LongIntMap map = new LongIntMap(4);
    assertThat(map.getOrAdd(0L)).isZero();
    assertThat(map.getOrAdd(0L)).isZero();
    assertThat(map.getOrAdd(5L)).isEqualTo(1);
    assertThat(map.getOrAdd(0L)).isZero();
    assertThat(map.size()).isEqualTo(2);
  }
}
