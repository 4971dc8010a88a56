package io.shelfmark.parquet.codec;

import java.io.IOException;

/**
 * Decompresses one page body with one Parquet codec. An instance may keep reusable scratch state,
 * so it is used by one thread at a time (one per column chunk decoder); {@link
 * PageDecompressors#forCodec} returns a fresh one per call.
 */
public interface PageDecompressor {
  /**
   * Decompresses {@code input[inputOffset, inputOffset + inputLength)} into exactly {@code
   * output[outputOffset, outputOffset + uncompressedSize)}.
   *
   * @throws CorruptCompressedDataException when the input is not a valid stream of this codec or
   *     does not decompress to exactly {@code uncompressedSize} bytes; the caller adds the location
   */
  void decompress(
      byte[] input,
      int inputOffset,
      int inputLength,
      byte[] output,
      int outputOffset,
      int uncompressedSize)
      throws CorruptCompressedDataException;

  /**
   * The largest uncompressed size {@code compressedSize} bytes of this codec can produce, so a
   * caller can refuse a lying size field before allocating for it. Codecs without a useful bound
   * return {@link Long#MAX_VALUE}; the caller's absolute page size limit applies then.
   */
  long maxUncompressedSize(int compressedSize);

  /** Compressed bytes that do not decompress as the page header says; the caller adds where. */
  final class CorruptCompressedDataException extends IOException {
    public CorruptCompressedDataException(String reason) {
      super(reason);
    }

    public CorruptCompressedDataException(String reason, Throwable cause) {
      super(reason, cause);
    }
  }
}
