package io.shelfmark.parquet.decode;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.schema.ColumnSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Files parquet-java writes (the writer under Iceberg, Spark and Hive): writer v1 (data page v1,
 * PLAIN and dictionary) and v2 (data page v2, DELTA_BINARY_PACKED, DELTA_BYTE_ARRAY, RLE booleans),
 * dictionaries on and off, every codec it has without native code, small pages so chunks hold many.
 * Each decodes, all rows and a random selection, to what DuckDB reads.
 */
class TestParquetJavaWrittenFiles {
  private static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          """
          message row {
            required int64 id;
            optional int32 small_int;
            optional int64 timestamp_millis (TIMESTAMP(MILLIS,true));
            optional float ratio;
            required double score;
            optional boolean flag;
            optional binary city (STRING);
            optional binary payload;
            optional fixed_len_byte_array(8) amount (DECIMAL(18,4));
            optional int32 day (DATE);
            optional group tags (LIST) {
              repeated group list {
                optional binary element (STRING);
              }
            }
            optional group dimensions (MAP) {
              repeated group key_value {
                required binary key (STRING);
                optional binary value (STRING);
              }
            }
          }
          """);

  private static final int ROWS = 4000;

  @TempDir static Path directory;
  private static TestingDuckDbOracle duckDb;

  @BeforeAll
  static void start() throws Exception {
    duckDb = new TestingDuckDbOracle();
  }

  @AfterAll
  static void stop() throws Exception {
    duckDb.close();
  }

  /** Each codec at least once, each writer version with and without dictionaries twice. */
  static Stream<Arguments> variants() {
    return Stream.of(
        Arguments.of(WriterVersion.PARQUET_1_0, true, CompressionCodecName.UNCOMPRESSED),
        Arguments.of(WriterVersion.PARQUET_1_0, false, CompressionCodecName.SNAPPY),
        Arguments.of(WriterVersion.PARQUET_1_0, true, CompressionCodecName.ZSTD),
        Arguments.of(WriterVersion.PARQUET_1_0, false, CompressionCodecName.GZIP),
        Arguments.of(WriterVersion.PARQUET_2_0, true, CompressionCodecName.GZIP),
        Arguments.of(WriterVersion.PARQUET_2_0, false, CompressionCodecName.ZSTD),
        Arguments.of(WriterVersion.PARQUET_2_0, false, CompressionCodecName.LZ4_RAW),
        Arguments.of(WriterVersion.PARQUET_2_0, true, CompressionCodecName.SNAPPY));
  }

  @ParameterizedTest(name = "{0} dictionary={1} {2}")
  @MethodSource("variants")
  void decodesLikeDuckDbReads(WriterVersion version, boolean dictionary, CompressionCodecName codec)
      throws Exception {
    Path file =
        directory.resolve("parquet-java-%s-%s-%s.parquet".formatted(version, dictionary, codec));
    write(file, version, dictionary, codec);
    TestingLocalParquetReader reader = TestingLocalParquetReader.open(file);
    assertThat(reader.schema().columns()).hasSize(13);
    Random random = new Random(file.getFileName().toString().hashCode());
    for (ColumnSchema column : reader.schema().columns()) {
      List<Object> expected = duckDb.column(file, reader.footer().getSchema(), column);
      List<Object> all = new ArrayList<>();
      List<Object> selectedActual = new ArrayList<>();
      List<Object> selectedExpected = new ArrayList<>();
      List<Long> ordinals = new ArrayList<>();
      long firstRow = 0;
      for (int rowGroup = 0; rowGroup < reader.rowGroups(); rowGroup++) {
        int rowCount = (int) reader.rowCount(rowGroup);
        all.addAll(TestingCanonicalValues.rows(reader.read(rowGroup, column.index())));
        int[] rows = TestParquetTestingCorpus.randomRows(random, rowCount);
        selectedActual.addAll(
            TestingCanonicalValues.rows(
                reader.read(rowGroup, column.index(), RowSelection.InRowGroup.of(rowCount, rows))));
        for (int row : rows) {
          selectedExpected.add(expected.get((int) (firstRow + row)));
          ordinals.add(firstRow + row);
        }
        firstRow += rowCount;
      }
      String name = file.getFileName().toString();
      TestParquetTestingCorpus.assertSameRows(name, column, expected, all, null);
      TestParquetTestingCorpus.assertSameRows(
          name, column, selectedExpected, selectedActual, ordinals);
    }
  }

  private static void write(
      Path file, WriterVersion version, boolean dictionary, CompressionCodecName codec)
      throws Exception {
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(file))
            .withConf(new Configuration(false))
            .withType(SCHEMA)
            .withWriterVersion(version)
            .withCompressionCodec(codec)
            .withDictionaryEncoding(dictionary)
            .withRowGroupRowCountLimit(2500)
            .withPageRowCountLimit(300)
            .withMinRowCountForPageSizeCheck(1)
            .build()) {
      for (long i = 0; i < ROWS; i++) {
        Group row = groups.newGroup().append("id", i * 7919 - 1_000_000).append("score", i / 3.0);
        if (i % 13 != 0) {
          row.append("small_int", (int) (i % 1000) - 500);
        }
        if (i % 17 != 0) {
          row.append("timestamp_millis", 1_754_092_800_000L + i * 1234);
        }
        if (i % 19 != 0) {
          row.append("ratio", i / 7.0f);
        }
        if (i % 3 != 0) {
          row.append("flag", i % 5 == 0);
        }
        if (i % 11 != 0) {
          row.append("city", "city-" + (i % 40));
        }
        if (i % 23 != 0) {
          row.append(
              "payload",
              Binary.fromConstantByteArray(new byte[] {(byte) i, (byte) (i >> 8), 0, -1}));
        }
        if (i % 29 != 0) {
          row.append(
              "amount",
              Binary.fromConstantByteArray(
                  java.nio.ByteBuffer.allocate(8).putLong(i * 12345 - 40_000_000).array()));
        }
        if (i % 31 != 0) {
          row.append("day", (int) (18_000 + i % 400));
        }
        if (i % 7 != 0) {
          Group tags = row.addGroup("tags");
          for (int t = 0; t < i % 4; t++) {
            Group element = tags.addGroup("list");
            if ((i + t) % 9 != 0) {
              element.append("element", "t" + (i + t) % 25);
            }
          }
        }
        if (i % 5 != 0) {
          Group dimensions = row.addGroup("dimensions");
          for (int k = 0; k < 1 + i % 3; k++) {
            Group entry = dimensions.addGroup("key_value").append("key", "k" + k);
            if ((i + k) % 4 != 0) {
              entry.append("value", "v" + (i * (k + 1)) % 61);
            }
          }
        }
        writer.write(row);
      }
    }
  }
}
