package io.shelfmark.parquet.codec;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.zip.GZIPInputStream;

/**
 * GZIP through the JDK's inflater. {@link GZIPInputStream} reads concatenated members, which some
 * writers produce for one page.
 */
final class GzipPageDecompressor implements PageDecompressor {
  @Override
  public void decompress(
      byte[] input, int inputOffset, int inputLength, byte[] output, int outputOffset, int size)
      throws CorruptCompressedDataException {
    if (inputLength == 0) {
      SnappyPageDecompressor.requireEmpty(size);
      return;
    }
    try (GZIPInputStream stream =
        new GZIPInputStream(new ByteArrayInputStream(input, inputOffset, inputLength), 8192)) {
      int total = 0;
      while (total < size) {
        int read = stream.read(output, outputOffset + total, size - total);
        if (read < 0) {
          throw new CorruptCompressedDataException(
              "gzip stream decompressed to %d bytes but the page header says %d"
                  .formatted(total, size));
        }
        total += read;
      }
      if (stream.read() >= 0) {
        throw new CorruptCompressedDataException(
            "gzip stream decompresses to more than the %d bytes the page header says"
                .formatted(size));
      }
    } catch (CorruptCompressedDataException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CorruptCompressedDataException("malformed gzip stream: " + e.getMessage(), e);
    }
  }

  /** Deflate expands at most about 1032 times. */
  @Override
  public long maxUncompressedSize(int compressedSize) {
    return compressedSize * 1040L + 1024;
  }
}
