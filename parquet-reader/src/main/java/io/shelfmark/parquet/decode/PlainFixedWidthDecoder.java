package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.plan.RowSelection;
import org.apache.parquet.format.Type;

/**
 * PLAIN INT32, INT64, FLOAT and DOUBLE: little-endian values back to back, so skipping is a pointer
 * move and reading converts in chunks through a reused scratch array.
 */
final class PlainFixedWidthDecoder implements ValueDecoder {
  private static final int CHUNK = 1024;

  private final Type type;
  private final byte[] data;
  private final int width;
  private final int end;
  private int position;
  private int[] ints;
  private long[] longs;
  private float[] floats;
  private double[] doubles;

  PlainFixedWidthDecoder(Type type, byte[] data, int offset, int end, int valueCount)
      throws MalformedPageException {
    this.type = type;
    this.data = data;
    this.width = type == Type.INT32 || type == Type.FLOAT ? 4 : 8;
    this.position = offset;
    this.end = end;
    if ((long) valueCount * width > end - offset) {
      throw new MalformedPageException(
          "PLAIN %s data holds %d bytes, too few for %d values"
              .formatted(type, end - offset, valueCount));
    }
  }

  @Override
  public void read(int count, ColumnBatch.Builder out) throws MalformedPageException {
    checkAvailable(count);
    while (count > 0) {
      int n = Math.min(count, CHUNK);
      switch (type) {
        case INT32 -> {
          if (ints == null) {
            ints = new int[CHUNK];
          }
          for (int i = 0; i < n; i++, position += 4) {
            ints[i] = LittleEndianBytes.getInt(data, position);
          }
          out.appendInts(ints, 0, n);
        }
        case INT64 -> {
          if (longs == null) {
            longs = new long[CHUNK];
          }
          for (int i = 0; i < n; i++, position += 8) {
            longs[i] = LittleEndianBytes.getLong(data, position);
          }
          out.appendLongs(longs, 0, n);
        }
        case FLOAT -> {
          if (floats == null) {
            floats = new float[CHUNK];
          }
          for (int i = 0; i < n; i++, position += 4) {
            floats[i] = LittleEndianBytes.getFloat(data, position);
          }
          out.appendFloats(floats, 0, n);
        }
        default -> {
          if (doubles == null) {
            doubles = new double[CHUNK];
          }
          for (int i = 0; i < n; i++, position += 8) {
            doubles[i] = LittleEndianBytes.getDouble(data, position);
          }
          out.appendDoubles(doubles, 0, n);
        }
      }
      count -= n;
    }
  }

  @Override
  public void readPositions(RowSelection.InPage selected, ColumnBatch.Builder out)
      throws MalformedPageException {
    int size = selected.size();
    if (size == 0) {
      return;
    }
    int first = selected.firstRow();
    checkAvailable(selected.row(size - 1) - first + 1);
    int start = position; // the value of page position k starts at start + k * width
    for (int from = 0; from < size; from += CHUNK) {
      int n = Math.min(size - from, CHUNK);
      switch (type) {
        case INT32 -> {
          int[] chunk = ints == null ? (ints = new int[CHUNK]) : ints;
          for (int i = 0; i < n; i++) {
            chunk[i] = LittleEndianBytes.getInt(data, start + (selected.row(from + i) - first) * 4);
          }
          out.appendInts(chunk, 0, n);
        }
        case INT64 -> {
          long[] chunk = longs == null ? (longs = new long[CHUNK]) : longs;
          for (int i = 0; i < n; i++) {
            chunk[i] =
                LittleEndianBytes.getLong(data, start + (selected.row(from + i) - first) * 8);
          }
          out.appendLongs(chunk, 0, n);
        }
        case FLOAT -> {
          float[] chunk = floats == null ? (floats = new float[CHUNK]) : floats;
          for (int i = 0; i < n; i++) {
            chunk[i] =
                LittleEndianBytes.getFloat(data, start + (selected.row(from + i) - first) * 4);
          }
          out.appendFloats(chunk, 0, n);
        }
        default -> {
          double[] chunk = doubles == null ? (doubles = new double[CHUNK]) : doubles;
          for (int i = 0; i < n; i++) {
            chunk[i] =
                LittleEndianBytes.getDouble(data, start + (selected.row(from + i) - first) * 8);
          }
          out.appendDoubles(chunk, 0, n);
        }
      }
    }
    position = start + (selected.row(size - 1) - first + 1) * width;
  }

  @Override
  public void skip(int count) throws MalformedPageException {
    checkAvailable(count);
    position += count * width;
  }

  private void checkAvailable(int count) throws MalformedPageException {
    if ((long) count * width > end - position) {
      throw new MalformedPageException(
          "PLAIN %s data ends before value %d".formatted(type, (end - position) / width + 1));
    }
  }
}
