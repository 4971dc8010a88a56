package io.shelfmark.parquet.codec;

import java.io.IOException;

/**
 * Decompresses one page body with one Parquet codec. Implementations are stateless or keep only
 * reusable scratch state; an instance is used by one thread at a time (one per column chunk
 * decoder), and {@link PageDecompressors#forCodec} returns a fresh one per call.
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

  /** An exception a caller wraps into a CorruptParquetException naming the page. */
  final class CorruptCompressedDataException extends IOException {
    public CorruptCompressedDataException(String reason) {
      super(reason);
    }

    public CorruptCompressedDataException(String reason, Throwable cause) {
      super(reason, cause);
    }
  }
}
