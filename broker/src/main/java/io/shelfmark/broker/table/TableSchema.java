package io.shelfmark.broker.table;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.schema.Column;
import java.util.List;
import java.util.Optional;

/**
 * The columns of a served table as queries see them, for the schema endpoints that clients read to
 * list columns (Pinot's {@code GET /tables/{name}/schema}).
 *
 * @param name the table's name as written in SQL, e.g. {@code obs.metrics}
 * @param columns the table's columns in schema order
 * @param timeColumn the column the table config names as its time column, if any
 */
public record TableSchema(String name, List<Column> columns, Optional<String> timeColumn) {
  public TableSchema {
    requireNonNull(name, "name is null");
    columns = List.copyOf(requireNonNull(columns, "columns is null"));
    requireNonNull(timeColumn, "timeColumn is null");
  }
}
