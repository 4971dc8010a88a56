package io.shelfmark.cli.lake;

import static java.util.Objects.requireNonNull;

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
import org.apache.iceberg.catalog.Catalog;

/**
 * A lakehouse on this machine: an S3-compatible server over {@code <dir>/s3} (bucket {@value
 * #BUCKET}) and an Iceberg JDBC catalog in the SQLite file {@code <dir>/catalog.db} with its
 * warehouse in that bucket. Everything goes through the real S3 code path over HTTP on 127.0.0.1.
 *
 * <p>Lifecycle: {@link #start}, use, {@link #close}. The directory survives, so a later start sees
 * the same tables.
 */
public final class LocalLake implements Closeable {
  public static final String BUCKET = "lake";
  public static final String CATALOG_NAME = CatalogConfig.DEFAULT_NAME;
  public static final String WAREHOUSE = "s3://" + BUCKET + "/warehouse";

  private final Path directory;
  private final EmbeddedS3Server s3;
  private final StorageConfig storageConfig;
  private final CatalogConfig catalogConfig;
  private final ObjectStore store;
  private final Catalog catalog;

  private LocalLake(
      Path directory,
      EmbeddedS3Server s3,
      StorageConfig storageConfig,
      CatalogConfig catalogConfig,
      ObjectStore store,
      Catalog catalog) {
    this.directory = directory;
    this.s3 = s3;
    this.storageConfig = storageConfig;
    this.catalogConfig = catalogConfig;
    this.store = store;
    this.catalog = catalog;
  }

  /** The catalog file a lake directory holds. */
  public static final String CATALOG_FILE = "catalog.db";

  /** Where the quickstart keeps its lake inside its data directory. */
  public static final String QUICKSTART_LAKE = "lake";

  /**
   * The lake directory to open for {@code dataDir}. The commands share one default data directory
   * but not one layout: {@code lake}, {@code generate} and {@code bench segments} keep the lake in
   * the directory itself, the quickstart in its {@value #QUICKSTART_LAKE} subdirectory. Whichever
   * holds a catalog is opened, so that no command silently starts a second, empty catalog beside
   * the tables another wrote.
   *
   * @param fresh where a new lake goes when neither layout holds one
   */
  public static Path locate(Path dataDir, Path fresh) {
    requireNonNull(dataDir, "dataDir is null");
    requireNonNull(fresh, "fresh is null");
    if (Files.exists(dataDir.resolve(CATALOG_FILE))) {
      return dataDir;
    }
    Path quickstart = dataDir.resolve(QUICKSTART_LAKE);
    if (Files.exists(quickstart.resolve(CATALOG_FILE))) {
      return quickstart;
    }
    return fresh;
  }

  /**
   * Starts the S3 server on {@code s3Port} (0 for a free port) and opens the catalog.
   *
   * @throws IOException naming the directory or port when either cannot be used
   */
  public static LocalLake start(Path directory, int s3Port) throws IOException {
    requireNonNull(directory, "directory is null");
    Path absolute = directory.toAbsolutePath().normalize();
    Files.createDirectories(absolute.resolve("s3"));
    EmbeddedS3Server s3 =
        EmbeddedS3Server.builder().baseDirectory(absolute.resolve("s3")).port(s3Port).build();
    s3.start();
    try {
      s3.createBucket(BUCKET);
      StorageConfig storageConfig =
          StorageConfig.builder()
              .type(StorageType.S3)
              .endpoint(s3.endpoint())
              .region(EmbeddedS3Server.REGION)
              .pathStyleAccess(true)
              .credentials(new StaticCredentials(s3.accessKey(), s3.secretKey()))
              .build();
      CatalogConfig catalogConfig =
          CatalogConfig.builder()
              .type(CatalogType.JDBC)
              .name(CATALOG_NAME)
              .uri("jdbc:sqlite:" + absolute.resolve(CATALOG_FILE))
              .warehouse(WAREHOUSE)
              .build();
      ObjectStore store = ObjectStores.open(storageConfig);
      Catalog catalog = Catalogs.open(catalogConfig, store);
      return new LocalLake(absolute, s3, storageConfig, catalogConfig, store, catalog);
    } catch (IOException | RuntimeException e) {
      s3.close();
      throw e;
    }
  }

  public Path directory() {
    return directory;
  }

  public EmbeddedS3Server s3() {
    return s3;
  }

  /** The storage settings that reach this lake's S3 server (endpoint, path style, credentials). */
  public StorageConfig storageConfig() {
    return storageConfig;
  }

  public CatalogConfig catalogConfig() {
    return catalogConfig;
  }

  public ObjectStore store() {
    return store;
  }

  public Catalog catalog() {
    return catalog;
  }

  @Override
  public void close() throws IOException {
    try (s3;
        store) {
      if (catalog instanceof Closeable closeable) {
        closeable.close();
      }
    }
  }
}
