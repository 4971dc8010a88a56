package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.batch.ColumnBatch;
import org.apache.parquet.format.Type;

/**
 * BYTE_STREAM_SPLIT for FLOAT, DOUBLE, INT32, INT64 and FIXED_LEN_BYTE_ARRAY: byte {@code k} of
 * value {@code i} is at {@code k * valueCount + i}. Random access, so skipping is free.
 */
final class ByteStreamSplitDecoder implements ValueDecoder {
  private static final int CHUNK = 1024;

  private final Type type;
  private final byte[] data;
  private final int offset;
  private final int width;
  private final int valueCount;
  private final byte[] gathered;
  private int next;
  private int[] ints;
  private long[] longs;
  private float[] floats;
  private double[] doubles;

  ByteStreamSplitDecoder(Type type, int width, byte[] data, int offset, int end, int valueCount)
      throws MalformedPageException {
    if ((long) width * valueCount != end - offset) {
      throw new MalformedPageException(
          "BYTE_STREAM_SPLIT data holds %d bytes but %d values of %d bytes need %d"
              .formatted(end - offset, valueCount, width, (long) width * valueCount));
    }
    this.type = type;
    this.width = width;
    this.data = data;
    this.offset = offset;
    this.valueCount = valueCount;
    this.gathered = new byte[width];
  }

  @Override
  public void read(int count, ColumnBatch.Builder out) throws MalformedPageException {
    checkAvailable(count);
    while (count > 0) {
      int n = Math.min(count, CHUNK);
      switch (type) {
        case INT32 -> {
          ints = ints == null ? new int[CHUNK] : ints;
          for (int i = 0; i < n; i++) {
            ints[i] = (int) gather(next++);
          }
          out.appendInts(ints, 0, n);
        }
        case INT64 -> {
          longs = longs == null ? new long[CHUNK] : longs;
          for (int i = 0; i < n; i++) {
            longs[i] = gather(next++);
          }
          out.appendLongs(longs, 0, n);
        }
        case FLOAT -> {
          floats = floats == null ? new float[CHUNK] : floats;
          for (int i = 0; i < n; i++) {
            floats[i] = Float.intBitsToFloat((int) gather(next++));
          }
          out.appendFloats(floats, 0, n);
        }
        case DOUBLE -> {
          doubles = doubles == null ? new double[CHUNK] : doubles;
          for (int i = 0; i < n; i++) {
            doubles[i] = Double.longBitsToDouble(gather(next++));
          }
          out.appendDoubles(doubles, 0, n);
        }
        default -> {
          for (int i = 0; i < n; i++, next++) {
            for (int k = 0; k < width; k++) {
              gathered[k] = data[offset + k * valueCount + next];
            }
            out.appendBinary(gathered, 0, width);
          }
        }
      }
      count -= n;
    }
  }

  /** The little-endian value of up to 8 bytes of value {@code index}. */
  private long gather(int index) {
    long value = 0;
    for (int k = width - 1; k >= 0; k--) {
      value = value << 8 | (data[offset + k * valueCount + index] & 0xFFL);
    }
    return value;
  }

  @Override
  public void skip(int count) throws MalformedPageException {
    checkAvailable(count);
    next += count;
  }

  private void checkAvailable(int count) throws MalformedPageException {
    if (count > valueCount - next) {
      throw new MalformedPageException(
          "BYTE_STREAM_SPLIT data holds %d values, %d more wanted after %d"
              .formatted(valueCount, count, next));
    }
  }
}
