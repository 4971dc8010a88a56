package io.shelfmark.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.catalog.Catalogs;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.config.cluster.StaticCredentials;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.cluster.StorageType;
import io.shelfmark.lake.EmbeddedS3Server;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quickstart's path: a JDBC catalog on SQLite whose warehouse is {@code s3://lake/warehouse} on
 * the embedded S3 server, every file written and read through Shelfmark's ObjectStoreFileIO over
 * real S3 requests.
 */
class TestGeneratorOnEmbeddedS3 {
  private static final TableIdentifier ID = TableIdentifier.of("obs", "metrics");

  @TempDir Path directory;

  @Test
  void generatesTheTableIntoTheEmbeddedS3Warehouse() throws IOException {
    try (EmbeddedS3Server server =
        EmbeddedS3Server.builder().baseDirectory(directory.resolve("s3")).build()) {
      server.start();
      server.createBucket("lake");
      try (ObjectStore store = ObjectStores.open(storage(server))) {
        Catalog catalog = Catalogs.open(jdbcCatalog(), store);
        try (Closeable closeCatalog = (Closeable) catalog) {
          GeneratorOptions options =
              GeneratorOptions.builder().rows(30_000).seed(42).parallelism(2).build();
          GenerateReport report =
              MetricsTableGenerator.generate(catalog, ID, options, ProgressListener.none());

          Table table = catalog.loadTable(ID);
          assertThat(table.location()).startsWith("s3://lake/warehouse/");
          List<DataFile> files = TestMetricsTableGenerator.dataFiles(table);
          assertThat(files).hasSize((int) report.files());
          long rows = 0;
          for (DataFile file : files) {
            assertThat(file.location()).startsWith("s3://lake/warehouse/obs/metrics/data/org_id=");
            // The object is a plain file in the server's directory: its footer says zstd + indexes.
            Path local =
                server.baseDirectory().resolve(file.location().substring("s3://".length()));
            assertThat(Files.size(local)).isEqualTo(file.fileSizeInBytes());
            try (CloseableIterable<Record> records = TestMetricsTableGenerator.read(table, file)) {
              for (Record record : records) {
                assertThat(record.getField("org_id"))
                    .isEqualTo(file.partition().get(0, Long.class));
                rows++;
              }
            }
          }
          assertThat(rows).isEqualTo(30_000);
          DataFile first = files.get(0);
          ParquetFooter footer =
              ParquetFooter.read(
                  server.baseDirectory().resolve(first.location().substring("s3://".length())));
          assertThat(footer.zstdChunks()).isEqualTo(footer.columnChunks());
          assertThat(footer.chunksWithOffsetIndex()).isEqualTo(footer.columnChunks());

          GenerateReport again =
              MetricsTableGenerator.generate(catalog, ID, options, ProgressListener.none());
          assertThat(again.reused()).isTrue();
          assertThat(again.files()).isEqualTo(report.files());
          assertThat(again.bytes()).isEqualTo(report.bytes());
        }
      }
    }
  }

  private CatalogConfig jdbcCatalog() {
    return CatalogConfig.builder()
        .type(CatalogType.JDBC)
        .name("lake")
        .uri("jdbc:sqlite:" + directory.resolve("catalog.db"))
        .warehouse("s3://lake/warehouse")
        .build();
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
}
