package io.shelfmark.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.catalog.CatalogException.Reason;
import io.shelfmark.catalog.io.FileIOProperties;
import io.shelfmark.catalog.io.ObjectStoreFileIO;
import io.shelfmark.catalog.io.SharedObjectStores;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.storage.spi.Location;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.aws.glue.GlueCatalog;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Glue opener without a Glue server: what it refuses, how an unreachable endpoint is reported,
 * and the shared-store FileIO its tables read through. The Glue API itself is exercised against a
 * local Glue-compatible server by the cli module's {@code TestGlueCatalog}.
 */
class TestGlueCatalogs {
  private static final String ANONYMOUS =
      "software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider";

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
  void opensIcebergsGlueCatalogWithoutContactingGlue() throws IOException {
    // Nothing listens on the endpoint: opening makes no request, so it succeeds.
    CatalogConfig config = glue("aws", "http://127.0.0.1:" + TestJdbcCatalogs.closedPort());
    Catalog catalog = Catalogs.open(config, lake.store());
    try {
      assertThat(catalog).isInstanceOf(GlueCatalog.class);
      assertThat(catalog.name()).isEqualTo("aws");
    } finally {
      ((Closeable) catalog).close();
    }
  }

  @Test
  void unreachableEndpointIsReportedWhenATableIsLoaded() throws IOException {
    int port = TestJdbcCatalogs.closedPort();
    CatalogConfig config = glue("aws", "http://127.0.0.1:" + port);
    Catalog catalog = Catalogs.open(config, lake.store());
    try {
      assertThatThrownBy(() -> Catalogs.loadTable(catalog, TableIdentifier.of("obs", "metrics")))
          .isInstanceOf(CatalogException.class)
          .hasMessageStartingWith("Cannot load table obs.metrics from catalog 'aws': ")
          .hasMessageContaining("Connection refused")
          .hasMessageEndingWith(
              "(the catalog did not answer: check that it runs and that this node reaches it)")
          .extracting(e -> ((CatalogException) e).reason())
          .isEqualTo(Reason.UNREACHABLE);
    } finally {
      ((Closeable) catalog).close();
    }
  }

  @Test
  void malformedEndpointIsNamedByItsKey() {
    CatalogConfig config = glue("aws", "glue.local:5000");
    assertThatThrownBy(() -> Catalogs.open(config, lake.store()))
        .isInstanceOf(CatalogException.class)
        .hasMessage(
            "Cannot open catalog 'aws' of type glue: catalog.properties.glue.endpoint is"
                + " glue.local:5000 (expected an http:// or https:// URL such as"
                + " https://glue.eu-west-1.amazonaws.com, or remove it to use AWS Glue)")
        .extracting(e -> ((CatalogException) e).reason())
        .isEqualTo(Reason.CONFIGURATION);
  }

  @Test
  void lakeFormationIsRefusedBecauseItBypassesTheStore() {
    CatalogConfig config =
        CatalogConfig.builder()
            .type(CatalogType.GLUE)
            .name("aws")
            .property("client.region", "us-east-1")
            .property("glue.lakeformation-enabled", "true")
            .build();
    assertThatThrownBy(() -> Catalogs.open(config, lake.store()))
        .isInstanceOf(CatalogException.class)
        .hasMessage(
            "Cannot open catalog 'aws' of type glue: catalog.properties.glue.lakeformation-enabled"
                + " is true, and Lake Formation credential vending is not supported (remove it,"
                + " and grant the node's role read access to the table's S3 locations)")
        .extracting(e -> ((CatalogException) e).reason())
        .isEqualTo(Reason.UNSUPPORTED);
  }

  @Test
  void reflectiveFileIOReadsAndWritesThroughTheSharedStore() throws IOException {
    // What GlueCatalog does for every table: io-impl's no-argument constructor, then initialize.
    String name = SharedObjectStores.register(lake.store());
    String path = "s3://" + TestingLake.BUCKET + "/shared/probe.txt";
    try (FileIO io =
        CatalogUtil.loadFileIO(
            ObjectStoreFileIO.class.getName(), Map.of(FileIOProperties.SHARED_STORE, name), null)) {
      try (OutputStream out = io.newOutputFile(path).createOrOverwrite()) {
        out.write("through the shared store".getBytes(StandardCharsets.UTF_8));
      }
      try (InputStream in = io.newInputFile(path).newStream()) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
            .isEqualTo("through the shared store");
      }
      assertThat(io.toString()).startsWith("ObjectStoreFileIO{shared ");
    }
    // Closing the FileIO left the shared store open.
    assertThat(lake.store().stat(Location.parse(path)).size()).isEqualTo(24);
  }

  @Test
  void unknownSharedStoreNameIsNamed() {
    assertThatThrownBy(
            () ->
                CatalogUtil.loadFileIO(
                    ObjectStoreFileIO.class.getName(),
                    Map.of(FileIOProperties.SHARED_STORE, "store-gone"),
                    null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot use FileIO property shelfmark.io.shared-store: no object store is registered"
                + " as store-gone (it is set by Shelfmark's catalog openers, for a store that is"
                + " still in use: remove it from the catalog properties)");
  }

  private static CatalogConfig glue(String name, String endpoint) {
    return CatalogConfig.builder()
        .type(CatalogType.GLUE)
        .name(name)
        .warehouse(lake.warehouse(name))
        .property("client.region", "us-east-1")
        .property("glue.endpoint", endpoint)
        .property("client.credentials-provider", ANONYMOUS)
        .build();
  }
}
