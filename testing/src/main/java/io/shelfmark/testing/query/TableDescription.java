package io.shelfmark.testing.query;

import static java.util.Objects.requireNonNull;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The table queries are generated over.
 *
 * @param name the table as queries name it, such as {@code obs.metrics}
 * @param columns its columns; names unique
 */
public record TableDescription(String name, List<Column> columns) {
  public TableDescription {
    requireNonNull(name, "name is null");
    columns = List.copyOf(requireNonNull(columns, "columns is null"));
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("Cannot describe table " + name + ": no columns");
    }
    Set<String> names = new HashSet<>();
    for (Column column : columns) {
      if (!names.add(column.name())) {
        throw new IllegalArgumentException(
            "Cannot describe table " + name + ": column " + column.name() + " appears twice");
      }
    }
  }

  /** The column of that name. */
  public Column column(String columnName) {
    for (Column column : columns) {
      if (column.name().equals(columnName)) {
        return column;
      }
    }
    throw new IllegalArgumentException(
        "Cannot find column " + columnName + " in table " + name + " (columns: " + names() + ")");
  }

  private List<String> names() {
    return columns.stream().map(Column::name).toList();
  }
}
