package io.shelfmark.broker.query;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.auth.TableAccess;
import io.shelfmark.sql.schema.BoundTable;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.sql.schema.TableSchemaProvider;
import java.util.List;
import java.util.Optional;

/**
 * The served tables as one caller may see them: the others do not exist. Planning over this view
 * gives a caller the same answer for a table they may not read as for a table that is not there,
 * and error messages that list only tables (and columns) they may read.
 */
final class ReadableTables implements TableSchemaProvider {
  private final TableSchemaProvider tables;
  private final TableAccess access;

  ReadableTables(TableSchemaProvider tables, TableAccess access) {
    this.tables = requireNonNull(tables, "tables is null");
    this.access = requireNonNull(access, "access is null");
  }

  @Override
  public Optional<BoundTable> table(TableName name) {
    return tables.table(name).filter(table -> access.canRead(table.name().toString()));
  }

  @Override
  public List<TableName> tableNames() {
    return tables.tableNames().stream().filter(name -> access.canRead(name.toString())).toList();
  }

  @Override
  public String toString() {
    return tables + " as readable by " + access;
  }
}
