package io.shelfmark.sql.tree;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlPosition;
import java.util.OptionalInt;

/**
 * {@code CAST(operand AS type)} as written: the type name upper case as spelled ({@code BIGINT},
 * {@code LONG}, {@code VARCHAR}), with its precision and scale when given ({@code DECIMAL(10,2)}).
 */
public record CastNode(
    Node operand, String typeName, OptionalInt precision, OptionalInt scale, SqlPosition position)
    implements Node {
  public CastNode {
    requireNonNull(operand, "operand is null");
    requireNonNull(typeName, "typeName is null");
    requireNonNull(precision, "precision is null");
    requireNonNull(scale, "scale is null");
    requireNonNull(position, "position is null");
  }

  /** The type as written: {@code DECIMAL(10, 2)}. */
  public String typeSql() {
    if (precision.isEmpty()) {
      return typeName;
    }
    return typeName
        + "("
        + precision.getAsInt()
        + (scale.isPresent() ? ", " + scale.getAsInt() : "")
        + ")";
  }

  @Override
  public String sql() {
    return "CAST(" + operand.sql() + " AS " + typeSql() + ")";
  }
}
