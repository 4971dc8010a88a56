package io.shelfmark.sql.schema;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A table as the planner sees it: its name and its top-level columns in schema order. Column names
 * are unique (exactly); two names differing only in case are allowed, and a query must then spell
 * them exactly.
 */
public record BoundTable(TableName name, List<Column> columns) {
  public BoundTable {
    requireNonNull(name, "name is null");
    requireNonNull(columns, "columns is null");
    columns = ImmutableList.copyOf(columns);
    checkArgument(!columns.isEmpty(), "table %s has no columns", name);
    Set<String> seen = new HashSet<>();
    for (Column column : columns) {
      checkArgument(seen.add(column.name()), "table %s has two columns named %s", name, column);
    }
  }

  /** The column spelled exactly {@code columnName}. */
  public Optional<Column> column(String columnName) {
    for (Column column : columns) {
      if (column.name().equals(columnName)) {
        return Optional.of(column);
      }
    }
    return Optional.empty();
  }

  /** Every column whose name equals {@code columnName} ignoring case. */
  public List<Column> columnsIgnoreCase(String columnName) {
    return columns.stream().filter(column -> column.name().equalsIgnoreCase(columnName)).toList();
  }

  /** Column names in schema order. */
  public List<String> columnNames() {
    return columns.stream().map(Column::name).toList();
  }
}
