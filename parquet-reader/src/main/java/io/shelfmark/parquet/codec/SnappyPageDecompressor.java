package io.shelfmark.parquet.codec;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.snappy.SnappyDecompressor;

/** SNAPPY through aircompressor; the stream's own length preamble is checked first. */
final class SnappyPageDecompressor implements PageDecompressor {
  private final SnappyDecompressor decompressor = new SnappyDecompressor();

  @Override
  public void decompress(
      byte[] input, int inputOffset, int inputLength, byte[] output, int outputOffset, int size)
      throws CorruptCompressedDataException {
    if (inputLength == 0) {
      requireEmpty(size);
      return;
    }
    try {
      int declared = SnappyDecompressor.getUncompressedLength(input, inputOffset);
      if (declared != size) {
        throw new CorruptCompressedDataException(
            "snappy stream declares %d uncompressed bytes but the page header says %d"
                .formatted(declared, size));
      }
      int written =
          decompressor.decompress(input, inputOffset, inputLength, output, outputOffset, size);
      if (written != size) {
        throw new CorruptCompressedDataException(
            "snappy stream decompressed to %d bytes but the page header says %d"
                .formatted(written, size));
      }
    } catch (MalformedInputException | IndexOutOfBoundsException e) {
      throw new CorruptCompressedDataException("malformed snappy stream: " + e.getMessage(), e);
    }
  }

  static void requireEmpty(int size) throws CorruptCompressedDataException {
    if (size != 0) {
      throw new CorruptCompressedDataException(
          "page has no compressed bytes but its header says %d uncompressed bytes".formatted(size));
    }
  }

  /** A snappy copy element of 3 bytes yields at most 64 bytes. */
  @Override
  public long maxUncompressedSize(int compressedSize) {
    return compressedSize * 22L + 32;
  }
}
