package io.shelfmark.sql.schema;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The tables a query may name, looked up by the name as written in SQL.
 *
 * <p>Lifecycle: the planner calls {@link #table} once per query, on the request thread, so a lookup
 * must be cheap and must not do I/O: serve it from metadata synced with the table's snapshot (the
 * broker's routing table), never from the Iceberg catalog on the query path. {@link #tableNames} is
 * called only to build the message of an unknown-table error.
 *
 * <p>Thread safety: implementations must be safe for concurrent use; a provider whose tables change
 * (onboarding, schema evolution) returns a consistent {@link BoundTable} per call.
 */
public interface TableSchemaProvider {
  /**
   * The table named {@code name}: the exactly-spelled table if there is one, else the only table
   * whose name equals it ignoring case; empty when there is none or the match is ambiguous.
   */
  Optional<BoundTable> table(TableName name);

  /** The names a query may use, for error messages; in a stable order. */
  List<TableName> tableNames();

  /**
   * {@code tables} seen from {@code namespace}: a one-part name such as {@code metrics} is first
   * looked up as {@code namespace.metrics}, then as written; longer names are taken as written.
   * This is how Pinot's database model maps onto Iceberg namespaces: a client that sets the
   * database {@code obs} writes {@code FROM metrics}.
   */
  static TableSchemaProvider inNamespace(TableSchemaProvider tables, String namespace) {
    requireNonNull(tables, "tables is null");
    requireNonNull(namespace, "namespace is null");
    TableName prefix = TableName.parse(namespace);
    return new TableSchemaProvider() {
      @Override
      public Optional<BoundTable> table(TableName name) {
        if (name.parts().size() == 1) {
          List<String> qualified = new ArrayList<>(prefix.parts());
          qualified.add(name.simpleName());
          Optional<BoundTable> inNamespace = tables.table(new TableName(qualified));
          if (inNamespace.isPresent()) {
            return inNamespace;
          }
        }
        return tables.table(name);
      }

      @Override
      public List<TableName> tableNames() {
        return tables.tableNames();
      }

      @Override
      public String toString() {
        return tables + " in namespace " + namespace;
      }
    };
  }

  /** A fixed set of tables (tests, the embedded quickstart). */
  static TableSchemaProvider of(Collection<BoundTable> tables) {
    requireNonNull(tables, "tables is null");
    List<BoundTable> copy = ImmutableList.copyOf(tables);
    return new TableSchemaProvider() {
      @Override
      public Optional<BoundTable> table(TableName name) {
        for (BoundTable table : copy) {
          if (table.name().equals(name)) {
            return Optional.of(table);
          }
        }
        List<BoundTable> matches =
            copy.stream().filter(table -> table.name().equalsIgnoreCase(name)).toList();
        return matches.size() == 1 ? Optional.of(matches.getFirst()) : Optional.empty();
      }

      @Override
      public List<TableName> tableNames() {
        return copy.stream().map(BoundTable::name).toList();
      }

      @Override
      public String toString() {
        return "TableSchemaProvider" + tableNames();
      }
    };
  }

  static TableSchemaProvider of(BoundTable... tables) {
    return of(List.of(tables));
  }
}
