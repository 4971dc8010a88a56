package io.shelfmark.segment.dictionary;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TestByteStringSort {
  private static final int[] CODE_POINTS = {'a', 'b', '0', '9', '-', 0xE9, 0x20AC, 0x1F600};

  @Test
  void testSortsLikeUnsignedByteComparison() {
    SplittableRandom random = new SplittableRandom(41);
    for (int size : new int[] {0, 1, 2, 11, 12, 13, 100, 5000}) {
      Set<String> values = new LinkedHashSet<>();
      values.add("");
      values.add("node-0");
      while (values.size() < size + 2) {
        StringBuilder value = new StringBuilder(random.nextBoolean() ? "node-0" : "");
        int length = random.nextInt(6);
        for (int i = 0; i < length; i++) {
          // Letters, digits, and characters whose UTF-8 bytes are above 0x7F (up to 4 bytes).
          value.appendCodePoint(CODE_POINTS[random.nextInt(CODE_POINTS.length)]);
        }
        values.add(value.toString());
      }
      check(List.copyOf(values));
    }
  }

  private static void check(List<String> values) {
    ByteArrayOutputStream arena = new ByteArrayOutputStream();
    int[] offsets = new int[values.size() + 1];
    for (int i = 0; i < values.size(); i++) {
      arena.writeBytes(values.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      offsets[i + 1] = arena.size();
    }
    byte[] bytes = arena.toByteArray();
    int[] order = new int[values.size()];
    Integer[] expected = new Integer[values.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
      expected[i] = i;
    }
    Arrays.sort(
        expected,
        (a, b) ->
            Arrays.compareUnsigned(
                bytes, offsets[a], offsets[a + 1], bytes, offsets[b], offsets[b + 1]));

    ByteStringSort.sort(order, bytes, offsets);

    assertThat(order)
        .as("%d values", values.size())
        .containsExactly(Arrays.stream(expected).mapToInt(Integer::intValue).toArray());
  }
}
