package io.shelfmark.sql.expression;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.tree.LiteralNode;
import io.shelfmark.sql.type.SqlType;
import java.util.List;

/**
 * One key of a MAP column, {@code dimensions['service']} or {@code element_at(dimensions,
 * 'service')}: a virtual column of the map's value type, NULL where the row's map is NULL or lacks
 * the key. Segments may hold it as an extracted column with its own indexes. Keys match exactly
 * (case-sensitive).
 */
public record MapKeyRef(String column, String key, SqlType type) implements Expression {
  public MapKeyRef {
    requireNonNull(column, "column is null");
    requireNonNull(key, "key is null");
    requireNonNull(type, "type is null");
  }

  @Override
  public List<Expression> children() {
    return List.of();
  }

  @Override
  public String toString() {
    return column + "[" + LiteralNode.quote(key) + "]";
  }
}
