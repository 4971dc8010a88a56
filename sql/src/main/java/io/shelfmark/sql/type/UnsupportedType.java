package io.shelfmark.sql.type;

import static java.util.Objects.requireNonNull;

/**
 * A column type Shelfmark cannot read (a struct, a map with non-string keys, time, uuid, nanosecond
 * timestamps, variant...). The column stays in the schema, so a query naming it is told why it
 * cannot be used rather than that the column does not exist.
 */
public record UnsupportedType(String description) implements SqlType {
  public UnsupportedType {
    requireNonNull(description, "description is null");
  }

  @Override
  public String displayName() {
    return description;
  }

  @Override
  public String toString() {
    return displayName();
  }
}
