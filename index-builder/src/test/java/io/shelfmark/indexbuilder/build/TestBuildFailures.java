package io.shelfmark.indexbuilder.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.indexbuilder.spec.SegmentSpec;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.indexbuilder.testing.CorpusTable;
import io.shelfmark.indexbuilder.testing.TestingMetricsLake;
import io.shelfmark.parquet.metadata.FooterReader;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.schema.ParquetSchema;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Data files that cannot be read or indexed give a failed build naming the file and the reason,
 * never an exception; a batch with bad files among good ones builds the good ones.
 */
class TestBuildFailures {
  private static final IndexService INDEXES = IndexService.installed();
  private static final ObjectStore LOCAL = ObjectStores.local();
  private static final TableIdentity TABLE = new TableIdentity("shelfmark", "corpus", "t");

  @TempDir static Path directory;
  private static ExecutorService io;

  @BeforeAll
  static void start() {
    io = Executors.newVirtualThreadPerTaskExecutor();
  }

  @AfterAll
  static void stop() {
    io.shutdownNow();
  }

  private static SegmentFileBuilder builder(ObjectStore store) {
    return new SegmentFileBuilder(
        store,
        io,
        INDEXES,
        BuildOptions.builder().workDirectory(directory.resolve("work")).build());
  }

  private static SegmentSpec valueSpec(Types.NestedField field) {
    return SegmentSpec.from(
        TableConfig.builder(TABLE)
            .column(field.name(), ColumnConfig.of(IndexKind.INVERTED))
            .build(),
        new Schema(field));
  }

  private static BuildFailure failure(Path file, SegmentSpec spec) throws Exception {
    FileOutcome outcome =
        builder(LOCAL)
            .build(
                DataFileSource.of(file.toString(), Files.exists(file) ? Files.size(file) : 1000),
                spec,
                SegmentStore.inDirectory(directory.resolve("segments")));
    assertThat(outcome).isInstanceOf(FileOutcome.Failed.class);
    BuildFailure failure = ((FileOutcome.Failed) outcome).failure();
    assertThat(failure.dataFile()).isEqualTo(file.toString());
    assertThat(failure.message())
        .startsWith("Cannot build the segment of " + file + " (" + failure.kind() + "): ");
    return failure;
  }

  private static SegmentSpec anySpec() {
    return valueSpec(Types.NestedField.optional(1, "value", Types.LongType.get()));
  }

  @Test
  void testCorruptFooter() throws Exception {
    Path file = CorpusTable.badData().resolve("PARQUET-1481.parquet");
    BuildFailure failure = failure(file, anySpec());
    assertThat(failure.kind()).isEqualTo(BuildFailure.Kind.CORRUPT);
    assertThat(failure.retryable()).isFalse();
    assertThat(failure.reason())
        .startsWith("Cannot read Parquet file file:" + file + ": footer of 154 bytes is not valid")
        .contains("Required field 'type' was not present");
  }

  @Test
  void testCorruptPageChecksum() throws Exception {
    Path file = CorpusTable.data().resolve("datapage_v1-corrupt-checksum.parquet");
    SegmentSpec spec = valueSpec(Types.NestedField.required(1, "a", Types.IntegerType.get()));
    BuildFailure failure = failure(file, spec);
    assertThat(failure.kind()).isEqualTo(BuildFailure.Kind.CORRUPT);
    assertThat(failure.reason())
        .contains("row group 0, column a, page")
        .containsIgnoringCase("crc");
  }

  @Test
  void testTruncatedFile() throws Exception {
    Path original = CorpusTable.data().resolve("alltypes_tiny_pages.parquet");
    Path truncated = directory.resolve("truncated.parquet");
    byte[] bytes = Files.readAllBytes(original);
    Files.write(truncated, Arrays.copyOf(bytes, bytes.length - 100));
    BuildFailure failure = failure(truncated, anySpec());
    assertThat(failure.kind()).isEqualTo(BuildFailure.Kind.CORRUPT);
    assertThat(failure.reason())
        .startsWith(
            "Cannot read Parquet file file:"
                + truncated
                + ": file does not end with the Parquet"
                + " magic PAR1");
  }

  @Test
  void testEncryptedFiles() throws Exception {
    for (String name :
        List.of(
            "encrypt_columns_and_footer.parquet.encrypted",
            "encrypt_columns_plaintext_footer.parquet.encrypted",
            "uniform_encryption.parquet.encrypted")) {
      Path file = CorpusTable.data().resolve(name);
      BuildFailure failure = failure(file, anySpec());
      assertThat(failure.kind()).as(name).isEqualTo(BuildFailure.Kind.UNSUPPORTED);
      assertThat(failure.reason()).as(name).contains(file.toString()).contains("encrypt");
    }
  }

  @Test
  void testColumnTypesTheSegmentCannotIndex() throws Exception {
    // The table says int, the file holds INT32 DECIMAL(…): no faithful LONG form.
    Path decimal = CorpusTable.data().resolve("int32_decimal.parquet");
    BuildFailure failure =
        failure(
            decimal, valueSpec(Types.NestedField.optional(1, "value", Types.IntegerType.get())));
    assertThat(failure.kind()).isEqualTo(BuildFailure.Kind.UNSUPPORTED);
    assertThat(failure.reason())
        .isEqualTo(
            "Cannot read Parquet file file:"
                + decimal
                + ", column value: indexing column value stored as value INT32 DECIMAL def 1 rep 0"
                + " FIELD as a LONG column is not supported (the table schema and the data file"
                + " disagree on the column's type, or the type has no faithful segment form; drop"
                + " the column's indexes from the table config)");
    // Unsigned 64-bit integers do not fit a signed LONG order.
    Path unsigned = CorpusTable.data().resolve("concatenated_gzip_members.parquet");
    assertThat(
            failure(
                    unsigned,
                    valueSpec(Types.NestedField.optional(1, "long_col", Types.LongType.get())))
                .kind())
        .isEqualTo(BuildFailure.Kind.UNSUPPORTED);
    // A list where the table says a primitive column.
    Path list = CorpusTable.data().resolve("list_columns.parquet");
    BuildFailure nested =
        failure(list, valueSpec(Types.NestedField.optional(1, "int64_list", Types.LongType.get())));
    assertThat(nested.kind()).isEqualTo(BuildFailure.Kind.UNSUPPORTED);
    assertThat(nested.reason()).contains("column int64_list").contains("nested or repeated field");
  }

  @Test
  void testMissingFileAndWrongRecordCountAndFormat() throws Exception {
    Path missing = directory.resolve("missing.parquet");
    BuildFailure notFound = failure(missing, anySpec());
    assertThat(notFound.kind()).isEqualTo(BuildFailure.Kind.STORAGE);
    assertThat(notFound.retryable()).isTrue();
    assertThat(notFound.reason()).contains(missing.toString()).contains("does not exist");

    Path file = CorpusTable.data().resolve("alltypes_plain.parquet");
    SegmentStore segments = SegmentStore.inDirectory(directory.resolve("segments"));
    DataFileSource wrongCount =
        new DataFileSource(
            file.toString(),
            Files.size(file),
            "PARQUET",
            OptionalLong.of(9),
            2,
            0,
            List.of(),
            OptionalLong.empty(),
            OptionalLong.empty());
    FileOutcome outcome = builder(LOCAL).build(wrongCount, anySpec(), segments);
    assertThat(((FileOutcome.Failed) outcome).failure().reason())
        .isEqualTo(
            "Cannot read Parquet file "
                + file
                + ": the catalog records 9 rows but the footer"
                + " holds 8");

    DataFileSource orc =
        new DataFileSource(
            file.toString(),
            Files.size(file),
            "ORC",
            OptionalLong.empty(),
            2,
            0,
            List.of(),
            OptionalLong.empty(),
            OptionalLong.empty());
    BuildFailure format =
        ((FileOutcome.Failed) builder(LOCAL).build(orc, anySpec(), segments)).failure();
    assertThat(format.kind()).isEqualTo(BuildFailure.Kind.UNSUPPORTED);
    assertThat(format.reason()).contains("file format ORC is not supported");
  }

  @Test
  void testBadFilesAmongGoodOnesDoNotStopTheBatch() throws Exception {
    TestingMetricsLake lake = TestingMetricsLake.shared();
    SegmentSpec spec =
        SegmentSpec.from(
            ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE),
            lake.table().schema());
    List<DataFileSource> files = new ArrayList<>();
    List<DataFileInfo> good = lake.snapshot().dataFiles().subList(0, 4);
    // A copy of a good file with the first data page of an indexed column (metric) damaged,
    // uploaded beside it, and a file that does not exist.
    byte[] bytes = Files.readAllBytes(lake.localFile(good.getFirst()));
    ParquetFooter footer =
        FooterReader.withDefaults()
            .read(lake.store(), Location.parse(good.getFirst().path()), bytes.length);
    int metric = ParquetSchema.from("f", footer.schema()).column("metric").index();
    long page = footer.columnChunk(0, metric).getData_page_offset();
    for (long i = page + 24; i < page + 40; i++) {
      bytes[(int) i] ^= 0x5A;
    }
    String corruptPath = "s3://lake/warehouse/obs/metrics/data/corrupt.parquet";
    lake.store().write(Location.parse(corruptPath), bytes);
    files.add(DataFileSource.of(good.get(0), lake.formatVersion()));
    files.add(DataFileSource.of(corruptPath, bytes.length));
    files.add(DataFileSource.of(good.get(1), lake.formatVersion()));
    files.add(DataFileSource.of("s3://lake/warehouse/obs/metrics/data/gone.parquet", 1000));
    files.add(DataFileSource.of(good.get(2), lake.formatVersion()));
    files.add(DataFileSource.of(good.get(3), lake.formatVersion()));
    SegmentStore segments =
        new SegmentStore(lake.store(), Location.parse("s3://lake/_shelfmark/failures/"));

    IndexingReport report =
        new SnapshotIndexer(builder(lake.store()), segments, 2)
            .index(spec, files, IndexingListener.none());

    assertThat(report.outcomes())
        .extracting(FileOutcome::dataFile)
        .containsExactlyElementsOf(files.stream().map(DataFileSource::path).toList());
    assertThat(report.outcomes().get(0)).isInstanceOf(FileOutcome.Built.class);
    assertThat(report.outcomes().get(1)).isInstanceOf(FileOutcome.Failed.class);
    assertThat(report.outcomes().get(2)).isInstanceOf(FileOutcome.Built.class);
    assertThat(report.outcomes().get(3)).isInstanceOf(FileOutcome.Failed.class);
    assertThat(report.built()).hasSize(4);
    assertThat(report.failed())
        .extracting(BuildFailure::kind)
        .containsExactly(BuildFailure.Kind.CORRUPT, BuildFailure.Kind.STORAGE);
    assertThat(report.failed().get(0).reason())
        .contains(corruptPath)
        .contains("row group 0, column metric, page 0");
    assertThat(report.failed().get(1).reason()).contains("gone.parquet");
    for (BuildFailure failure : report.failed()) {
      assertThat(segments.exists(segments.locationOf(spec, failure.dataFile(), 1000)))
          .as("no segment for a failed build")
          .isFalse();
    }
  }
}
