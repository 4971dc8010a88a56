package io.shelfmark.parquet.codec;

import io.shelfmark.parquet.ParquetLocation;
import io.shelfmark.parquet.UnsupportedParquetException;
import org.apache.parquet.format.CompressionCodec;

/** The decompressor for each supported Parquet codec. */
public final class PageDecompressors {
  private PageDecompressors() {}

  /**
   * A decompressor for {@code codec}.
   *
   * @param location where the codec is used, for the error message
   * @throws UnsupportedParquetException for codecs without a decompressor (BROTLI, LZO)
   */
  public static PageDecompressor forCodec(CompressionCodec codec, ParquetLocation location)
      throws UnsupportedParquetException {
    throw new UnsupportedParquetException(
        location, "codec " + codec, "decompression is being implemented");
  }
}
