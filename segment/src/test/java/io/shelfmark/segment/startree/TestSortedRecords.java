package io.shelfmark.segment.startree;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The radix sort of packed row keys gives the order of a plain sort of the whole keys. */
class TestSortedRecords {
  @Test
  void testSortByTupleEqualsTheWholeKeysSort() {
    Random random = new Random(24);
    int[] sizes = {
      0, 1, 2, 100, SortedRecords.RADIX_MIN_ROWS - 1, SortedRecords.RADIX_MIN_ROWS, 50_000
    };
    int[] tupleBitsCases = {0, 1, 5, 11, 12, 22, 23, 30, 40};
    for (int rows : sizes) {
      for (int tupleBits : tupleBitsCases) {
        int positionBits = SortedRecords.bitsFor(rows);
        if (tupleBits + positionBits > 63) {
          continue;
        }
        // Few distinct tuples (long runs of equal ones) as well as nearly unique ones.
        int distinct = random.nextBoolean() ? 7 : Integer.MAX_VALUE;
        long[] tuples = new long[Math.min(distinct, Math.max(1, rows))];
        for (int t = 0; t < tuples.length; t++) {
          tuples[t] = tupleBits == 0 ? 0 : random.nextLong() >>> (64 - tupleBits);
        }
        long[] keys = new long[rows];
        for (int row = 0; row < rows; row++) {
          keys[row] = (tuples[random.nextInt(tuples.length)] << positionBits) | row;
        }
        long[] expected = keys.clone();
        Arrays.sort(expected);

        SortedRecords.sortByTuple(keys, positionBits, tupleBits);

        assertThat(keys)
            .as("%d rows, %d tuple bits, %d position bits", rows, tupleBits, positionBits)
            .isEqualTo(expected);
      }
    }
  }
}
