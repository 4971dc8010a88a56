package io.shelfmark.testing.oracle;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A query result in a normalised, engine-neutral form, so results from DuckDB and from Shelfmark
 * compare with {@link ResultComparison}. Values are {@code null}, {@link Long} (every integer
 * type), {@link Double} (every floating and decimal type), {@link String}, {@link Boolean}, {@link
 * java.time.LocalDate}, {@link java.time.LocalDateTime} (timestamps without zone), {@link
 * java.time.Instant} (timestamps with zone), {@link List} and {@link java.util.Map} (nested values
 * normalised the same way); see {@link ResultValues#normalize(Object)}.
 *
 * @param columns the output column names, in order
 * @param rows the rows, each as long as {@code columns}; unmodifiable, may hold nulls
 */
public record QueryResult(List<String> columns, List<List<Object>> rows) {
  public QueryResult {
    columns = List.copyOf(requireNonNull(columns, "columns is null"));
    requireNonNull(rows, "rows is null");
    List<List<Object>> copy = new ArrayList<>(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      List<Object> row = requireNonNull(rows.get(i), "row is null");
      if (row.size() != columns.size()) {
        throw new IllegalArgumentException(
            "Cannot make result: row "
                + i
                + " has "
                + row.size()
                + " values but there are "
                + columns.size()
                + " columns "
                + columns);
      }
      copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
    }
    rows = Collections.unmodifiableList(copy);
  }

  /**
   * A result from values of any supported type, normalised with {@link
   * ResultValues#normalize(Object)}: for results that come from elsewhere than DuckDB (such as a
   * Shelfmark JSON response).
   */
  public static QueryResult normalized(List<String> columns, List<? extends List<?>> rows) {
    requireNonNull(rows, "rows is null");
    List<List<Object>> normalized = new ArrayList<>(rows.size());
    for (List<?> row : rows) {
      List<Object> values = new ArrayList<>(row.size());
      for (Object value : row) {
        values.add(ResultValues.normalize(value));
      }
      normalized.add(values);
    }
    return new QueryResult(columns, normalized);
  }

  public int rowCount() {
    return rows.size();
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    text.append(columns).append(' ').append(rows.size()).append(" rows");
    int shown = Math.min(rows.size(), 10);
    for (int i = 0; i < shown; i++) {
      text.append("\n  ").append(rows.get(i));
    }
    if (shown < rows.size()) {
      text.append("\n  ...");
    }
    return text.toString();
  }
}
