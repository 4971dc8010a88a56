package io.shelfmark.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.config.unit.DataSize;
import io.shelfmark.generator.distribution.MetricsDistribution;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestMetricsTableGenerator {
  private static final TableIdentifier ID = TableIdentifier.of("obs", "metrics");

  @TempDir Path directory;
  private JdbcCatalog catalog;

  @BeforeEach
  void openCatalog() {
    catalog = TestingCatalogs.sqlite(directory);
  }

  @AfterEach
  void closeCatalog() throws IOException {
    catalog.close();
  }

  @Test
  void createsTheTableWithItsSchemaSpecSortOrderAndPropertiesReportingProgress()
      throws IOException {
    List<long[]> calls = new ArrayList<>();
    GenerateReport report =
        MetricsTableGenerator.generate(
            catalog,
            ID,
            options(20_000, 42).parallelism(2).build(),
            (written, total) -> calls.add(new long[] {written, total}));

    Table table = catalog.loadTable(ID);
    assertThat(table.schema().sameSchema(MetricsTable.SCHEMA)).isTrue();
    assertThat(table.schema().findField("dimensions").fieldId()).isEqualTo(7);
    assertThat(table.schema().findField("logical_timestamp").type())
        .isEqualTo(Types.LongType.get());
    List<PartitionField> fields = table.spec().fields();
    assertThat(fields)
        .extracting(PartitionField::name)
        .containsExactly("org_id", "logical_timestamp_day");
    assertThat(fields)
        .extracting(field -> field.transform().toString())
        .containsExactly("identity", "truncate[86400000]");
    assertThat(table.sortOrder().fields()).hasSize(1);
    assertThat(table.sortOrder().fields().get(0).sourceId()).isEqualTo(4);
    assertThat(table.properties())
        .containsEntry("write.parquet.compression-codec", "zstd")
        .containsEntry("write.parquet.row-group-size-bytes", Long.toString(32L << 20))
        .containsEntry("write.parquet.page-size-bytes", Long.toString(1L << 20))
        .containsEntry("write.parquet.page-row-limit", "20000")
        .containsEntry("shelfmark.generator.rows", "20000")
        .containsEntry("shelfmark.generator.seed", "42")
        .containsEntry("shelfmark.generator.version", "1");
    assertThat(table.currentSnapshot().summary()).containsEntry("total-records", "20000");

    List<DataFile> files = dataFiles(table);
    assertThat(report.reused()).isFalse();
    assertThat(report.rows()).isEqualTo(20_000);
    assertThat(report.files()).isEqualTo(files.size());
    assertThat(report.bytes()).isEqualTo(files.stream().mapToLong(DataFile::fileSizeInBytes).sum());
    assertThat(report.summary()).startsWith("Generated table obs.metrics: 20,000 rows in ");

    assertThat(calls).isNotEmpty();
    long previous = 0;
    for (long[] call : calls) {
      assertThat(call[1]).isEqualTo(20_000);
      assertThat(call[0]).isGreaterThan(previous).isLessThanOrEqualTo(20_000);
      previous = call[0];
    }
    assertThat(previous).isEqualTo(20_000);
  }

  @Test
  void eachDataFileHoldsOnePartitionInTimeOrderInZstdPagesWithPageIndexes() throws IOException {
    // Small files, row groups and pages, so that each of them comes in several.
    generate(
        options(100_000, 7)
            .maxRowsPerFile(3_000)
            .rowGroupSize(DataSize.ofBytes(32 * 1024))
            .pageSize(DataSize.ofBytes(8 * 1024))
            .pageRowLimit(500)
            .build());

    Table table = catalog.loadTable(ID);
    List<DataFile> files = dataFiles(table);
    assertThat(files.size()).isGreaterThan(150);
    long total = 0;
    for (DataFile file : files) {
      long orgId = file.partition().get(0, Long.class);
      long day = file.partition().get(1, Long.class);
      assertThat(file.sortOrderId()).isEqualTo(table.sortOrder().orderId());
      long previous = Long.MIN_VALUE;
      long rows = 0;
      for (Record row : read(table, file)) {
        long timestamp = (Long) row.getField("logical_timestamp");
        assertThat((Long) row.getField("org_id")).isEqualTo(orgId);
        assertThat(timestamp - Math.floorMod(timestamp, MetricsDistribution.DAY_MILLIS))
            .as("day of a row in %s", file.location())
            .isEqualTo(day);
        assertThat(timestamp)
            .as("time order in %s", file.location())
            .isGreaterThanOrEqualTo(previous);
        previous = timestamp;
        rows++;
      }
      assertThat(rows).isEqualTo(file.recordCount());
      total += rows;
    }
    assertThat(total).isEqualTo(100_000);

    DataFile largest =
        files.stream().max((a, b) -> Long.compare(a.recordCount(), b.recordCount())).orElseThrow();
    ParquetFooter footer = ParquetFooter.read(Path.of(URI.create(largest.location())));
    assertThat(footer.rowGroups()).as("row groups of %s", largest.location()).isGreaterThan(1);
    assertThat(footer.columnChunks()).isEqualTo(footer.rowGroups() * 8);
    assertThat(footer.zstdChunks()).isEqualTo(footer.columnChunks());
    assertThat(footer.chunksWithColumnIndex()).isEqualTo(footer.columnChunks());
    assertThat(footer.chunksWithOffsetIndex()).isEqualTo(footer.columnChunks());
    assertThat(footer.maxPagesInAChunk()).isGreaterThan(1);
  }

  @Test
  void sameRowsAndSeedGiveByteIdenticalFilesWhateverTheParallelismAndAnotherSeedOtherRows()
      throws IOException {
    generate(options(60_000, 11).parallelism(1).build());
    Table first = catalog.loadTable(ID);
    Map<String, byte[]> firstFiles = fileContents(first);
    List<String> firstRows = rowsInFileOrder(first);
    assertThat(firstRows).hasSize(60_000);

    try (JdbcCatalog other =
        TestingCatalogs.sqlite(Files.createDirectory(directory.resolve("b")))) {
      MetricsTableGenerator.generate(
          other, ID, options(60_000, 11).parallelism(2).build(), ProgressListener.none());
      Map<String, byte[]> secondFiles = fileContents(other.loadTable(ID));
      assertThat(secondFiles.keySet()).isEqualTo(firstFiles.keySet());
      for (String path : firstFiles.keySet()) {
        assertThat(secondFiles.get(path)).as(path).isEqualTo(firstFiles.get(path));
      }

      // REUSE regenerates a generator-written table when the seed differs.
      GenerateReport reseeded =
          MetricsTableGenerator.generate(
              other, ID, options(60_000, 12).parallelism(2).build(), ProgressListener.none());
      assertThat(reseeded.reused()).isFalse();
      List<String> otherRows = rowsInFileOrder(other.loadTable(ID));
      assertThat(otherRows).hasSize(60_000).isNotEqualTo(firstRows);
    }
  }

  @Test
  void reusesATableWithTheSameRowsAndSeedUnlessAskedToReplaceIt() throws IOException {
    generate(options(10_000, 42).build());
    long snapshot = catalog.loadTable(ID).currentSnapshot().snapshotId();

    GenerateReport reused = generate(options(10_000, 42).build());
    assertThat(reused.reused()).isTrue();
    assertThat(reused.rows()).isEqualTo(10_000);
    assertThat(reused.rowsPerSecond()).isZero();
    assertThat(reused.summary())
        .startsWith("Reused table obs.metrics: it already holds 10,000 rows in ");
    assertThat(catalog.loadTable(ID).currentSnapshot().snapshotId()).isEqualTo(snapshot);

    GenerateReport replaced =
        generate(options(10_000, 42).existingTable(ExistingTablePolicy.REPLACE).build());
    assertThat(replaced.reused()).isFalse();
    assertThat(catalog.loadTable(ID).currentSnapshot().snapshotId()).isNotEqualTo(snapshot);
  }

  @Test
  void refusesToReuseATableTheGeneratorDidNotWrite() throws IOException {
    catalog.createNamespace(ID.namespace());
    catalog.createTable(ID, new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));

    assertThatThrownBy(() -> generate(options(1_000, 42).build()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot reuse table obs.metrics: it exists but was not written by the Shelfmark"
                + " generator (no shelfmark.generator.version property; drop it, choose another"
                + " table name, or use the REPLACE policy)");
    assertThat(catalog.loadTable(ID).schema().columns()).hasSize(1);

    generate(options(1_000, 42).existingTable(ExistingTablePolicy.REPLACE).build());
    assertThat(catalog.loadTable(ID).schema().sameSchema(MetricsTable.SCHEMA)).isTrue();
  }

  @Test
  void aFailedRunDeletesTheFilesItWroteAndIsRegeneratedNextTime() throws IOException {
    ProgressListener failing =
        (written, total) -> {
          if (written > 20_000) {
            throw new UncheckedIOException(new IOException("Cannot write: disk full (test)"));
          }
        };
    assertThatThrownBy(
            () ->
                MetricsTableGenerator.generate(
                    catalog, ID, options(60_000, 9).parallelism(2).build(), failing))
        .isInstanceOf(IOException.class)
        .hasMessage("Cannot write: disk full (test)");
    Table table = catalog.loadTable(ID);
    assertThat(table.currentSnapshot()).isNull();
    assertThat(table.properties()).doesNotContainKey("shelfmark.generator.rows");
    assertThat(parquetFilesUnder(Path.of(URI.create(table.location())))).isEmpty();

    GenerateReport report = generate(options(60_000, 9).build());
    assertThat(report.reused()).isFalse();
    assertThat(catalog.loadTable(ID).currentSnapshot().summary())
        .containsEntry("total-records", "60000");
  }

  private GenerateReport generate(GeneratorOptions options) throws IOException {
    return MetricsTableGenerator.generate(catalog, ID, options, ProgressListener.none());
  }

  private static GeneratorOptions.Builder options(long rows, long seed) {
    return GeneratorOptions.builder().rows(rows).seed(seed);
  }

  static List<DataFile> dataFiles(Table table) throws IOException {
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        files.add(task.file());
      }
    }
    files.sort((a, b) -> a.location().compareTo(b.location()));
    return files;
  }

  static CloseableIterable<Record> read(Table table, DataFile file) {
    return Parquet.read(table.io().newInputFile(file.location()))
        .project(table.schema())
        .createReaderFunc(
            fileSchema -> GenericParquetReaders.buildReader(table.schema(), fileSchema))
        .build();
  }

  private static List<String> rowsInFileOrder(Table table) throws IOException {
    List<String> rows = new ArrayList<>();
    for (DataFile file : dataFiles(table)) {
      try (CloseableIterable<Record> records = read(table, file)) {
        for (Record record : records) {
          rows.add(record.toString());
        }
      }
    }
    return rows;
  }

  /** Each data file's bytes, keyed by its path relative to the table location. */
  private static Map<String, byte[]> fileContents(Table table) throws IOException {
    Map<String, byte[]> contents = new java.util.TreeMap<>();
    for (DataFile file : dataFiles(table)) {
      String relative = file.location().substring(table.location().length());
      contents.put(relative, Files.readAllBytes(Path.of(URI.create(file.location()))));
    }
    return contents;
  }

  private static List<Path> parquetFilesUnder(Path root) throws IOException {
    if (!Files.exists(root)) {
      return List.of();
    }
    try (Stream<Path> paths = Files.walk(root)) {
      return paths.filter(path -> path.toString().endsWith(".parquet")).toList();
    }
  }
}
