package io.shelfmark.sql.type;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

/**
 * MAP(STRING, value): read through its keys, {@code col['k']} or {@code element_at(col, 'k')}, each
 * a virtual column of the value type (NULL where the row's map lacks the key).
 */
public record MapType(SqlType keyType, SqlType valueType) implements SqlType {
  public MapType {
    requireNonNull(keyType, "keyType is null");
    requireNonNull(valueType, "valueType is null");
    checkArgument(keyType == PrimitiveType.STRING, "map keys must be STRING: %s", keyType);
    checkArgument(valueType.isPrimitive(), "map values must be primitive: %s", valueType);
  }

  @Override
  public String displayName() {
    return "MAP(" + keyType.displayName() + ", " + valueType.displayName() + ")";
  }

  @Override
  public String toString() {
    return displayName();
  }
}
