package io.shelfmark.indexbuilder.testing;

import static java.util.Objects.requireNonNull;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import io.shelfmark.catalog.Catalogs;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.config.cluster.StaticCredentials;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.cluster.StorageType;
import io.shelfmark.generator.GeneratorOptions;
import io.shelfmark.generator.MetricsTableGenerator;
import io.shelfmark.generator.ProgressListener;
import io.shelfmark.lake.EmbeddedS3Server;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The benchmark table {@code obs.metrics} generated at a small scale into a real lake: the embedded
 * S3 server over a temporary directory, a JDBC catalog on SQLite with its warehouse in bucket
 * {@value #BUCKET}, every file written and read over HTTP. Close it after use.
 */
public final class TestingMetricsLake implements Closeable {
  public static final String BUCKET = "lake";
  public static final TableIdentifier TABLE = TableIdentifier.of("obs", "metrics");

  /** The rows and seed of {@link #shared()}. */
  public static final long SHARED_ROWS = 30_000;

  public static final long SHARED_SEED = 11;

  private static TestingMetricsLake shared;

  private final EmbeddedS3Server server;
  private final ObjectStore store;
  private final Catalog catalog;

  private TestingMetricsLake(EmbeddedS3Server server, ObjectStore store, Catalog catalog) {
    this.server = server;
    this.store = store;
    this.catalog = catalog;
  }

  /** Starts the lake in {@code directory} and generates {@code rows} rows from {@code seed}. */
  public static TestingMetricsLake start(Path directory, long rows, long seed) throws IOException {
    requireNonNull(directory, "directory is null");
    EmbeddedS3Server server =
        EmbeddedS3Server.builder().baseDirectory(directory.resolve("s3")).build();
    server.start();
    try {
      server.createBucket(BUCKET);
      ObjectStore store = ObjectStores.open(storage(server));
      Catalog catalog =
          Catalogs.open(
              CatalogConfig.builder()
                  .type(CatalogType.JDBC)
                  .name("lake")
                  .uri("jdbc:sqlite:" + directory.resolve("catalog.db"))
                  .warehouse("s3://" + BUCKET + "/warehouse")
                  .build(),
              store);
      ((SupportsNamespaces) catalog).createNamespace(Namespace.of("obs"));
      MetricsTableGenerator.generate(
          catalog,
          TABLE,
          GeneratorOptions.builder().rows(rows).seed(seed).parallelism(2).build(),
          ProgressListener.none());
      return new TestingMetricsLake(server, store, catalog);
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /**
   * One lake per test JVM, generated on first use ({@value #SHARED_ROWS} rows, seed {@value
   * #SHARED_SEED}) and closed when the JVM exits, so test classes share the cost of generating it.
   * Tests must not change its table; they write segments under prefixes of their own.
   */
  public static synchronized TestingMetricsLake shared() throws IOException {
    if (shared == null) {
      Path directory = Files.createTempDirectory("shelfmark-index-builder-lake");
      TestingMetricsLake lake = start(directory, SHARED_ROWS, SHARED_SEED);
      Runtime.getRuntime()
          .addShutdownHook(
              Thread.ofPlatform()
                  .unstarted(
                      () -> {
                        try {
                          lake.close();
                          MoreFiles.deleteRecursively(
                              directory, RecursiveDeleteOption.ALLOW_INSECURE);
                        } catch (IOException e) {
                          System.err.println("Cannot clean up test lake " + directory + ": " + e);
                        }
                      }));
      shared = lake;
    }
    return shared;
  }

  public ObjectStore store() {
    return store;
  }

  public Catalog catalog() {
    return catalog;
  }

  public Table table() {
    return catalog.loadTable(TABLE);
  }

  public TableSnapshot snapshot() {
    return TableSnapshot.current(table());
  }

  public int formatVersion() {
    return ((HasTableOperations) table()).operations().current().formatVersion();
  }

  /** The object behind an {@code s3://lake/...} data file, as a plain file of the S3 server. */
  public Path localFile(DataFileInfo file) {
    return server.baseDirectory().resolve(file.path().substring("s3://".length()));
  }

  /** The directory holding the S3 server's buckets as directories. */
  public Path s3Directory() {
    return server.baseDirectory();
  }

  @Override
  public void close() throws IOException {
    try (server;
        store) {
      if (catalog instanceof Closeable closeable) {
        closeable.close();
      }
    }
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
