package io.shelfmark.sql.tree;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlPosition;
import io.shelfmark.sql.schema.TableName;
import java.util.Optional;

/** The FROM clause: one table, maybe with an alias ({@code FROM obs.metrics AS m}). */
public record TableReference(TableName name, Optional<String> alias, SqlPosition position) {
  public TableReference {
    requireNonNull(name, "name is null");
    requireNonNull(alias, "alias is null");
    requireNonNull(position, "position is null");
  }
}
