package io.shelfmark.sql.expression;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.type.SqlType;
import java.util.List;

/** A table column, by its name as in the table's schema (not as the query spelled it). */
public record ColumnRef(String name, SqlType type) implements Expression {
  public ColumnRef {
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
  }

  @Override
  public List<Expression> children() {
    return List.of();
  }

  @Override
  public String toString() {
    return name;
  }
}
