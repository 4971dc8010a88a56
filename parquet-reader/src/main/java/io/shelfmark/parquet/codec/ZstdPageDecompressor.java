package io.shelfmark.parquet.codec;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.zstd.ZstdDecompressor;

/** ZSTD through aircompressor (one or more frames). */
final class ZstdPageDecompressor implements PageDecompressor {
  private final ZstdDecompressor decompressor = new ZstdDecompressor();

  @Override
  public void decompress(
      byte[] input, int inputOffset, int inputLength, byte[] output, int outputOffset, int size)
      throws CorruptCompressedDataException {
    if (inputLength == 0) {
      SnappyPageDecompressor.requireEmpty(size);
      return;
    }
    try {
      int written =
          decompressor.decompress(input, inputOffset, inputLength, output, outputOffset, size);
      if (written != size) {
        throw new CorruptCompressedDataException(
            "zstd stream decompressed to %d bytes but the page header says %d"
                .formatted(written, size));
      }
    } catch (MalformedInputException | IndexOutOfBoundsException | IllegalArgumentException e) {
      throw new CorruptCompressedDataException("malformed zstd stream: " + e.getMessage(), e);
    }
  }

  /** RLE blocks make zstd's ratio unbounded in practice: the caller's page size limit applies. */
  @Override
  public long maxUncompressedSize(int compressedSize) {
    return Long.MAX_VALUE;
  }
}
