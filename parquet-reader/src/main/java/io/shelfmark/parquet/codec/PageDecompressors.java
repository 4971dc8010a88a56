package io.shelfmark.parquet.codec;

import io.shelfmark.parquet.ParquetLocation;
import io.shelfmark.parquet.UnsupportedParquetException;
import org.apache.parquet.format.CompressionCodec;

/**
 * The decompressor for each supported Parquet codec: UNCOMPRESSED, SNAPPY, GZIP (including
 * concatenated members), ZSTD, LZ4_RAW, LZ4 (Hadoop framing, or a bare LZ4 block as older
 * parquet-cpp wrote) and BROTLI (through brotli4j's native library, when it loads on this
 * platform). LZO is refused.
 */
public final class PageDecompressors {
  private PageDecompressors() {}

  /**
   * A new decompressor for {@code codec}.
   *
   * @param location where the codec is used, for the error message
   * @throws UnsupportedParquetException for codecs without a decompressor here
   */
  public static PageDecompressor forCodec(CompressionCodec codec, ParquetLocation location)
      throws UnsupportedParquetException {
    return switch (codec) {
      case UNCOMPRESSED -> new UncompressedPageDecompressor();
      case SNAPPY -> new SnappyPageDecompressor();
      case GZIP -> new GzipPageDecompressor();
      case ZSTD -> new ZstdPageDecompressor();
      case LZ4_RAW -> new Lz4PageDecompressor(false);
      case LZ4 -> new Lz4PageDecompressor(true);
      case BROTLI -> BrotliPageDecompressor.create(location);
      case LZO ->
          throw new UnsupportedParquetException(
              location, "codec LZO", "rewrite the file with ZSTD, SNAPPY or GZIP");
    };
  }
}
