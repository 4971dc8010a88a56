package io.shelfmark.parquet.codec;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.decoder.BrotliInputStream;
import io.shelfmark.parquet.ParquetLocation;
import io.shelfmark.parquet.UnsupportedParquetException;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * BROTLI through brotli4j (Google's brotli behind JNI; natives ship per platform on Maven Central).
 * Decompression streams into the page-sized output and stops at its end, so a decompression bomb
 * cannot grow past the size the header declares.
 */
final class BrotliPageDecompressor implements PageDecompressor {
  private BrotliPageDecompressor() {}

  static BrotliPageDecompressor create(ParquetLocation location)
      throws UnsupportedParquetException {
    if (!Brotli4jLoader.isAvailable()) {
      Throwable cause = Brotli4jLoader.getUnavailabilityCause();
      throw new UnsupportedParquetException(
          location,
          "codec BROTLI on this platform",
          "brotli4j's native library did not load: "
              + (cause == null ? "unknown cause" : cause.getMessage())
              + "; rewrite the file with ZSTD or SNAPPY");
    }
    return new BrotliPageDecompressor();
  }

  @Override
  public void decompress(
      byte[] input, int inputOffset, int inputLength, byte[] output, int outputOffset, int size)
      throws CorruptCompressedDataException {
    if (inputLength == 0) {
      SnappyPageDecompressor.requireEmpty(size);
      return;
    }
    try (BrotliInputStream stream =
        new BrotliInputStream(new ByteArrayInputStream(input, inputOffset, inputLength))) {
      int total = 0;
      while (total < size) {
        int read = stream.read(output, outputOffset + total, size - total);
        if (read < 0) {
          throw new CorruptCompressedDataException(
              "brotli stream decompressed to %d bytes but the page header says %d"
                  .formatted(total, size));
        }
        total += read;
      }
      if (stream.read() >= 0) {
        throw new CorruptCompressedDataException(
            "brotli stream decompresses to more than the %d bytes the page header says"
                .formatted(size));
      }
    } catch (CorruptCompressedDataException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CorruptCompressedDataException("malformed brotli stream: " + e.getMessage(), e);
    }
  }

  @Override
  public long maxUncompressedSize(int compressedSize) {
    return Long.MAX_VALUE;
  }
}
