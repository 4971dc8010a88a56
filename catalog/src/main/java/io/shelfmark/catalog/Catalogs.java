package io.shelfmark.catalog;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.CatalogException.Reason;
import io.shelfmark.catalog.io.ObjectStoreFileIO;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.storage.spi.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileIO;

/**
 * Opens the Iceberg catalog a {@link CatalogConfig} describes and loads tables from it with
 * messages that name the catalog, its URI and what to do.
 *
 * <p>Every catalog reads and writes files through an {@link ObjectStoreFileIO} over the given
 * {@link ObjectStore} (shared, not closed by the catalog), unless the config's properties name
 * another {@code io-impl}, which is then loaded by Iceberg from those properties.
 *
 * <p>Kinds: {@code JDBC} ({@code JdbcCatalog}; SQLite file for the embedded default, PostgreSQL in
 * production; {@code jdbc.schema-version=V1} unless set, so views work), {@code REST} ({@code
 * RESTCatalog}), {@code GLUE} (iceberg-aws's {@code GlueCatalog}; its tables' FileIOs reach the
 * shared store through {@code SharedObjectStores}, see {@code GlueCatalogOpener}). A new kind is
 * one more case in {@link #open}.
 *
 * <p>The returned catalog is the caller's to close ({@code Closeable} for every kind).
 */
public final class Catalogs {
  private static final int MAX_NAMES_IN_HINT = 10;
  private static final Pattern PASSWORD_IN_URI = Pattern.compile("(?i)(password=)[^&;\\s]*");

  private Catalogs() {}

  /**
   * Opens and initialises the catalog {@code config} describes.
   *
   * @throws CatalogException naming the catalog and its URI (or Glue endpoint) when the URI is
   *     malformed, its directory or driver is missing, the server or database cannot be reached, or
   *     a property asks for something Shelfmark does not support
   */
  public static Catalog open(CatalogConfig config, ObjectStore store) {
    requireNonNull(config, "config is null");
    requireNonNull(store, "store is null");
    Function<Map<String, String>, FileIO> fileIO = fileIOFactory(config, store);
    return switch (config.type()) {
      case JDBC -> JdbcCatalogOpener.open(config, fileIO);
      case REST -> RestCatalogOpener.open(config, fileIO);
      case GLUE -> GlueCatalogOpener.open(config, store);
    };
  }

  /**
   * Loads a table, explaining a missing one with what the catalog does hold.
   *
   * @throws CatalogException with reason {@link Reason#NOT_FOUND} for an unknown namespace or
   *     table, or naming the table and the catalog's error otherwise
   */
  public static Table loadTable(Catalog catalog, TableIdentifier table) {
    requireNonNull(catalog, "catalog is null");
    requireNonNull(table, "table is null");
    try {
      return catalog.loadTable(table);
    } catch (NoSuchTableException e) {
      throw new CatalogException(
          Reason.NOT_FOUND,
          "Cannot load table %s from catalog '%s': no such table (%s)"
              .formatted(table, catalog.name(), whatExists(catalog, table.namespace(), e)),
          e);
    } catch (NotFoundException e) {
      throw new CatalogException(
          Reason.FAILED,
          "Cannot load table %s from catalog '%s': %s (the catalog points at metadata missing from storage: check the warehouse location and that its files were not deleted)"
              .formatted(table, catalog.name(), e.getMessage()),
          e);
    } catch (RuntimeException e) {
      // No URI or endpoint in the message: it can reach clients (onboarding); the catalog's
      // address is logged when it is opened.
      boolean unreachable = CatalogErrors.isUnreachable(e);
      throw new CatalogException(
          unreachable ? Reason.UNREACHABLE : Reason.FAILED,
          "Cannot load table %s from catalog '%s': %s%s"
              .formatted(
                  table,
                  catalog.name(),
                  CatalogErrors.describe(e),
                  unreachable
                      ? " (the catalog did not answer: check that it runs and that this node"
                          + " reaches it)"
                      : ""),
          e);
    }
  }

  /** The config's URI for messages, with any {@code password=} value hidden. */
  static String displayUri(CatalogConfig config) {
    return config.uri().map(Catalogs::redactPasswords).orElse("");
  }

  /** Hides the value of every {@code password=} in a message that may quote a JDBC URL. */
  static String redactPasswords(String text) {
    return PASSWORD_IN_URI.matcher(text).replaceAll("$1****");
  }

  /**
   * Makes the FileIO for the catalog's properties: an {@link ObjectStoreFileIO} over the shared
   * store, or the user's {@code io-impl} loaded by Iceberg.
   */
  static Function<Map<String, String>, FileIO> fileIOFactory(
      CatalogConfig config, ObjectStore store) {
    String ioImpl = config.properties().get(CatalogProperties.FILE_IO_IMPL);
    if (ioImpl != null) {
      return properties -> CatalogUtil.loadFileIO(ioImpl, properties, null);
    }
    return properties -> {
      ObjectStoreFileIO io = new ObjectStoreFileIO(store);
      io.initialize(properties);
      return io;
    };
  }

  private static String whatExists(Catalog catalog, Namespace namespace, Exception failure) {
    if (!(catalog instanceof SupportsNamespaces namespaces)) {
      return "check the namespace and table name";
    }
    try {
      if (!namespace.isEmpty() && !namespaces.namespaceExists(namespace)) {
        List<String> known = new ArrayList<>();
        for (Namespace existing : namespaces.listNamespaces()) {
          known.add(existing.toString());
        }
        return "namespace %s does not exist; namespaces: %s".formatted(namespace, names(known));
      }
      List<String> tables = new ArrayList<>();
      for (TableIdentifier existing : catalog.listTables(namespace)) {
        tables.add(existing.name());
      }
      return tables.isEmpty()
          ? "namespace %s has no tables".formatted(namespace)
          : "tables in %s: %s".formatted(namespace, names(tables));
    } catch (RuntimeException e) {
      // The hint is a courtesy: keep the original failure, and this one attached to it.
      failure.addSuppressed(e);
      return "check the namespace and table name";
    }
  }

  private static String names(List<String> names) {
    List<String> sorted = new ArrayList<>(names);
    sorted.sort(null);
    if (sorted.size() <= MAX_NAMES_IN_HINT) {
      return sorted.toString();
    }
    return sorted.subList(0, MAX_NAMES_IN_HINT)
        + " and %s more".formatted(sorted.size() - MAX_NAMES_IN_HINT);
  }
}
