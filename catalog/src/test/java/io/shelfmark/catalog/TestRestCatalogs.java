package io.shelfmark.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.catalog.CatalogException.Reason;
import io.shelfmark.catalog.io.ObjectStoreFileIO;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The REST catalog path against Iceberg's REST fixture server, with tables on the embedded S3. */
class TestRestCatalogs {
  private static final TableIdentifier METRICS = TableIdentifier.of("obs", "metrics");

  @TempDir static Path directory;
  private static TestingLake lake;
  private static TestingRestCatalogServer server;

  @BeforeAll
  static void start() throws Exception {
    lake = TestingLake.start(directory);
    server =
        TestingRestCatalogServer.start(
            lake.warehouse("rest"),
            directory.resolve("rest.db").toString(),
            lake.fileIOProperties());
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      server.close();
    } finally {
      lake.close();
    }
  }

  @Test
  void createsTableAppendsFileAndReloadsItFromAFreshCatalog() throws IOException {
    CatalogConfig config = rest("rest", server.uri().toString());
    DataFile written;
    try (Closeable closeable = (Closeable) Catalogs.open(config, lake.store())) {
      Catalog catalog = (Catalog) closeable;
      assertThat(catalog.name()).isEqualTo("rest");
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("obs"));
      Table table = catalog.createTable(METRICS, TestingTables.SCHEMA, TestingTables.SPEC);
      assertThat(table.io()).isInstanceOf(ObjectStoreFileIO.class);
      assertThat(table.location()).isEqualTo(lake.warehouse("rest") + "/obs/metrics");
      written = TestingTables.writeDataFile(table, 42, 10);
      table.newAppend().appendFile(written).commit();
    }

    try (Closeable closeable = (Closeable) Catalogs.open(config, lake.store())) {
      Table table = Catalogs.loadTable((Catalog) closeable, METRICS);
      TableSnapshot snapshot = TableSnapshot.current(table);
      assertThat(snapshot.dataFiles()).hasSize(1);
      assertThat(snapshot.dataFiles().getFirst().path()).isEqualTo(written.location());
      assertThat(snapshot.dataFiles().getFirst().partition().values()).containsExactly(42L);
      assertThat(snapshot.recordCount()).isEqualTo(10);
      // The server wrote the table metadata through its own, reflectively loaded FileIO.
      assertThat(table.currentSnapshot().manifestListLocation()).startsWith(lake.warehouse("rest"));
      assertThat(Files.list(lake.bucketDirectory().resolve("rest/obs/metrics/metadata")))
          .anyMatch(file -> file.getFileName().toString().endsWith(".metadata.json"));

      assertThatThrownBy(
              () -> Catalogs.loadTable((Catalog) closeable, TableIdentifier.of("obs", "metricz")))
          .isInstanceOf(CatalogException.class)
          .hasMessage(
              "Cannot load table obs.metricz from catalog 'rest': no such table (tables in obs: [metrics])")
          .extracting(e -> ((CatalogException) e).reason())
          .isEqualTo(Reason.NOT_FOUND);
    }
  }

  @Test
  void unreachableServerIsReportedClearly() throws IOException {
    int port = TestJdbcCatalogs.closedPort();
    CatalogConfig config = rest("remote", "http://127.0.0.1:" + port);
    assertThatThrownBy(() -> Catalogs.open(config, lake.store()))
        .isInstanceOf(CatalogException.class)
        .hasMessageStartingWith(
            "Cannot open catalog 'remote' at http://127.0.0.1:%s: the REST server is not reachable: "
                .formatted(port))
        .hasMessageContaining("Connection refused")
        .hasMessageEndingWith("(start it, or fix catalog.uri)")
        .extracting(e -> ((CatalogException) e).reason())
        .isEqualTo(Reason.UNREACHABLE);
  }

  @Test
  void uriWithoutHostIsRefusedBeforeConnecting() {
    CatalogConfig config = rest("remote", "http:///v1");
    assertThatThrownBy(() -> Catalogs.open(config, lake.store()))
        .isInstanceOf(CatalogException.class)
        .hasMessage(
            "Cannot open catalog 'remote' at http:///v1: not an http:// or https:// URL with a host (set catalog.uri to the server's base URL such as http://host:8181)");
  }

  @Test
  void serverThatIsNotAnIcebergCatalogIsReported() {
    // The S3 server answers HTTP, but not Iceberg's REST protocol.
    CatalogConfig config = rest("wrong", lake.s3Endpoint().toString());
    assertThatThrownBy(() -> Catalogs.open(config, lake.store()))
        .isInstanceOf(CatalogException.class)
        .hasMessageStartingWith("Cannot open catalog 'wrong' at %s: ".formatted(lake.s3Endpoint()))
        .hasMessageEndingWith(
            "(check that catalog.uri is the base URL of an Iceberg REST catalog)");
  }

  private static CatalogConfig rest(String name, String uri) {
    return CatalogConfig.builder().type(CatalogType.REST).name(name).uri(uri).build();
  }
}
