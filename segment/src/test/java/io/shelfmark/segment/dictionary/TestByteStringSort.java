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

  @Test
  void testSortsBytesAroundEveryKeyBoundary() {
    // Bytes at the ends of the unsigned range, zeros that tie with a key's padding, strings that
    // prefix each other, and lengths around multiples of seven (the bytes one key covers).
    byte[] alphabet = {0x00, 0x01, 0x7F, (byte) 0x80, (byte) 0xFF};
    SplittableRandom random = new SplittableRandom(43);
    for (int size : new int[] {2, 17, 300, 4000}) {
      Set<List<Byte>> values = new LinkedHashSet<>();
      while (values.size() < size) {
        int length = random.nextInt(23);
        List<Byte> value = new java.util.ArrayList<>();
        for (int i = 0; i < length; i++) {
          value.add(i < 9 && random.nextInt(4) > 0 ? (byte) 'n' : alphabet[random.nextInt(5)]);
        }
        values.add(value);
        values.add(value.subList(0, random.nextInt(length + 1)));
      }
      ByteArrayOutputStream arena = new ByteArrayOutputStream();
      int[] offsets = new int[values.size() + 1];
      int index = 0;
      for (List<Byte> value : values) {
        for (byte b : value) {
          arena.write(b);
        }
        offsets[++index] = arena.size();
      }
      check(arena.toByteArray(), offsets);
    }
  }

  private static void check(List<String> values) {
    ByteArrayOutputStream arena = new ByteArrayOutputStream();
    int[] offsets = new int[values.size() + 1];
    for (int i = 0; i < values.size(); i++) {
      arena.writeBytes(values.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      offsets[i + 1] = arena.size();
    }
    check(arena.toByteArray(), offsets);
  }

  private static void check(byte[] bytes, int[] offsets) {
    int count = offsets.length - 1;
    int[] order = new int[count];
    Integer[] expected = new Integer[count];
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
        .as("%d values", count)
        .containsExactly(Arrays.stream(expected).mapToInt(Integer::intValue).toArray());
  }
}
