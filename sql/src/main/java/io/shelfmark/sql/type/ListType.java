package io.shelfmark.sql.type;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/** LIST(element) of a primitive element type. Selectable and countable; no element access yet. */
public record ListType(SqlType elementType) implements SqlType {
  public ListType {
    requireNonNull(elementType, "elementType is null");
    checkArgument(elementType.isPrimitive(), "list elements must be primitive: %s", elementType);
  }

  @Override
  public String displayName() {
    return "LIST(" + elementType.displayName() + ")";
  }

  @Override
  public String toString() {
    return displayName();
  }
}
