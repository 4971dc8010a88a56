package io.shelfmark.sql.schema;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.type.SqlType;

/** A top-level column of a table: its name as in the table's schema, its type, nullability. */
public record Column(String name, SqlType type, boolean nullable) {
  public Column {
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
    checkArgument(!name.isEmpty(), "column name is empty");
  }

  @Override
  public String toString() {
    return name + " " + type.displayName() + (nullable ? "" : " NOT NULL");
  }
}
