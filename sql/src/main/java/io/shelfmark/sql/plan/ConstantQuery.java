package io.shelfmark.sql.plan;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.sql.expression.Literal;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code SELECT} without {@code FROM}: one row of constants, computed while planning. Clients
 * send {@code SELECT 1} to check a connection (SQLAlchemy's ping, Superset's "Test connection"), so
 * the broker answers it without touching a table.
 *
 * @param outputs the result columns; every expression is a {@link Literal}
 */
public record ConstantQuery(List<OutputColumn> outputs) {
  public ConstantQuery {
    requireNonNull(outputs, "outputs is null");
    outputs = ImmutableList.copyOf(outputs);
    checkArgument(!outputs.isEmpty(), "a constant query has at least one output");
    for (OutputColumn output : outputs) {
      checkArgument(output.expression() instanceof Literal, "output %s is not a constant", output);
    }
  }

  /** The one row's values, in the representation of {@link io.shelfmark.sql.type.SqlType}. */
  public List<Object> row() {
    List<Object> row = new ArrayList<>(outputs.size());
    for (OutputColumn output : outputs) {
      row.add(((Literal) output.expression()).value());
    }
    return row;
  }
}
