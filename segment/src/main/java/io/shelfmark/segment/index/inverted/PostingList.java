package io.shelfmark.segment.index.inverted;

import io.shelfmark.segment.encoding.BitPacking;
import io.shelfmark.segment.encoding.BytePacking;
import io.shelfmark.segment.format.PartWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.roaringbitmap.ArrayContainer;
import org.roaringbitmap.BitmapContainer;
import org.roaringbitmap.RoaringBitmap;

/**
 * One value's docs, in whichever of two encodings is smaller: a run-optimized RoaringBitmap (dense
 * or clustered docs), or for a few scattered docs the first doc and the gaps between neighbours
 * bit-packed at the widest gap's width. A value of a high-cardinality column (a node name among
 * 100,000) has a handful of docs spread over many 65536-doc containers, where a RoaringBitmap pays
 * about 10 bytes per doc in container headers; packed gaps cost about 2.
 *
 * <pre>
 * tag u8 0..31: packed, tag = gap width: count varint | first doc varint | (count - 1) gaps - 1
 * tag u8 = 255: RoaringBitmap, portable format
 * </pre>
 */
final class PostingList {
  static final int ROARING = 255;

  // RoaringBitmap's portable format (see its RoaringArray and containers): an array container
  // holds up to 4096 values at 2 bytes each, a bitmap container takes 8192 bytes, a run container
  // 2 + 4 bytes per run and replaces either when strictly smaller (runOptimize). Offsets of the
  // containers are left out of a bitmap with run containers and fewer than 4 containers.
  private static final int ARRAY_MAX = 4096;
  private static final int BITMAP_BYTES = 8192;
  private static final int NO_OFFSET_THRESHOLD = 4;

  private PostingList() {}

  /** Writes docs {@code docs[from .. from + count - 1]}, ascending. */
  static void write(PartWriter out, int[] docs, int from, int count) {
    int widest = 0;
    for (int i = from + 1; i < from + count; i++) {
      widest |= docs[i] - docs[i - 1] - 1;
    }
    int width = BitPacking.bitWidth(widest);
    long packedSize =
        1
            + varintSize(count)
            + (count == 0 ? 0 : varintSize(docs[from]))
            + BytePacking.byteCount(Math.max(0, count - 1), width);
    // A list of more than a few hundred docs is usually denser than gaps can be: compare both
    // sizes, computing the bitmap's from the docs so that a bitmap is built only when written.
    if (count > 8 && roaringSize(docs, from, count) + 1 < packedSize) {
      writeRoaring(out, docs, from, count);
      return;
    }
    out.putByte(width).putVarInt(count);
    if (count == 0) {
      return;
    }
    out.putVarInt(docs[from]);
    BytePacking.writeGaps(out, docs, from, count, width);
  }

  private static void writeRoaring(PartWriter out, int[] docs, int from, int count) {
    RoaringBitmap bitmap = bitmap(docs, from, count);
    bitmap.runOptimize();
    int size = bitmap.serializedSizeInBytes();
    if (size != roaringSize(docs, from, count)) {
      throw new IllegalStateException(
          "Cannot size a posting list of %d docs: computed %d bytes but the bitmap takes %d"
              .formatted(count, roaringSize(docs, from, count), size));
    }
    ByteBuffer serialized = ByteBuffer.allocate(size);
    bitmap.serialize(serialized);
    out.putByte(ROARING).putBytes(serialized.array());
  }

  /**
   * The bitmap of ascending docs, built container by container: an array container of exactly its
   * values up to 4096 of them, a bitmap container above — the containers adding the docs one by one
   * would end with, without growing arrays on the way.
   */
  static RoaringBitmap bitmap(int[] docs, int from, int count) {
    RoaringBitmap bitmap = new RoaringBitmap();
    int end = from + count;
    int i = from;
    while (i < end) {
      int key = docs[i] >>> 16;
      int last = i;
      while (last < end && docs[last] >>> 16 == key) {
        last++;
      }
      int cardinality = last - i;
      if (cardinality <= ARRAY_MAX) {
        char[] values = new char[cardinality];
        for (int j = 0; j < cardinality; j++) {
          values[j] = (char) docs[i + j];
        }
        bitmap.append((char) key, new ArrayContainer(values));
      } else {
        long[] words = new long[BITMAP_BYTES / 8];
        for (int j = i; j < last; j++) {
          int low = docs[j] & 0xFFFF;
          words[low >>> 6] |= 1L << low;
        }
        bitmap.append((char) key, new BitmapContainer(words, cardinality));
      }
      i = last;
    }
    return bitmap;
  }

  /**
   * The bytes of the run-optimized RoaringBitmap of {@code docs[from .. from + count - 1]}
   * (ascending, at least one) in its portable format, without building it.
   */
  static int roaringSize(int[] docs, int from, int count) {
    int end = from + count;
    int containers = 0;
    boolean runs = false;
    long data = 0;
    int i = from;
    while (i < end) {
      int key = docs[i] >>> 16;
      int cardinality = 0;
      int runCount = 0;
      int previous = -2;
      while (i < end && docs[i] >>> 16 == key) {
        int doc = docs[i++];
        if (doc != previous + 1) {
          runCount++;
        }
        previous = doc;
        cardinality++;
      }
      int size = cardinality <= ARRAY_MAX ? 2 * cardinality : BITMAP_BYTES;
      int runSize = 2 + 4 * runCount;
      if (runSize < size) {
        size = runSize;
        runs = true;
      }
      data += size;
      containers++;
    }
    long header =
        runs
            ? 4 + (containers + 7) / 8 + (containers < NO_OFFSET_THRESHOLD ? 4 : 8) * containers
            : 8 + 8L * containers;
    return (int) Math.min(Integer.MAX_VALUE, header + data);
  }

  /** Decodes the list in {@code bytes} (exactly its bytes). */
  static RoaringBitmap read(ByteBuffer bytes) throws IOException {
    int tag = bytes.get(0) & 0xFF;
    if (tag == ROARING) {
      RoaringBitmap bitmap = new RoaringBitmap();
      bitmap.deserialize(bytes.slice(1, bytes.limit() - 1));
      return bitmap;
    }
    if (tag > 31) {
      throw new IOException("unknown posting list tag " + tag);
    }
    int width = tag;
    int[] position = {1};
    int count = varint(bytes, position);
    if (count == 0) {
      return new RoaringBitmap();
    }
    int first = varint(bytes, position);
    if (position[0] + BytePacking.byteCount(count - 1, width) != bytes.limit()) {
      throw new IOException(
          "posting list of %d docs with %d-bit gaps does not fill its %d bytes"
              .formatted(count, width, bytes.limit()));
    }
    int[] docs = new int[count];
    BytePacking.read(bytes, position[0], count - 1, width, docs);
    // Gaps are stored in docs[0 .. count - 2]; turn them into docs from the back.
    for (int i = count - 1; i >= 1; i--) {
      docs[i] = docs[i - 1];
    }
    docs[0] = first;
    for (int i = 1; i < count; i++) {
      docs[i] = docs[i - 1] + docs[i] + 1;
    }
    return RoaringBitmap.bitmapOf(docs);
  }

  private static int varintSize(int value) {
    return value < 1 << 7 ? 1 : value < 1 << 14 ? 2 : value < 1 << 21 ? 3 : value < 1 << 28 ? 4 : 5;
  }

  private static int varint(ByteBuffer bytes, int[] position) throws IOException {
    int result = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      int b = bytes.get(position[0]++) & 0xFF;
      result |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        if (result < 0) {
          throw new IOException("negative varint in posting list");
        }
        return result;
      }
    }
    throw new IOException("varint longer than 5 bytes in posting list");
  }
}
