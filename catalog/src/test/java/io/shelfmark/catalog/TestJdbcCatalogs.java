package io.shelfmark.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.catalog.CatalogException.Reason;
import io.shelfmark.catalog.io.ObjectStoreFileIO;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.storage.spi.Location;
import java.io.Closeable;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.catalog.ViewCatalog;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.view.View;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestJdbcCatalogs {
  private static final TableIdentifier METRICS = TableIdentifier.of("obs", "metrics");

  @TempDir static Path directory;
  private static TestingLake lake;

  @BeforeAll
  static void startLake() throws IOException {
    lake = TestingLake.start(directory);
  }

  @AfterAll
  static void stopLake() throws IOException {
    lake.close();
  }

  @Test
  void createsTableAppendsFileAndReloadsItFromAFreshCatalog() throws IOException {
    CatalogConfig config = lake.jdbcCatalog("roundtrip");
    DataFile written;
    try (Closeable closeable = (Closeable) Catalogs.open(config, lake.store())) {
      Catalog catalog = (Catalog) closeable;
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("obs"));
      Table table = catalog.createTable(METRICS, TestingTables.SCHEMA, TestingTables.SPEC);
      assertThat(table.io()).isInstanceOf(ObjectStoreFileIO.class);
      assertThat(table.location()).isEqualTo(lake.warehouse("roundtrip") + "/obs/metrics");
      written = TestingTables.writeDataFile(table, 7, 100);
      table.newAppend().appendFile(written).commit();
    }

    try (Closeable closeable = (Closeable) Catalogs.open(config, lake.store())) {
      Table table = Catalogs.loadTable((Catalog) closeable, METRICS);
      assertThat(table.schema().asStruct()).isEqualTo(TestingTables.SCHEMA.asStruct());
      assertThat(table.spec().fields()).hasSize(1);
      TableSnapshot snapshot = TableSnapshot.current(table);
      assertThat(snapshot.snapshotId()).hasValue(table.currentSnapshot().snapshotId());
      assertThat(snapshot.dataFiles()).hasSize(1);
      DataFileInfo file = snapshot.dataFiles().getFirst();
      assertThat(file.path())
          .isEqualTo(written.location())
          .startsWith(table.location() + "/data/org_id=7/");
      assertThat(file.format()).isEqualTo(FileFormat.PARQUET);
      assertThat(file.content()).isEqualTo(FileContent.DATA);
      assertThat(file.recordCount()).isEqualTo(100);
      assertThat(file.fileSizeInBytes()).isEqualTo(written.fileSizeInBytes());
      assertThat(file.partition().path()).isEqualTo("org_id=7");
      assertThat(file.partition().values()).containsExactly(7L);
      assertThat(file.dataSequenceNumber()).isEqualTo(1);
      assertThat(file.deleteFiles()).isEmpty();
      // The bytes really are in object storage, at the size the catalog recorded.
      assertThat(lake.store().stat(Location.parse(file.path())).size())
          .isEqualTo(file.fileSizeInBytes());
    }
  }

  @Test
  void catalogSupportsViewsBecauseItUsesSchemaV1() throws IOException {
    try (Closeable closeable = (Closeable) Catalogs.open(lake.jdbcCatalog("views"), lake.store())) {
      ((SupportsNamespaces) closeable).createNamespace(Namespace.of("obs"));
      View view =
          ((ViewCatalog) closeable)
              .buildView(TableIdentifier.of("obs", "recent"))
              .withSchema(TestingTables.SCHEMA)
              .withDefaultNamespace(Namespace.of("obs"))
              .withQuery("spark", "SELECT * FROM obs.metrics")
              .create();
      assertThat(((ViewCatalog) closeable).viewExists(TableIdentifier.of("obs", "recent")))
          .isTrue();
      assertThat(view.sqlFor("spark").sql()).isEqualTo("SELECT * FROM obs.metrics");
    }
  }

  @Test
  void unknownTableNamesWhatTheNamespaceHolds() throws IOException {
    try (Closeable closeable =
        (Closeable) Catalogs.open(lake.jdbcCatalog("unknown"), lake.store())) {
      Catalog catalog = (Catalog) closeable;
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("obs"));
      catalog.createTable(METRICS, TestingTables.SCHEMA, TestingTables.SPEC);

      assertThatThrownBy(() -> Catalogs.loadTable(catalog, TableIdentifier.of("obs", "metricz")))
          .isInstanceOf(CatalogException.class)
          .hasMessage(
              "Cannot load table obs.metricz from catalog 'unknown': no such table (tables in obs: [metrics])")
          .extracting(e -> ((CatalogException) e).reason())
          .isEqualTo(Reason.NOT_FOUND);
      assertThatThrownBy(() -> Catalogs.loadTable(catalog, TableIdentifier.of("ops", "metrics")))
          .isInstanceOf(CatalogException.class)
          .hasMessage(
              "Cannot load table ops.metrics from catalog 'unknown': no such table (namespace ops does not exist; namespaces: [obs])");
    }
  }

  @Test
  void missingSqliteDirectoryIsNamed() {
    Path missing = directory.resolve("no-such-dir");
    CatalogConfig config = jdbc("lake", "jdbc:sqlite:" + missing.resolve("catalog.db"));
    assertThatThrownBy(() -> Catalogs.open(config, lake.store()))
        .isInstanceOf(CatalogException.class)
        .hasMessage(
            "Cannot open catalog 'lake' at jdbc:sqlite:%s: directory %s does not exist (create it or fix catalog.uri)",
            missing.resolve("catalog.db"), missing)
        .extracting(e -> ((CatalogException) e).reason())
        .isEqualTo(Reason.CONFIGURATION);
    assertThat(Files.exists(missing)).isFalse();
  }

  @Test
  void urlNoDriverAcceptsIsNamed() {
    CatalogConfig config = jdbc("lake", "jdbc:nosuchdb://db.example/lake");
    assertThatThrownBy(() -> Catalogs.open(config, lake.store()))
        .isInstanceOf(CatalogException.class)
        .hasMessage(
            "Cannot open catalog 'lake' at jdbc:nosuchdb://db.example/lake: no JDBC driver accepts this URL"
                + " (Shelfmark ships drivers for jdbc:sqlite:/path/catalog.db and"
                + " jdbc:postgresql://host:5432/database; fix catalog.uri)");
  }

  @Test
  void unreachablePostgresIsReportedWithoutItsPassword() throws IOException {
    int port = closedPort();
    String uri = "jdbc:postgresql://127.0.0.1:" + port + "/lake?user=shelfmark&password=hunter2";
    CatalogConfig config = jdbc("prod", uri);
    assertThatThrownBy(() -> Catalogs.open(config, lake.store()))
        .isInstanceOf(CatalogException.class)
        .hasMessageStartingWith(
            "Cannot open catalog 'prod' at jdbc:postgresql://127.0.0.1:%s/lake?user=shelfmark&password=****: "
                .formatted(port))
        .hasMessageContaining("Connection to 127.0.0.1:%s refused".formatted(port))
        .hasMessageEndingWith("(check that the database is running and reachable, and catalog.uri)")
        .hasMessageNotContaining("hunter2")
        .extracting(e -> ((CatalogException) e).reason())
        .isEqualTo(Reason.UNREACHABLE);
  }

  @Test
  void userNamedFileIOReplacesObjectStoreFileIO() throws IOException {
    CatalogConfig config =
        CatalogConfig.builder()
            .type(CatalogType.JDBC)
            .name("inmemory")
            .uri("jdbc:sqlite:" + directory.resolve("inmemory.db"))
            .warehouse("s3://elsewhere/warehouse")
            .property("io-impl", InMemoryFileIO.class.getName())
            .build();
    try (Closeable closeable = (Closeable) Catalogs.open(config, lake.store())) {
      ((SupportsNamespaces) closeable).createNamespace(Namespace.of("obs"));
      Table table = ((Catalog) closeable).createTable(METRICS, TestingTables.SCHEMA);
      assertThat(table.io()).isInstanceOf(InMemoryFileIO.class);
    }
    // Nothing reached the shared store's bucket.
    assertThat(Files.exists(directory.resolve("s3").resolve("elsewhere"))).isFalse();
  }

  @Test
  void sqliteFileIsFoundInEveryUrlForm() {
    assertThat(JdbcCatalogOpener.sqliteFile("jdbc:sqlite:/a/b/c.db"))
        .hasValue(Path.of("/a/b/c.db"));
    assertThat(JdbcCatalogOpener.sqliteFile("jdbc:sqlite:file:/a/b/c.db?cache=shared"))
        .hasValue(Path.of("/a/b/c.db"));
    assertThat(JdbcCatalogOpener.sqliteFile("jdbc:sqlite:file:///a/c.db"))
        .hasValue(Path.of("/a/c.db"));
    assertThat(JdbcCatalogOpener.sqliteFile("jdbc:sqlite:rel.db"))
        .hasValue(Path.of("rel.db").toAbsolutePath());
    assertThat(JdbcCatalogOpener.sqliteFile("jdbc:sqlite::memory:")).isEmpty();
    assertThat(JdbcCatalogOpener.sqliteFile("jdbc:sqlite:")).isEmpty();
    assertThat(JdbcCatalogOpener.sqliteFile("jdbc:postgresql://h/db")).isEmpty();
  }

  private static CatalogConfig jdbc(String name, String uri) {
    return CatalogConfig.builder()
        .type(CatalogType.JDBC)
        .name(name)
        .uri(uri)
        .warehouse(lake.warehouse(name))
        .build();
  }

  /** A loopback port nothing listens on: bound, then released. */
  static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
