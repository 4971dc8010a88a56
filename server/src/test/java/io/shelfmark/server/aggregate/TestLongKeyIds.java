package io.shelfmark.server.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

class TestLongKeyIds {
  @Test
  void keysInRandomOrderKeepTheArrayNearTheirSpan() {
    // One second bucket per key of an hour, in random order: min and max move many times.
    java.util.List<Long> keys = new java.util.ArrayList<>();
    for (long k = 0; k < 3_600; k++) {
      keys.add(1_754_226_000L + k);
    }
    java.util.Collections.shuffle(keys, new java.util.Random(11));
    LongKeyIds ids = new LongKeyIds();
    for (int i = 0; i < keys.size(); i++) {
      ids.put(keys.get(i), i);
    }
    for (int i = 0; i < keys.size(); i++) {
      assertThat(ids.get(keys.get(i))).isEqualTo(i);
    }
    assertThat(ids.isDense()).isTrue();
    assertThat(ids.capacity()).isLessThanOrEqualTo(4 * 3_600);
  }

  @Test
  void keysOfASmallRangeStayInTheDirectArray() {
    Random random = new Random(1);
    LongKeyIds ids = checkAgainstHashMap(() -> 1_754_229_600L + random.nextInt(3_600), 200_000);
    assertThat(ids.isDense()).isTrue();
    assertThat(ids.size()).isEqualTo(3_600);
  }

  @Test
  void keysArrivingInFallingOrderGrowTheWindowDownward() {
    long[] next = {10_000_000L};
    LongKeyIds ids = checkAgainstHashMap(() -> next[0]--, 100_000);
    assertThat(ids.isDense()).isTrue();
  }

  @Test
  void keysOfAWideRangeMoveToTheHashTable() {
    Random random = new Random(2);
    // Dense at first (a narrow start), then keys spread over the whole long range.
    long[] count = {0};
    LongKeyIds ids =
        checkAgainstHashMap(
            () -> count[0]++ < 5_000 ? random.nextInt(100) : random.nextLong(), 50_000);
    assertThat(ids.isDense()).isFalse();
  }

  @Test
  void sparseKeysMoveToTheHashTableBeforeTheirArrayGrowsLarge() {
    // A GROUP BY of raw epoch milliseconds 15 s apart: a few hundred keys over an hour.
    long start = 1_754_226_000_000L;
    LongKeyIds ids = new LongKeyIds();
    for (int i = 0; i < 240; i++) {
      ids.put(start + 15_000L * i, i);
    }
    assertThat(ids.isDense()).isFalse();
    for (int i = 0; i < 240; i++) {
      assertThat(ids.get(start + 15_000L * i)).isEqualTo(i);
    }
    assertThat(ids.get(start + 1)).isEqualTo(-1);

    // Keys 3 apart fit an array of at most 8 slots a key (its window is twice their span).
    LongKeyIds dense = new LongKeyIds();
    for (int i = 0; i < 24_000; i++) {
      dense.put(start + 3L * i, i);
    }
    assertThat(dense.isDense()).isTrue();
    assertThat(dense.capacity()).isLessThanOrEqualTo(LongKeyIds.MAX_SLOTS_PER_KEY * 24_000);
    Random random = new Random(3);
    checkAgainstHashMap(() -> start + 15_000L * random.nextInt(240), 10_000);
  }

  @Test
  void aSpanOfMaxDenseSpanKeysIsTheLastOneKeptDense() {
    // Dense enough to stay in the array at its largest: a key every other value of the span.
    LongKeyIds ids = new LongKeyIds();
    ids.put(-5, 0);
    int id = 3;
    for (long key = -3; key < LongKeyIds.MAX_DENSE_SPAN - 8; key += 2) {
      ids.put(key, id++);
    }
    ids.put(-5 + LongKeyIds.MAX_DENSE_SPAN - 1, 1);
    assertThat(ids.isDense()).isTrue();
    assertThat(ids.get(-5)).isZero();
    assertThat(ids.get(-5 + LongKeyIds.MAX_DENSE_SPAN - 1)).isEqualTo(1);
    assertThat(ids.get(-6)).isEqualTo(-1);
    assertThat(ids.get(-5 + LongKeyIds.MAX_DENSE_SPAN)).isEqualTo(-1);

    ids.put(-6, 2);
    assertThat(ids.isDense()).isFalse();
    assertThat(ids.get(-5)).isZero();
    assertThat(ids.get(-5 + LongKeyIds.MAX_DENSE_SPAN - 1)).isEqualTo(1);
    assertThat(ids.get(-6)).isEqualTo(2);
    assertThat(ids.get(-7)).isEqualTo(-1);
  }

  @Test
  void keysAtBothEndsOfTheLongRange() {
    LongKeyIds high = new LongKeyIds();
    high.put(Long.MAX_VALUE, 0);
    high.put(Long.MAX_VALUE - 100, 1);
    assertThat(high.isDense()).isTrue();
    assertThat(high.get(Long.MAX_VALUE)).isZero();
    assertThat(high.get(Long.MAX_VALUE - 100)).isEqualTo(1);
    // With wraparound, MIN_VALUE - base would be a small offset if the window ran past MAX_VALUE.
    for (long key = Long.MIN_VALUE; key < Long.MIN_VALUE + 200; key++) {
      assertThat(high.get(key)).as("key %d", key).isEqualTo(-1);
    }

    LongKeyIds low = new LongKeyIds();
    low.put(Long.MIN_VALUE + 3, 0);
    low.put(Long.MIN_VALUE, 1);
    low.put(Long.MIN_VALUE + 1_000, 2);
    assertThat(low.isDense()).isTrue();
    assertThat(low.get(Long.MIN_VALUE)).isEqualTo(1);
    assertThat(low.get(Long.MIN_VALUE + 3)).isZero();
    assertThat(low.get(Long.MIN_VALUE + 1_000)).isEqualTo(2);
    for (long key = Long.MAX_VALUE; key > Long.MAX_VALUE - 2_000; key--) {
      assertThat(low.get(key)).as("key %d", key).isEqualTo(-1);
    }

    LongKeyIds both = new LongKeyIds();
    both.put(Long.MIN_VALUE, 0);
    both.put(Long.MAX_VALUE, 1);
    assertThat(both.isDense()).isFalse();
    assertThat(both.get(Long.MIN_VALUE)).isZero();
    assertThat(both.get(Long.MAX_VALUE)).isEqualTo(1);
    assertThat(both.get(0)).isEqualTo(-1);
  }

  @Test
  void refusesNegativeIds() {
    assertThatThrownBy(() -> new LongKeyIds().put(3, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot put a negative id: -1");
  }

  /** Numbers {@code count} keys from {@code keys} first-seen, checking every lookup. */
  private static LongKeyIds checkAgainstHashMap(LongSupplier keys, int count) {
    LongKeyIds ids = new LongKeyIds();
    Map<Long, Integer> expected = new HashMap<>();
    for (int i = 0; i < count; i++) {
      long key = keys.getAsLong();
      Integer known = expected.get(key);
      assertThat(ids.get(key)).as("key %d at %d", key, i).isEqualTo(known == null ? -1 : known);
      if (known == null) {
        expected.put(key, expected.size());
        ids.put(key, expected.size() - 1);
      }
    }
    for (Map.Entry<Long, Integer> entry : expected.entrySet()) {
      assertThat(ids.get(entry.getKey())).isEqualTo(entry.getValue());
    }
    assertThat(ids.size()).isEqualTo(expected.size());
    return ids;
  }
}
