package io.shelfmark.benchmarks.parquet;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.deltalengthbytearray.DeltaLengthByteArrayValuesWriter;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Writes a benchmark file with parquet-java: one column of one {@link DecodingCase}, one row group,
 * parquet-java's default page limits (1 MiB or 20,000 values per page), page checksums and page
 * indexes as parquet-java writes them by default. Values come from a {@link ValueDistribution}
 * seeded with {@code seed}, so a file is the same for the same parameters.
 */
final class BenchmarkFiles {
  /** Large enough that every case's file is a single row group (one column chunk to decode). */
  private static final long ROW_GROUP_BYTES = 512L << 20;

  /** parquet-java's default page value limit, used for the pages written by hand. */
  private static final int PAGE_VALUES = 20_000;

  private static final int DICTIONARY_CARDINALITY = 64;

  private BenchmarkFiles() {}

  static void write(
      Path file,
      DecodingCase kind,
      CompressionCodecName codec,
      ValueDistribution distribution,
      long seed,
      int values)
      throws IOException {
    requireNonNull(file, "file is null");
    requireNonNull(kind, "kind is null");
    requireNonNull(codec, "codec is null");
    requireNonNull(distribution, "distribution is null");
    if (values <= 0) {
      throw new IllegalArgumentException("Cannot write %s: %d values".formatted(file, values));
    }
    MessageType schema = MessageTypeParser.parseMessageType(kind.schema());
    SplittableRandom random = new SplittableRandom(seed);
    if (kind.recordWriterVersion().isPresent()) {
      writeRecords(
          file,
          kind,
          kind.recordWriterVersion().get(),
          schema,
          codec,
          distribution,
          random,
          values);
    } else {
      writeDeltaLengthPages(file, schema, codec, distribution, random, values);
    }
  }

  private static void writeRecords(
      Path file,
      DecodingCase kind,
      WriterVersion version,
      MessageType schema,
      CompressionCodecName codec,
      ValueDistribution distribution,
      SplittableRandom random,
      int values)
      throws IOException {
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(file))
            .withConf(new Configuration(false))
            .withType(schema)
            .withWriterVersion(version)
            .withCompressionCodec(codec)
            .withDictionaryEncoding(kind.dictionaryEncoded())
            .withByteStreamSplitEncoding(kind.encoding() == Encoding.BYTE_STREAM_SPLIT)
            .withRowGroupSize(ROW_GROUP_BYTES)
            .build()) {
      for (int i = 0; i < values; i++) {
        Group row = groups.newGroup();
        // Draw before deciding on null so the non-null values do not depend on the null pattern.
        double value = distribution.next(random);
        if (!kind.optional() || random.nextInt(10) != 0) {
          switch (kind.type()) {
            case INT64 -> row.append(DecodingCase.COLUMN, (long) Math.floor(value));
            case DOUBLE -> row.append(DecodingCase.COLUMN, value);
            case BINARY -> row.append(DecodingCase.COLUMN, string(kind, (long) Math.floor(value)));
            default -> throw new IllegalStateException("Cannot generate " + kind.type());
          }
        }
        writer.write(row);
      }
    }
  }

  /** The string for {@code value}: low cardinality for dictionaries, shared prefixes otherwise. */
  static String string(DecodingCase kind, long value) {
    if (kind.dictionaryEncoded()) {
      return "city-" + Math.floorMod(value, DICTIONARY_CARDINALITY);
    }
    return "https://shelfmark.io/obs/service-" + value;
  }

  /**
   * DELTA_LENGTH_BYTE_ARRAY pages through parquet-java's file writer: its encoder, its compressor
   * and its page and footer writing (with statistics, so it also writes the page indexes).
   */
  private static void writeDeltaLengthPages(
      Path file,
      MessageType schema,
      CompressionCodecName codec,
      ValueDistribution distribution,
      SplittableRandom random,
      int values)
      throws IOException {
    ColumnDescriptor column = schema.getColumns().getFirst();
    if (column.getPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.BINARY
        || column.getMaxDefinitionLevel() != 0) {
      throw new IllegalArgumentException("Cannot write DELTA_LENGTH_BYTE_ARRAY pages of " + column);
    }
    CodecFactory codecs = new CodecFactory(new Configuration(false), 1 << 20);
    try (ParquetFileWriter writer =
        new ParquetFileWriter(
            new LocalOutputFile(file), schema, ParquetFileWriter.Mode.CREATE, ROW_GROUP_BYTES, 0)) {
      BytesInputCompressor compressor = codecs.getCompressor(codec);
      writer.start();
      writer.startBlock(values);
      writer.startColumn(column, values, codec);
      for (int written = 0; written < values; ) {
        int count = Math.min(PAGE_VALUES, values - written);
        DeltaLengthByteArrayValuesWriter encoder =
            new DeltaLengthByteArrayValuesWriter(
                64 << 10, 1 << 20, HeapByteBufferAllocator.getInstance());
        Statistics<?> statistics = Statistics.createStats(column.getPrimitiveType());
        for (int i = 0; i < count; i++) {
          Binary value =
              Binary.fromString(
                  string(
                      DecodingCase.STRING_DELTA_LENGTH_BYTE_ARRAY, distribution.nextLong(random)));
          encoder.writeBytes(value);
          statistics.updateStats(value);
        }
        BytesInput page = encoder.getBytes();
        int uncompressedSize = Math.toIntExact(page.size());
        // Copy: the compressor may reuse its output buffer for the next page.
        BytesInput compressed = BytesInput.copy(compressor.compress(page));
        writer.writeDataPageV2(
            count,
            0,
            count,
            BytesInput.empty(),
            BytesInput.empty(),
            Encoding.DELTA_LENGTH_BYTE_ARRAY,
            compressed,
            uncompressedSize,
            statistics);
        encoder.close();
        written += count;
      }
      writer.endColumn();
      writer.endBlock();
      writer.end(Map.of());
    } finally {
      codecs.release();
    }
  }
}
