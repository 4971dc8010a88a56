package io.shelfmark.generator;

import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.jdbc.JdbcCatalog;

/** Real Iceberg catalogs for tests: JDBC on a SQLite file, with a local {@code file:} warehouse. */
final class TestingCatalogs {
  private TestingCatalogs() {}

  /** A JDBC catalog whose database and warehouse live under {@code directory}; close it after. */
  static JdbcCatalog sqlite(Path directory) {
    JdbcCatalog catalog = new JdbcCatalog();
    catalog.setConf(new Configuration());
    catalog.initialize(
        "test",
        Map.of(
            CatalogProperties.URI,
            "jdbc:sqlite:" + directory.resolve("catalog.db"),
            CatalogProperties.WAREHOUSE_LOCATION,
            directory.resolve("warehouse").toUri().toString()));
    return catalog;
  }
}
