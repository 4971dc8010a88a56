package io.shelfmark.cli.bench.run;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.cli.bench.BenchOptions;
import io.shelfmark.cli.bench.BenchWriter;
import io.shelfmark.cli.bench.lake.ProxiedLake;
import io.shelfmark.cli.bench.report.BenchReport;
import io.shelfmark.generator.MetricsTable;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench --writer pyiceberg}: the table's data files are the ones pyiceberg's {@code
 * Table.append} writes with its default write properties, and every bench query over them answers
 * as DuckDB does. Two parts: the bench at a small scale (20,000 rows, every named query, checked
 * against DuckDB, each file's footer checked for pyiceberg's layout), and the writer script on its
 * own over a file with 300,000 distinct doubles, where pyiceberg's dictionary limit (2 MiB, {@code
 * write.parquet.dict-size-bytes}) shows against pyarrow's default (1 MiB): at 20,000 rows no
 * dictionary reaches either. Needs a Python with pyarrow and pyiceberg: bin/test passes the venv it
 * builds as {@code -Dshelfmark.python}.
 */
class TestPyicebergWriterBench {
  private static final int MIB = 1024 * 1024;
  // pyiceberg passes write.parquet.page-row-limit (20,000) as pyarrow's write_batch_size, and
  // pyarrow checks the dictionary's size after each batch.
  private static final int WRITE_BATCH_ROWS = 20_000;
  @TempDir static Path dir;
  private static String python;

  @BeforeAll
  static void findPython() {
    python = WriterBenchRun.python("pyarrow and pyiceberg");
  }

  @Test
  void benchOnPyicebergFilesMatchesDuckDb() throws Exception {
    WriterBenchRun run = WriterBenchRun.run("pyiceberg", python, dir);
    BenchReport report = run.report();
    BenchOptions options = run.options();
    try (ProxiedLake lake =
        ProxiedLake.start(options.lakeDir(), Duration.ZERO, OptionalLong.empty())) {
      var table = lake.lake().catalog().loadTable(BenchTable.ID);
      assertThat(table.properties()).containsEntry(PyarrowTable.WRITER_PROPERTY, "pyiceberg");
      List<Path> files = BenchTable.localFiles(lake, table);
      assertThat(files).hasSize((int) report.table().dataFiles());
      for (Path file : files) {
        assertThat(file.getFileName().toString()).endsWith("-pyiceberg.parquet");
        assertPyicebergLayout(file);
      }
      TestPyarrowWriterBench.assertAnswersEqualDuckDb(lake, options, files);
    }
  }

  /**
   * pyiceberg's write of one file with 300,000 distinct doubles: zstd, the field ids of the source,
   * and a dictionary page that grew past pyarrow's default 1 MiB to pyiceberg's 2 MiB before the
   * chunk fell back to PLAIN pages (the sequential ids' dictionary, 2.4 MB, falls back too).
   */
  @Test
  void dictionaryPagesGrowToPyicebergsLimit() throws Exception {
    Path work = Files.createDirectories(dir.resolve("dictionary"));
    Schema schema =
        new Schema(
            required(1, "id", Types.LongType.get()), optional(2, "value", Types.DoubleType.get()));
    Path source = work.resolve("source.parquet");
    SplittableRandom random = new SplittableRandom(25);
    try (FileAppender<Record> appender =
        Parquet.write(org.apache.iceberg.Files.localOutput(source.toFile()))
            .schema(schema)
            .createWriterFunc(GenericParquetWriter::create)
            .build()) {
      GenericRecord record = GenericRecord.create(schema);
      for (long i = 0; i < 300_000; i++) {
        appender.add(record.copy("id", i, "value", random.nextDouble()));
      }
    }
    Path target = work.resolve("00000.parquet");
    Path script = work.resolve(PyarrowTable.script(BenchWriter.PYICEBERG));
    try (InputStream in =
        PyarrowTable.class.getResourceAsStream(
            "/io/shelfmark/cli/bench/lake/" + script.getFileName())) {
      assertThat(in).as("the writer script is a resource of the cli module").isNotNull();
      Files.copy(in, script);
    }
    Path list = work.resolve("files.json");
    Files.writeString(
        list, "[{\"source\": \"" + source + "\", \"target\": \"" + target + "\"}]", UTF_8);
    Process process =
        new ProcessBuilder(python, script.toString(), list.toString())
            .redirectErrorStream(true)
            .start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), UTF_8);
    assertThat(process.waitFor(5, TimeUnit.MINUTES)).as(output).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    assertThat(output)
        .contains("\"targets\": [\"" + target + "\"]", "\"rows\": 300000", "\"pyiceberg\": \"");

    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(target))) {
      List<Type> fields = reader.getFileMetaData().getSchema().getFields();
      assertThat(fields).extracting(field -> field.getId().intValue()).containsExactly(1, 2);
      BlockMetaData rowGroup = reader.getRowGroups().get(0);
      for (ColumnChunkMetaData column : rowGroup.getColumns()) {
        assertThat(column.getCodec())
            .as(column.getPath().toString())
            .isEqualTo(CompressionCodecName.ZSTD);
        assertThat(column.getEncodingStats().hasNonDictionaryEncodedPages())
            .as("%s fell back to PLAIN past the dictionary limit", column.getPath())
            .isTrue();
        int dictionary = dictionaryPageSize(target, column);
        assertThat(dictionary)
            .as("%s's dictionary page (uncompressed bytes)", column.getPath())
            .isGreaterThanOrEqualTo(2 * MIB)
            .isLessThan(2 * MIB + WRITE_BATCH_ROWS * Long.BYTES);
      }
    }
  }

  /** Written by pyarrow under pyiceberg: zstd, a dictionary page per chunk, the tables' ids. */
  private static void assertPyicebergLayout(Path file) throws Exception {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
      assertThat(reader.getFileMetaData().getCreatedBy())
          .as(file.toString())
          .startsWith("parquet-cpp-arrow version ");
      assertThat(reader.getFileMetaData().getKeyValueMetaData())
          .as("%s carries no Java writer's metadata", file)
          .doesNotContainKey("iceberg.schema");
      assertThat(reader.getFileMetaData().getSchema().getFields())
          .extracting(field -> field.getId().intValue())
          .as("%s has the Iceberg table's field ids", file)
          .containsExactly(
              MetricsTable.ORG_ID_FIELD_ID,
              MetricsTable.METRIC_FIELD_ID,
              MetricsTable.RESOLUTION_FIELD_ID,
              MetricsTable.LOGICAL_TIMESTAMP_FIELD_ID,
              MetricsTable.SUM_ROLLUP_FIELD_ID,
              MetricsTable.LATEST_ROLLUP_FIELD_ID,
              MetricsTable.DIMENSIONS_FIELD_ID);
      assertThat(reader.getRowGroups()).isNotEmpty();
      for (BlockMetaData rowGroup : reader.getRowGroups()) {
        assertThat(rowGroup.getColumns()).hasSize(8);
        for (ColumnChunkMetaData column : rowGroup.getColumns()) {
          assertThat(column.getCodec())
              .as("%s column %s", file, column.getPath())
              .isEqualTo(CompressionCodecName.ZSTD);
          assertThat(column.hasDictionaryPage())
              .as("%s column %s has a dictionary page", file, column.getPath())
              .isTrue();
        }
      }
    }
  }

  private static int dictionaryPageSize(Path file, ColumnChunkMetaData column) throws Exception {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      channel.position(column.getDictionaryPageOffset());
      PageHeader header = Util.readPageHeader(Channels.newInputStream(channel));
      assertThat(header.isSetDictionary_page_header())
          .as("%s's first page is a dictionary page", column.getPath())
          .isTrue();
      return header.getUncompressed_page_size();
    }
  }
}
