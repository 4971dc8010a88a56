package io.shelfmark.catalog;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.io.FileIOProperties;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.config.cluster.StaticCredentials;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.cluster.StorageType;
import io.shelfmark.lake.EmbeddedS3Server;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * A lake for tests: the embedded S3 server on a free loopback port over a temporary directory, one
 * bucket, an {@link ObjectStore} that talks to it over HTTP, and catalog configs pointing at it.
 */
public final class TestingLake implements AutoCloseable {
  public static final String BUCKET = "lake";

  private final Path directory;
  private final EmbeddedS3Server server;
  private final ObjectStore store;

  private TestingLake(Path directory, EmbeddedS3Server server, ObjectStore store) {
    this.directory = requireNonNull(directory, "directory is null");
    this.server = requireNonNull(server, "server is null");
    this.store = requireNonNull(store, "store is null");
  }

  /** Starts the embedded S3 server with its data under {@code directory/s3}. */
  public static TestingLake start(Path directory) throws IOException {
    EmbeddedS3Server server =
        EmbeddedS3Server.builder().baseDirectory(directory.resolve("s3")).build();
    server.start();
    server.createBucket(BUCKET);
    ObjectStore store = ObjectStores.open(storageConfig(server));
    return new TestingLake(directory, server, store);
  }

  public ObjectStore store() {
    return store;
  }

  /** The directory holding the bucket's objects as plain files. */
  public Path bucketDirectory() {
    return server.baseDirectory().resolve(BUCKET);
  }

  /** The embedded S3 server's base URL. */
  public java.net.URI s3Endpoint() {
    return server.endpoint();
  }

  /** A warehouse location in the lake's bucket, such as {@code s3://lake/<name>}. */
  public String warehouse(String name) {
    return "s3://" + BUCKET + "/" + name;
  }

  /** The properties that make a reflectively loaded {@code ObjectStoreFileIO} reach this lake. */
  public Map<String, String> fileIOProperties() {
    return Map.of(
        FileIOProperties.STORAGE_TYPE,
        "s3",
        FileIOProperties.S3_ENDPOINT,
        server.endpoint().toString(),
        FileIOProperties.S3_REGION,
        EmbeddedS3Server.REGION,
        FileIOProperties.S3_PATH_STYLE_ACCESS,
        "true",
        FileIOProperties.S3_ACCESS_KEY_ID,
        server.accessKey(),
        FileIOProperties.S3_SECRET_ACCESS_KEY,
        server.secretKey());
  }

  /** A JDBC catalog on a SQLite file in the lake's directory, with its warehouse in the bucket. */
  public CatalogConfig jdbcCatalog(String name) {
    return CatalogConfig.builder()
        .type(CatalogType.JDBC)
        .name(name)
        .uri("jdbc:sqlite:" + directory.resolve(name + ".db"))
        .warehouse(warehouse(name))
        .build();
  }

  @Override
  public void close() throws IOException {
    try (server) {
      store.close();
    }
  }

  private static StorageConfig storageConfig(EmbeddedS3Server server) {
    return StorageConfig.builder()
        .type(StorageType.S3)
        .endpoint(server.endpoint())
        .region(EmbeddedS3Server.REGION)
        .pathStyleAccess(true)
        .credentials(new StaticCredentials(server.accessKey(), server.secretKey()))
        .build();
  }
}
