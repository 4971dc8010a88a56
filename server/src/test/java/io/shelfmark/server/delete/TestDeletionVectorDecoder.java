package io.shelfmark.server.delete;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/** The deletion-vector-v1 blob layout, byte by byte, and each way it can be broken. */
class TestDeletionVectorDecoder {
  private static final String PUFFIN = "s3://lake/t/data/dv.puffin";
  private static final String DATA = "s3://lake/t/data/f.parquet";

  @Test
  void decodesPositionsAcrossContainers() throws IOException {
    // Positions in three 16-bit containers: array, run and bitmap.
    RoaringBitmap positions = RoaringBitmap.bitmapOf(0, 7, 65_535);
    positions.add(70_000L, 80_000L);
    for (int i = 140_000; i < 200_000; i += 2) {
      positions.add(i);
    }
    positions.runOptimize();
    byte[] blob = blob(vector(new long[] {0}, new RoaringBitmap[] {positions}));
    assertThat(DeletionVectorDecoder.decode(PUFFIN, 4, blob, DATA)).isEqualTo(positions);
    assertThat(
            DeletionVectorDecoder.decode(
                PUFFIN, 4, blob(vector(new long[0], new RoaringBitmap[0])), DATA))
        .isEqualTo(new RoaringBitmap());
  }

  @Test
  void refusesWrongMagic() throws IOException {
    byte[] blob = blob(vector(new long[] {0}, new RoaringBitmap[] {RoaringBitmap.bitmapOf(1)}));
    blob[5] ^= 1;
    assertThatThrownBy(() -> DeletionVectorDecoder.decode(PUFFIN, 4, blob, DATA))
        .isInstanceOf(CorruptDeletesException.class)
        .hasMessage(
            "Cannot read deletion vector at offset 4 of s3://lake/t/data/dv.puffin: its magic is"
                + " D1D23964, not D1D33964 (is the offset right?)");
  }

  @Test
  void refusesWrongChecksum() throws IOException {
    byte[] blob = blob(vector(new long[] {0}, new RoaringBitmap[] {RoaringBitmap.bitmapOf(1, 2)}));
    blob[blob.length - 6] ^= 0x10; // inside the vector
    assertThatThrownBy(() -> DeletionVectorDecoder.decode(PUFFIN, 4, blob, DATA))
        .isInstanceOf(CorruptDeletesException.class)
        .hasMessageStartingWith(
            "Cannot read deletion vector at offset 4 of s3://lake/t/data/dv.puffin: its CRC-32 is ")
        .hasMessageContaining("but the blob records");
  }

  @Test
  void refusesWrongLengthAndShortBlobs() throws IOException {
    byte[] blob = blob(vector(new long[] {0}, new RoaringBitmap[] {RoaringBitmap.bitmapOf(1)}));
    ByteBuffer.wrap(blob).putInt(0, 3);
    assertThatThrownBy(() -> DeletionVectorDecoder.decode(PUFFIN, 4, blob, DATA))
        .isInstanceOf(CorruptDeletesException.class)
        .hasMessage(
            "Cannot read deletion vector at offset 4 of s3://lake/t/data/dv.puffin: its length"
                + " field says 3 bytes of magic and vector but the blob holds %d",
            blob.length - 8);
    assertThatThrownBy(() -> DeletionVectorDecoder.decode(PUFFIN, 4, new byte[7], DATA))
        .isInstanceOf(CorruptDeletesException.class)
        .hasMessage(
            "Cannot read deletion vector at offset 4 of s3://lake/t/data/dv.puffin: it has 7"
                + " bytes, fewer than 20");
  }

  @Test
  void refusesTrailingBytesAndTruncatedBitmaps() throws IOException {
    byte[] vector = vector(new long[] {0}, new RoaringBitmap[] {RoaringBitmap.bitmapOf(1)});
    byte[] longer = new byte[vector.length + 3];
    System.arraycopy(vector, 0, longer, 0, vector.length);
    assertThatThrownBy(() -> DeletionVectorDecoder.decode(PUFFIN, 4, blob(longer), DATA))
        .isInstanceOf(CorruptDeletesException.class)
        .hasMessage(
            "Cannot read deletion vector at offset 4 of s3://lake/t/data/dv.puffin: 3 bytes follow"
                + " its last bitmap");
    byte[] shorter = new byte[vector.length - 2];
    System.arraycopy(vector, 0, shorter, 0, shorter.length);
    assertThatThrownBy(() -> DeletionVectorDecoder.decode(PUFFIN, 4, blob(shorter), DATA))
        .isInstanceOf(CorruptDeletesException.class)
        .hasMessageStartingWith(
            "Cannot read deletion vector at offset 4 of s3://lake/t/data/dv.puffin: bitmap 0");
  }

  @Test
  void refusesPositionsOfFourBillionAndAbove() throws IOException {
    byte[] blob =
        blob(
            vector(
                new long[] {0, 1},
                new RoaringBitmap[] {RoaringBitmap.bitmapOf(5), RoaringBitmap.bitmapOf(9)}));
    assertThatThrownBy(() -> DeletionVectorDecoder.decode(PUFFIN, 4, blob, DATA))
        .isInstanceOf(UnsupportedDeletesException.class)
        .hasMessage(
            "Cannot apply deletion vector at offset 4 of s3://lake/t/data/dv.puffin to data file"
                + " s3://lake/t/data/f.parquet: it deletes positions of 2^32 and above (key 1), and"
                + " Shelfmark reads data files of at most 2^31 - 1 rows (split the file)");
  }

  /** The portable Roaring64 layout: count, then (key, 32-bit bitmap) pairs, little-endian. */
  private static byte[] vector(long[] keys, RoaringBitmap[] bitmaps) throws IOException {
    int size = 8;
    for (RoaringBitmap bitmap : bitmaps) {
      size += 4 + bitmap.serializedSizeInBytes();
    }
    ByteBuffer buffer = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    buffer.putLong(keys.length);
    for (int i = 0; i < keys.length; i++) {
      buffer.putInt((int) keys[i]);
      bitmaps[i].serialize(buffer);
    }
    return buffer.array();
  }

  /** Length, magic, vector, CRC: the blob as Iceberg's writers lay it out. */
  private static byte[] blob(byte[] vector) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(4 + vector.length);
    out.writeInt(DeletionVectorDecoder.MAGIC);
    out.write(vector);
    CRC32 crc = new CRC32();
    crc.update(bytes.toByteArray(), 4, 4 + vector.length);
    out.writeInt((int) crc.getValue());
    return bytes.toByteArray();
  }
}
