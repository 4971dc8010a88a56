package io.shelfmark.parquet.codec;

import io.airlift.compress.v3.MalformedInputException;
import io.airlift.compress.v3.zstd.ZstdDecompressor;

/**
 * ZSTD through aircompressor's v3 line (one or more frames): the bundled native libzstd where the
 * platform has one (Linux and macOS on x86-64 and arm64), else its pure-Java decoder. The profile
 * of a hot query that reads 3 MB of zstd pages spent about 40% of its CPU in the pure-Java Huffman
 * decoder; libzstd decodes the same pages several times faster.
 */
final class ZstdPageDecompressor implements PageDecompressor {
  private final ZstdDecompressor decompressor = ZstdDecompressor.create();

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
