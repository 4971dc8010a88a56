package io.shelfmark.exchange.result;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A finished query result in Pinot's result-table shape: column names, Pinot data type names (see
 * {@link ResultFinisher} for the mapping and how values are rendered) and rows of JSON-friendly
 * values.
 */
public record FinalResult(
    List<String> columnNames, List<String> columnDataTypes, List<List<Object>> rows) {
  public FinalResult {
    columnNames = List.copyOf(requireNonNull(columnNames, "columnNames is null"));
    columnDataTypes = List.copyOf(requireNonNull(columnDataTypes, "columnDataTypes is null"));
    requireNonNull(rows, "rows is null");
    List<List<Object>> copy = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      if (row.size() != columnNames.size()) {
        throw new IllegalArgumentException(
            "Cannot build a result of %d columns with a row of %d values"
                .formatted(columnNames.size(), row.size()));
      }
      copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
    }
    rows = Collections.unmodifiableList(copy);
  }
}
