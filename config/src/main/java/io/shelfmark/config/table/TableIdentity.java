package io.shelfmark.config.table;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * Which Iceberg table a table config describes: the catalog (by the name in the cluster config's
 * {@code catalog.name}), the namespace and the table name, as {@code shelfmark}, {@code obs},
 * {@code metrics}.
 *
 * @param catalog the catalog's name
 * @param namespace the namespace; nested levels are joined with {@code .} ({@code a.b})
 * @param name the table's name within the namespace
 */
public record TableIdentity(String catalog, String namespace, String name) {
  /** The catalog name when a table config names none; the cluster config's default too. */
  public static final String DEFAULT_CATALOG = "shelfmark";

  public TableIdentity {
    requireNonNull(catalog, "catalog is null");
    requireNonNull(namespace, "namespace is null");
    requireNonNull(name, "name is null");
    checkArgument(!catalog.isBlank(), "Cannot use table.catalog: blank");
    checkArgument(!namespace.isBlank(), "Cannot use table.namespace: blank");
    checkArgument(!name.isBlank(), "Cannot use table.name: blank");
  }

  /** The namespace and name as SQL refers to the table: {@code obs.metrics}. */
  public String qualifiedName() {
    return namespace + "." + name;
  }

  /** {@code catalog.namespace.name}, such as {@code shelfmark.obs.metrics}. */
  @Override
  public String toString() {
    return catalog + "." + namespace + "." + name;
  }
}
