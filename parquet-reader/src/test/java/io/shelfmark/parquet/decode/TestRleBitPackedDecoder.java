package io.shelfmark.parquet.decode;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The hybrid decoder against parquet-java's encoder, at every bit width: mixed repeated runs and
 * bit-packed runs, read in uneven slices with skips between them, so groups are split at every
 * offset and the unpacking is exercised both inside the array and at its very end.
 */
class TestRleBitPackedDecoder {
  @ParameterizedTest
  @ValueSource(
      ints = {
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
        25, 26, 27, 28, 29, 30, 31, 32
      })
  void decodesWhatParquetJavaEncodes(int bitWidth) throws IOException {
    Random random = new Random(bitWidth * 7919L);
    int[] values = values(random, bitWidth, 5_003);
    byte[] encoded = encode(values, bitWidth);

    RleBitPackedDecoder decoder = new RleBitPackedDecoder(encoded, 0, encoded.length, bitWidth);
    int[] decoded = new int[values.length];
    int position = 0;
    while (position < values.length) {
      int n = Math.min(1 + random.nextInt(40), values.length - position);
      if (random.nextInt(4) == 0) {
        decoder.skip(n);
        Arrays.fill(decoded, position, position + n, values[position] ^ 1);
        System.arraycopy(values, position, decoded, position, n); // skipped: compare the rest
      } else {
        decoder.read(decoded, position, n);
      }
      position += n;
    }
    assertThat(decoded).isEqualTo(values);
  }

  /** Runs of one value (RLE) and stretches of random values (bit-packed). */
  private static int[] values(Random random, int bitWidth, int count) {
    long limit = bitWidth == 0 ? 1 : 1L << bitWidth;
    int[] values = new int[count];
    int i = 0;
    while (i < count) {
      int run = Math.min(1 + random.nextInt(30), count - i);
      boolean repeated = random.nextBoolean();
      int value = (int) (random.nextLong() & (limit - 1));
      for (int j = 0; j < run; j++, i++) {
        values[i] = repeated ? value : (int) (random.nextLong() & (limit - 1));
      }
    }
    return values;
  }

  /** {@code values} as parquet-java's hybrid encoder writes them. */
  static byte[] encode(int[] values, int bitWidth) throws IOException {
    try (RunLengthBitPackingHybridEncoder encoder =
        new RunLengthBitPackingHybridEncoder(
            bitWidth, 64, 1 << 20, HeapByteBufferAllocator.getInstance())) {
      for (int value : values) {
        encoder.writeInt(value);
      }
      return encoder.toBytes().toByteArray();
    }
  }
}
