package io.shelfmark.sql.plan;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.type.SqlType;

/**
 * One column of the result: its name (the alias, else the column name as written, else the
 * expression's normalised SQL such as {@code avg(latest_rollup)}) and the expression computing it.
 */
public record OutputColumn(String name, Expression expression) {
  public OutputColumn {
    requireNonNull(name, "name is null");
    requireNonNull(expression, "expression is null");
  }

  public SqlType type() {
    return expression.type();
  }

  @Override
  public String toString() {
    return name + " " + type().displayName() + " := " + expression;
  }
}
