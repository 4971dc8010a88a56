package io.shelfmark.testing.query;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A column as the query generator sees it.
 *
 * @param name the column name
 * @param kind its kind
 * @param mapKeys for {@link ColumnKind#MAP}, the keys queries may use ({@code name['key']}); empty
 *     otherwise
 * @param epochMillis for {@link ColumnKind#LONG}, whether it holds epoch milliseconds, so that
 *     queries may bucket it with Pinot's {@code dateTrunc}
 */
public record Column(String name, ColumnKind kind, List<String> mapKeys, boolean epochMillis) {
  public Column {
    requireNonNull(name, "name is null");
    requireNonNull(kind, "kind is null");
    mapKeys = List.copyOf(requireNonNull(mapKeys, "mapKeys is null"));
    if (name.isEmpty()) {
      throw new IllegalArgumentException("Cannot describe column: the name is empty");
    }
    if (kind == ColumnKind.MAP && mapKeys.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot describe map column " + name + ": no keys (give the keys queries may use)");
    }
    if (kind != ColumnKind.MAP && !mapKeys.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot describe column " + name + ": only MAP columns have keys, not " + kind);
    }
    if (epochMillis && kind != ColumnKind.LONG) {
      throw new IllegalArgumentException(
          "Cannot describe column " + name + ": epoch millis must be LONG, not " + kind);
    }
  }

  public static Column of(String name, ColumnKind kind) {
    return new Column(name, kind, List.of(), false);
  }

  public static Column map(String name, List<String> keys) {
    return new Column(name, ColumnKind.MAP, keys, false);
  }

  /** A LONG column of epoch milliseconds, such as {@code logical_timestamp}. */
  public static Column epochMillis(String name) {
    return new Column(name, ColumnKind.LONG, List.of(), true);
  }
}
