package io.shelfmark.segment.spi;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * A column a segment describes: a table column, or a virtual column extracted from one key of a MAP
 * column, named {@code map['key']} (see {@link #mapKeyName}).
 *
 * @param name the column's name as predicates refer to it
 * @param type the type of its values
 * @param mapKey for an extracted map key: the map column and the key
 */
public record ColumnDescriptor(String name, ValueType type, Optional<MapKey> mapKey) {
  public ColumnDescriptor {
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
    requireNonNull(mapKey, "mapKey is null");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("Cannot describe a column with an empty name");
    }
    if (mapKey.isPresent()
        && !name.equals(mapKeyName(mapKey.get().mapColumn(), mapKey.get().key()))) {
      throw new IllegalArgumentException(
          "Cannot name extracted map key %s: expected %s"
              .formatted(name, mapKeyName(mapKey.get().mapColumn(), mapKey.get().key())));
    }
  }

  /** A table column. */
  public static ColumnDescriptor of(String name, ValueType type) {
    return new ColumnDescriptor(name, type, Optional.empty());
  }

  /** The virtual column of one key of a map column. */
  public static ColumnDescriptor mapKey(String mapColumn, String key, ValueType valueType) {
    return new ColumnDescriptor(
        mapKeyName(mapColumn, key), valueType, Optional.of(new MapKey(mapColumn, key)));
  }

  /** {@code dimensions['node']}: the map column, the key in single quotes with quotes doubled. */
  public static String mapKeyName(String mapColumn, String key) {
    requireNonNull(mapColumn, "mapColumn is null");
    requireNonNull(key, "key is null");
    return mapColumn + "['" + key.replace("'", "''") + "']";
  }

  /** The source of an extracted map-key column. */
  public record MapKey(String mapColumn, String key) {
    public MapKey {
      requireNonNull(mapColumn, "mapColumn is null");
      requireNonNull(key, "key is null");
    }
  }
}
