package io.shelfmark.parquet.codec;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.lz4.Lz4Decompressor;

/**
 * LZ4_RAW (one bare LZ4 block) and the deprecated LZ4 codec. Writers disagree on the latter:
 * parquet-java writes Hadoop's framing (per frame a big-endian uncompressed length, then chunks of
 * a big-endian compressed length and an LZ4 block), older parquet-cpp wrote a bare block. As Arrow
 * does, the Hadoop framing is tried first and a bare block second.
 */
final class Lz4PageDecompressor implements PageDecompressor {
  private final Lz4Decompressor decompressor = new Lz4Decompressor();
  private final boolean hadoopFraming;

  Lz4PageDecompressor(boolean hadoopFraming) {
    this.hadoopFraming = hadoopFraming;
  }

  @Override
  public void decompress(
      byte[] input, int inputOffset, int inputLength, byte[] output, int outputOffset, int size)
      throws CorruptCompressedDataException {
    if (inputLength == 0) {
      SnappyPageDecompressor.requireEmpty(size);
      return;
    }
    if (hadoopFraming && tryHadoop(input, inputOffset, inputLength, output, outputOffset, size)) {
      return;
    }
    int written = block(input, inputOffset, inputLength, output, outputOffset, size);
    if (written != size) {
      throw new CorruptCompressedDataException(
          "lz4 block decompressed to %d bytes but the page header says %d"
              .formatted(written, size));
    }
  }

  private boolean tryHadoop(
      byte[] input, int inputOffset, int inputLength, byte[] output, int outputOffset, int size) {
    int in = inputOffset;
    int inEnd = inputOffset + inputLength;
    int out = 0;
    try {
      while (in < inEnd) {
        if (inEnd - in < 8) {
          return false;
        }
        long frameSize = bigEndianInt(input, in) & 0xFFFFFFFFL;
        in += 4;
        if (frameSize > size - out) {
          return false;
        }
        int frameEnd = out + (int) frameSize;
        while (out < frameEnd) {
          if (inEnd - in < 4) {
            return false;
          }
          long chunkSize = bigEndianInt(input, in) & 0xFFFFFFFFL;
          in += 4;
          if (chunkSize > inEnd - in) {
            return false;
          }
          int written =
              decompressor.decompress(
                  input, in, (int) chunkSize, output, outputOffset + out, frameEnd - out);
          in += (int) chunkSize;
          out += written;
        }
      }
      return out == size;
    } catch (MalformedInputException | IndexOutOfBoundsException e) {
      // Not Hadoop framing after all: the caller tries a bare block.
      return false;
    }
  }

  private int block(
      byte[] input, int inputOffset, int inputLength, byte[] output, int outputOffset, int size)
      throws CorruptCompressedDataException {
    try {
      return decompressor.decompress(input, inputOffset, inputLength, output, outputOffset, size);
    } catch (MalformedInputException | IndexOutOfBoundsException e) {
      throw new CorruptCompressedDataException(
          "malformed lz4 %s: %s"
              .formatted(
                  hadoopFraming ? "data (neither Hadoop frames nor a block)" : "block",
                  e.getMessage()),
          e);
    }
  }

  private static int bigEndianInt(byte[] data, int offset) {
    return (data[offset] & 0xFF) << 24
        | (data[offset + 1] & 0xFF) << 16
        | (data[offset + 2] & 0xFF) << 8
        | (data[offset + 3] & 0xFF);
  }

  /** An LZ4 sequence expands at most 255 times (plus frame headers). */
  @Override
  public long maxUncompressedSize(int compressedSize) {
    return compressedSize * 256L + 64;
  }
}
