package io.shelfmark.catalog;

import io.shelfmark.catalog.CatalogException.Reason;
import io.shelfmark.config.cluster.CatalogConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens Iceberg's {@link JdbcCatalog}. Checks first what the driver would report obscurely: a URL
 * no driver accepts, and for SQLite a database file whose directory is missing (SQLite would say
 * only "path to ... does not exist").
 */
final class JdbcCatalogOpener {
  static final String SQLITE_PREFIX = "jdbc:sqlite:";

  /**
   * Iceberg's JDBC schema V1 stores views as well as tables; V0 (Iceberg's default for existing
   * databases) cannot. New catalogs start at V1; an existing V0 database is upgraded by Iceberg.
   */
  static final String SCHEMA_VERSION_PROPERTY = "jdbc.schema-version";

  static final String SCHEMA_VERSION = "V1";

  private static final Logger log = LoggerFactory.getLogger(JdbcCatalogOpener.class);

  private JdbcCatalogOpener() {}

  static Catalog open(CatalogConfig config, Function<Map<String, String>, FileIO> fileIO) {
    String uri =
        required(
            config, config.uri(), "catalog.uri", "a JDBC URL such as jdbc:sqlite:/path/catalog.db");
    String warehouse =
        required(
            config,
            config.warehouse(),
            "catalog.warehouse",
            "a location such as s3://lake/warehouse");
    checkDriver(config, uri);
    sqliteFile(uri).ifPresent(file -> checkDirectory(config, file));

    Map<String, String> properties = new LinkedHashMap<>(config.properties());
    properties.put(CatalogProperties.URI, uri);
    properties.put(CatalogProperties.WAREHOUSE_LOCATION, warehouse);
    properties.putIfAbsent(SCHEMA_VERSION_PROPERTY, SCHEMA_VERSION);

    JdbcCatalog catalog = new JdbcCatalog(fileIO, null, true);
    try {
      catalog.initialize(config.name(), properties);
    } catch (RuntimeException e) {
      CatalogException failure = initializationFailure(config, e);
      closeAfterFailure(catalog, failure);
      throw failure;
    }
    log.info("Opened JDBC catalog '{}' at {}", config.name(), Catalogs.displayUri(config));
    return catalog;
  }

  /**
   * The database file a {@code jdbc:sqlite:} URL names, or empty for other drivers and for
   * in-memory or resource databases. Accepts {@code jdbc:sqlite:/abs/file.db}, {@code
   * jdbc:sqlite:relative.db}, {@code jdbc:sqlite:file:/abs/file.db?options}.
   */
  static Optional<Path> sqliteFile(String uri) {
    if (!uri.startsWith(SQLITE_PREFIX)) {
      return Optional.empty();
    }
    String name = uri.substring(SQLITE_PREFIX.length());
    int query = name.indexOf('?');
    if (query >= 0) {
      name = name.substring(0, query);
    }
    if (name.startsWith("file:")) {
      name = name.substring("file:".length());
      if (name.startsWith("//")) {
        name = name.substring(2);
      }
    }
    // Empty means a temporary database; ":memory:" and ":resource:..." are not files.
    if (name.isEmpty() || name.startsWith(":")) {
      return Optional.empty();
    }
    return Optional.of(Path.of(name).toAbsolutePath().normalize());
  }

  private static void checkDriver(CatalogConfig config, String uri) {
    try {
      DriverManager.getDriver(uri);
    } catch (SQLException e) {
      throw new CatalogException(
          Reason.CONFIGURATION,
          ("Cannot open catalog '%s' at %s: no JDBC driver accepts this URL (Shelfmark ships"
                  + " drivers for jdbc:sqlite:/path/catalog.db and"
                  + " jdbc:postgresql://host:5432/database; fix catalog.uri)")
              .formatted(config.name(), Catalogs.displayUri(config)),
          e);
    }
  }

  private static void checkDirectory(CatalogConfig config, Path databaseFile) {
    Path directory = databaseFile.getParent();
    if (directory != null && !Files.isDirectory(directory)) {
      throw new CatalogException(
          Reason.CONFIGURATION,
          "Cannot open catalog '%s' at %s: directory %s does not exist (create it or fix catalog.uri)"
              .formatted(config.name(), Catalogs.displayUri(config), directory));
    }
  }

  private static CatalogException initializationFailure(CatalogConfig config, RuntimeException e) {
    boolean unreachable = CatalogErrors.isUnreachable(e);
    String hint =
        unreachable
            ? "check that the database is running and reachable, and catalog.uri"
            : "check catalog.uri, the jdbc.* properties and catalog.warehouse";
    // The driver's own SQLException says most ("Connection to host:port refused"); Iceberg's
    // wrappers around it repeat the URL, password included.
    Throwable driverError =
        CatalogErrors.firstOfType(e, SQLException.class).map(Throwable.class::cast).orElse(e);
    return new CatalogException(
        unreachable ? Reason.UNREACHABLE : Reason.CONFIGURATION,
        "Cannot open catalog '%s' at %s: %s (%s)"
            .formatted(
                config.name(),
                Catalogs.displayUri(config),
                Catalogs.redactPasswords(CatalogErrors.describe(driverError)),
                hint),
        e);
  }

  private static String required(
      CatalogConfig config, Optional<String> value, String key, String example) {
    return value.orElseThrow(
        () ->
            new CatalogException(
                Reason.CONFIGURATION,
                "Cannot open catalog '%s' of type jdbc: %s is not set (set it to %s)"
                    .formatted(config.name(), key, example)));
  }

  private static void closeAfterFailure(JdbcCatalog catalog, CatalogException failure) {
    try {
      catalog.close();
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    }
  }
}
