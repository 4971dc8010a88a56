package io.shelfmark.parquet.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.encoder.Encoder;
import io.airlift.compress.Compressor;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.snappy.SnappyCompressor;
import io.airlift.compress.zstd.ZstdCompressor;
import io.shelfmark.parquet.ParquetLocation;
import io.shelfmark.parquet.UnsupportedParquetException;
import io.shelfmark.parquet.codec.PageDecompressor.CorruptCompressedDataException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.format.CompressionCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TestPageDecompressors {
  private static final ParquetLocation LOCATION = ParquetLocation.file("f.parquet").withColumn("c");
  private static final byte[] PAGE = page();

  @ParameterizedTest
  @EnumSource(
      value = CompressionCodec.class,
      names = {"UNCOMPRESSED", "SNAPPY", "GZIP", "ZSTD", "LZ4_RAW", "LZ4", "BROTLI"})
  void roundTrips(CompressionCodec codec) throws Exception {
    byte[] compressed = compress(codec, PAGE);
    PageDecompressor decompressor = PageDecompressors.forCodec(codec, LOCATION);
    assertThat(decompressor.maxUncompressedSize(compressed.length))
        .isGreaterThanOrEqualTo(PAGE.length);
    byte[] output = new byte[PAGE.length + 3];
    decompressor.decompress(padded(compressed), 5, compressed.length, output, 3, PAGE.length);
    assertThat(Arrays.copyOfRange(output, 3, output.length)).isEqualTo(PAGE);
  }

  @ParameterizedTest
  @EnumSource(
      value = CompressionCodec.class,
      names = {"UNCOMPRESSED", "SNAPPY", "GZIP", "ZSTD", "LZ4_RAW", "LZ4", "BROTLI"})
  void sizeOtherThanTheHeaderSaysIsCorrupt(CompressionCodec codec) throws Exception {
    byte[] compressed = compress(codec, PAGE);
    PageDecompressor decompressor = PageDecompressors.forCodec(codec, LOCATION);
    assertThatThrownBy(
            () ->
                decompressor.decompress(
                    compressed,
                    0,
                    compressed.length,
                    new byte[PAGE.length + 10],
                    0,
                    PAGE.length + 10))
        .isInstanceOf(CorruptCompressedDataException.class);
    assertThatThrownBy(
            () ->
                decompressor.decompress(
                    compressed, 0, compressed.length, new byte[PAGE.length], 0, PAGE.length - 1))
        .isInstanceOf(CorruptCompressedDataException.class);
  }

  @ParameterizedTest
  @EnumSource(
      value = CompressionCodec.class,
      names = {"SNAPPY", "GZIP", "ZSTD", "LZ4_RAW", "LZ4", "BROTLI"})
  void garbageIsCorrupt(CompressionCodec codec) throws Exception {
    byte[] garbage = new byte[300];
    new Random(codec.ordinal()).nextBytes(garbage);
    PageDecompressor decompressor = PageDecompressors.forCodec(codec, LOCATION);
    assertThatThrownBy(
            () -> decompressor.decompress(garbage, 0, garbage.length, new byte[4096], 0, 4096))
        .isInstanceOf(CorruptCompressedDataException.class);
  }

  /** Two gzip members in one page, as some writers produce. */
  @Test
  void concatenatedGzipMembers() throws Exception {
    byte[] first = gzip(Arrays.copyOfRange(PAGE, 0, 1000));
    byte[] second = gzip(Arrays.copyOfRange(PAGE, 1000, PAGE.length));
    byte[] both = ByteBuffer.allocate(first.length + second.length).put(first).put(second).array();
    byte[] output = new byte[PAGE.length];
    PageDecompressors.forCodec(CompressionCodec.GZIP, LOCATION)
        .decompress(both, 0, both.length, output, 0, PAGE.length);
    assertThat(output).isEqualTo(PAGE);
  }

  /** Older parquet-cpp wrote a bare LZ4 block under the LZ4 codec. */
  @Test
  void lz4CodecAcceptsABareBlock() throws Exception {
    byte[] block = compress(CompressionCodec.LZ4_RAW, PAGE);
    byte[] output = new byte[PAGE.length];
    PageDecompressors.forCodec(CompressionCodec.LZ4, LOCATION)
        .decompress(block, 0, block.length, output, 0, PAGE.length);
    assertThat(output).isEqualTo(PAGE);
  }

  @Test
  void emptyInputOnlyForEmptyPages() throws Exception {
    PageDecompressor snappy = PageDecompressors.forCodec(CompressionCodec.SNAPPY, LOCATION);
    snappy.decompress(new byte[0], 0, 0, new byte[0], 0, 0);
    assertThatThrownBy(() -> snappy.decompress(new byte[0], 0, 0, new byte[8], 0, 8))
        .isInstanceOf(CorruptCompressedDataException.class)
        .hasMessage("page has no compressed bytes but its header says 8 uncompressed bytes");
  }

  @Test
  void lzoIsUnsupported() {
    assertThatThrownBy(() -> PageDecompressors.forCodec(CompressionCodec.LZO, LOCATION))
        .isInstanceOf(UnsupportedParquetException.class)
        .hasMessage(
            "Cannot read Parquet file f.parquet, column c: codec LZO is not supported (rewrite the file with ZSTD, SNAPPY or GZIP)");
  }

  private static byte[] page() {
    // Compressible like a real page: repeated runs with some noise.
    Random random = new Random(1);
    byte[] page = new byte[20_000];
    for (int i = 0; i < page.length; i++) {
      page[i] = (byte) (random.nextInt(10) == 0 ? random.nextInt() : i / 100);
    }
    return page;
  }

  private static byte[] padded(byte[] compressed) {
    byte[] padded = new byte[compressed.length + 9];
    System.arraycopy(compressed, 0, padded, 5, compressed.length);
    return padded;
  }

  static byte[] compress(CompressionCodec codec, byte[] data) throws IOException {
    return switch (codec) {
      case UNCOMPRESSED -> data.clone();
      case SNAPPY -> compress(new SnappyCompressor(), data);
      case ZSTD -> compress(new ZstdCompressor(), data);
      case LZ4_RAW -> compress(new Lz4Compressor(), data);
      case LZ4 -> hadoopLz4(data);
      case GZIP -> gzip(data);
      case BROTLI -> {
        Brotli4jLoader.ensureAvailability();
        yield Encoder.compress(data);
      }
      default -> throw new IllegalArgumentException("no compressor for " + codec);
    };
  }

  private static byte[] compress(Compressor compressor, byte[] data) {
    byte[] out = new byte[compressor.maxCompressedLength(data.length)];
    int length = compressor.compress(data, 0, data.length, out, 0, out.length);
    return Arrays.copyOf(out, length);
  }

  /** Hadoop's block framing: per frame its uncompressed length, then one sized LZ4 block. */
  private static byte[] hadoopLz4(byte[] data) {
    ByteBuffer out = ByteBuffer.allocate(data.length * 2 + 64);
    for (int start = 0; start < data.length; start += 8000) {
      byte[] chunk = Arrays.copyOfRange(data, start, Math.min(data.length, start + 8000));
      byte[] block = compress(new Lz4Compressor(), chunk);
      out.putInt(chunk.length).putInt(block.length).put(block);
    }
    return Arrays.copyOf(out.array(), out.position());
  }

  private static byte[] gzip(byte[] data) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(data);
    }
    return bytes.toByteArray();
  }
}
