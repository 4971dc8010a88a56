package io.shelfmark.server.exec;

import io.shelfmark.catalog.Catalogs;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.FilePartition;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.config.cluster.StaticCredentials;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.cluster.StorageType;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.generator.GeneratorOptions;
import io.shelfmark.generator.MetricsTable;
import io.shelfmark.generator.MetricsTableGenerator;
import io.shelfmark.generator.ProgressListener;
import io.shelfmark.lake.EmbeddedS3Server;
import io.shelfmark.sql.schema.BoundTable;
import io.shelfmark.sql.schema.IcebergSchemas;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.PositionDelete;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.roaringbitmap.RoaringBitmap;

/**
 * The shared test lake of the server's tests, built once per JVM: the embedded S3 server, a
 * generated {@code obs.metrics} table (a few of its files: the largest org's three days and a decoy
 * org's incident day), and an {@code test.types} table with nulls and every supported type written
 * by DuckDB. Some files get segments (built by {@link TestingSegments}), some not; some have
 * deleted positions, applied in DuckDB too.
 */
final class TestingLakeTables implements Closeable {
  static final long ORG = 184833768L;
  private static TestingLakeTables shared;

  final Path directory;
  final EmbeddedS3Server server;
  final ObjectStore store;
  final ExecutorService io = Executors.newFixedThreadPool(16, daemon("test-io"));
  final ExecutorService files = Executors.newFixedThreadPool(2, daemon("test-files"));
  final DuckDbOracle oracle = DuckDbOracle.open();
  final TestingTable metrics;
  final TestingTable types;

  /** One table: its schema, files (with segment bytes or none, and deletes). */
  record TestingTable(String name, Schema schema, BoundTable bound, List<TableFile> files) {}

  /** One data file: local path for DuckDB, segment bytes (null when unsegmented), deletes. */
  record TableFile(DataFileInfo info, Path local, byte[] segment, RoaringBitmap deleted) {}

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return Thread.ofPlatform().name(name + "-", 0).daemon(true).factory();
  }

  static synchronized TestingLakeTables shared() throws IOException {
    if (shared == null) {
      shared = new TestingLakeTables(Files.createTempDirectory("shelfmark-server-test"));
      Runtime.getRuntime().addShutdownHook(new Thread(shared::closeQuietly));
    }
    return shared;
  }

  private TestingLakeTables(Path directory) throws IOException {
    this.directory = directory;
    this.server = EmbeddedS3Server.builder().baseDirectory(directory.resolve("s3")).build();
    server.start();
    server.createBucket("lake");
    this.store = ObjectStores.open(storage(server));
    this.metrics = metrics();
    this.types = types();
  }

  private TestingTable metrics() throws IOException {
    Catalog catalog =
        Catalogs.open(
            CatalogConfig.builder()
                .type(CatalogType.JDBC)
                .name("lake")
                .uri("jdbc:sqlite:" + directory.resolve("catalog.db"))
                .warehouse("s3://lake/warehouse")
                .build(),
            store);
    TableIdentifier id = TableIdentifier.of("obs", "metrics");
    MetricsTableGenerator.generate(
        catalog,
        id,
        GeneratorOptions.builder()
            .rows(30_000)
            .seed(42)
            .parallelism(2)
            .rowGroupSize(DataSize.of(48, DataSize.Unit.KIBIBYTE))
            .pageSize(DataSize.of(8, DataSize.Unit.KIBIBYTE))
            .pageRowLimit(400)
            .build(),
        ProgressListener.none());
    TableSnapshot snapshot = TableSnapshot.current(catalog.loadTable(id));
    List<DataFileInfo> org = new ArrayList<>();
    List<DataFileInfo> others = new ArrayList<>();
    for (DataFileInfo file : snapshot.dataFiles()) {
      Object orgId = file.partition().values().get(0);
      if (Long.valueOf(ORG).equals(orgId)) {
        org.add(file);
      } else {
        others.add(file);
      }
    }
    org.sort(Comparator.comparing(DataFileInfo::path));
    others.sort(Comparator.comparingLong(DataFileInfo::recordCount).reversed());
    TestingSegments builder =
        new TestingSegments(
            store,
            io,
            directory.resolve("metrics-segments"),
            """
            table: {catalog: lake, namespace: obs, name: metrics}
            time-column: logical_timestamp
            columns:
              metric: {indexes: [inverted, forward]}
              org_id: {indexes: [inverted, forward]}
              resolution: {indexes: [inverted, forward]}
              logical_timestamp: {indexes: [range]}
              sum_rollup: {indexes: [range]}
            map-keys:
              dimensions: {keys: [node, service, region]}
            """,
            MetricsTable.SCHEMA);
    List<TableFile> files = new ArrayList<>();
    // The largest org's three days: two with segments (one of them with deletes), one without.
    for (int i = 0; i < org.size(); i++) {
      DataFileInfo file = org.get(i);
      byte[] segment = i == 2 ? null : builder.build(file);
      RoaringBitmap deleted = new RoaringBitmap();
      if (i == 1) {
        for (long row = 3; row < file.recordCount(); row += 7) {
          deleted.add((int) row);
        }
      }
      files.add(new TableFile(file, local(file), segment, deleted));
    }
    // Two files of other orgs (the biggest: the second org holds a decoy needle), one segmented.
    files.add(
        new TableFile(
            others.get(0),
            local(others.get(0)),
            builder.build(others.get(0)),
            new RoaringBitmap()));
    files.add(new TableFile(others.get(1), local(others.get(1)), null, rows(0, 5)));
    Schema schema = MetricsTable.SCHEMA;
    TestingTable table =
        new TestingTable(
            "obs.metrics",
            schema,
            IcebergSchemas.toBoundTable(TableName.of("obs", "metrics"), schema),
            files);
    register(table);
    return table;
  }

  static final Schema TYPES_SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "i", Types.IntegerType.get()),
          Types.NestedField.optional(3, "l", Types.LongType.get()),
          Types.NestedField.optional(4, "f", Types.FloatType.get()),
          Types.NestedField.optional(5, "d", Types.DoubleType.get()),
          Types.NestedField.optional(6, "s", Types.StringType.get()),
          Types.NestedField.optional(7, "b", Types.BooleanType.get()),
          Types.NestedField.optional(8, "dt", Types.DateType.get()),
          Types.NestedField.optional(9, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(10, "dec", Types.DecimalType.of(12, 2)),
          Types.NestedField.optional(
              11,
              "m",
              Types.MapType.ofOptional(12, 13, Types.StringType.get(), Types.StringType.get())),
          Types.NestedField.optional(14, "bin", Types.BinaryType.get()),
          // Added after the files were written: every file reads it as NULL.
          Types.NestedField.optional(15, "added_later", Types.LongType.get()));

  private TestingTable types() throws IOException {
    Path dir = server.baseDirectory().resolve("lake/types");
    Files.createDirectories(dir);
    List<TableFile> files = new ArrayList<>();
    TestingSegments builder =
        new TestingSegments(
            store,
            io,
            directory.resolve("types-segments"),
            """
            table: {catalog: lake, namespace: test, name: types}
            columns:
              id: {indexes: [range]}
              i: {indexes: [inverted, forward]}
              l: {indexes: [range]}
              d: {indexes: [range]}
              f: {indexes: [range]}
              s: {indexes: [inverted]}
              b: {indexes: [inverted]}
              dt: {indexes: [range, forward]}
              ts: {indexes: [range]}
            map-keys:
              m: {keys: [k1, k2]}
            """,
            TYPES_SCHEMA);
    for (int part = 0; part < 3; part++) {
      Path local = dir.resolve("part-" + part + ".parquet");
      oracle.execute(typesCopy(part, local));
      long size = Files.size(local);
      long rows = 2_500;
      DataFileInfo info =
          new DataFileInfo(
              "s3://lake/types/part-" + part + ".parquet",
              FileFormat.PARQUET,
              FileContent.DATA,
              size,
              rows,
              new FilePartition(0, "", List.of()),
              1,
              1,
              List.of());
      byte[] segment = part == 2 ? null : builder.build(info);
      files.add(
          new TableFile(info, local, segment, part == 1 ? rows(10, 200) : new RoaringBitmap()));
    }
    TestingTable table =
        new TestingTable(
            "test.types",
            TYPES_SCHEMA,
            IcebergSchemas.toBoundTable(TableName.of("test", "types"), TYPES_SCHEMA),
            files);
    register(table);
    return table;
  }

  // Nulls in every column, repeated values, negative numbers, NaN-free floats, map keys present
  // or absent, and an empty string; row groups of 1000 rows.
  private static String typesCopy(int part, Path local) {
    long base = part * 2_500L;
    return "COPY (SELECT "
        + "(r + "
        + base
        + ")::BIGINT AS id, "
        + "CASE WHEN r % 11 = 0 THEN NULL ELSE ((r * 37) % 200 - 50)::INTEGER END AS i, "
        + "CASE WHEN r % 13 = 0 THEN NULL ELSE (r * 7919 % 100000 - 30000)::BIGINT * 1000003 END AS l, "
        + "CASE WHEN r % 9 = 0 THEN NULL ELSE ((r % 97) / 8.0 - 3)::REAL END AS f, "
        + "CASE WHEN r % 10 = 0 THEN NULL ELSE ((r % 451) * 1.25 - 100)::DOUBLE END AS d, "
        + "CASE WHEN r % 17 = 0 THEN NULL WHEN r % 29 = 0 THEN '' ELSE 'v' || (r % 23)::VARCHAR || CASE WHEN r % 3 = 0 THEN '_x' ELSE '' END END AS s, "
        + "CASE WHEN r % 5 = 0 THEN NULL ELSE r % 2 = 0 END AS b, "
        + "CASE WHEN r % 19 = 0 THEN NULL ELSE DATE '2024-12-20' + (r % 40)::INTEGER END AS dt, "
        + "CASE WHEN r % 21 = 0 THEN NULL ELSE TIMESTAMP '2025-01-01 00:00:00' + INTERVAL (r * 97 + "
        + base
        + ") SECOND END AS ts, "
        + "CASE WHEN r % 8 = 0 THEN NULL ELSE (((r * 131) % 100000 - 20000) / 100)::DECIMAL(12,2) END AS dec, "
        + "CASE WHEN r % 15 = 0 THEN NULL ELSE MAP {'k1': 'a' || (r % 4)::VARCHAR, 'k2': CASE WHEN r % 2 = 0 THEN 'b' || (r % 3)::VARCHAR ELSE NULL END} END AS m, "
        + "CASE WHEN r % 6 = 0 THEN NULL ELSE encode('x' || (r % 5)::VARCHAR) END AS bin "
        + "FROM range(0, 2500) t(r)) TO '"
        + local
        + "' (FORMAT parquet, ROW_GROUP_SIZE 1000, FIELD_IDS {id: 1, i: 2, l: 3, f: 4, d: 5, s: 6, b: 7, dt: 8, ts: 9, dec: 10, m: {__duckdb_field_id: 11, key: 12, value: 13}, bin: 14})";
  }

  private static RoaringBitmap rows(int from, int to) {
    RoaringBitmap bitmap = new RoaringBitmap();
    bitmap.add((long) from, (long) to);
    return bitmap;
  }

  private Path local(DataFileInfo file) {
    Location location = Location.parse(file.path());
    return server.baseDirectory().resolve(location.bucket()).resolve(location.key());
  }

  private void register(TestingTable table) {
    List<Path> paths = new ArrayList<>();
    List<PositionDelete> deletes = new ArrayList<>();
    for (TableFile file : table.files()) {
      paths.add(file.local());
      file.deleted().forEach((int row) -> deletes.add(new PositionDelete(file.local(), row)));
    }
    oracle.registerTable(table.name(), paths, deletes);
  }

  private static StorageConfig storage(EmbeddedS3Server server) {
    return StorageConfig.builder()
        .type(StorageType.S3)
        .endpoint(server.endpoint())
        .region(EmbeddedS3Server.REGION)
        .pathStyleAccess(true)
        .credentials(new StaticCredentials(server.accessKey(), server.secretKey()))
        .build();
  }

  private void closeQuietly() {
    try {
      close();
    } catch (IOException e) {
      // Shutting down: nothing left to tell.
    }
  }

  @Override
  public void close() throws IOException {
    io.shutdownNow();
    files.shutdownNow();
    oracle.close();
    store.close();
    server.close();
  }
}
