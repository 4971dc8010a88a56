package io.shelfmark.broker.query;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.explain.ExplainReport;
import io.shelfmark.sql.type.SqlType;
import java.util.List;
import java.util.Optional;

/**
 * The answer to one query: a result table or errors, and the execution statistics. Serialised by
 * the HTTP layer in the shape of Apache Pinot's broker response plus Shelfmark's storage figures.
 *
 * @param result the result table; empty when the query failed
 * @param errors why the query failed; empty on success
 * @param statistics what answering it cost
 * @param partialResult the result lacks the rows of some data files, which the errors name (only
 *     when the request allowed it: {@code allowPartialResults=true})
 * @param explain the plan (and under ANALYZE what happened) of an EXPLAIN; the result table then
 *     holds the same as text, one {@code PLAN} row per line
 */
public record QueryResponse(
    Optional<ResultTable> result,
    List<QueryError> errors,
    QueryStatistics statistics,
    boolean partialResult,
    Optional<ExplainReport> explain) {
  public QueryResponse {
    requireNonNull(result, "result is null");
    requireNonNull(explain, "explain is null");
    errors = List.copyOf(requireNonNull(errors, "errors is null"));
    requireNonNull(statistics, "statistics is null");
    if (partialResult
        ? result.isEmpty() || errors.isEmpty()
        : result.isPresent() == !errors.isEmpty()) {
      throw new IllegalArgumentException(
          partialResult
              ? "A partial result has both a result and errors naming what it lacks: " + errors
              : "A response has either a result or errors, not both or neither: " + errors);
    }
  }

  /** An answer that is not an EXPLAIN's. */
  public QueryResponse(
      Optional<ResultTable> result,
      List<QueryError> errors,
      QueryStatistics statistics,
      boolean partialResult) {
    this(result, errors, statistics, partialResult, Optional.empty());
  }

  /** A whole answer (a result) or a failure (errors). */
  public QueryResponse(
      Optional<ResultTable> result, List<QueryError> errors, QueryStatistics statistics) {
    this(result, errors, statistics, false);
  }

  public static QueryResponse failed(QueryErrorCode code, String message) {
    return new QueryResponse(
        Optional.empty(), List.of(new QueryError(code, message)), QueryStatistics.NONE);
  }

  /**
   * The result rows with their column names and types.
   *
   * @param columnNames output column names, in order
   * @param columnDataTypes Pinot type names (LONG, DOUBLE, STRING, ...), one per column
   * @param rows each row's values in column order
   * @param columnTypes the SQL type of each column, which Pinot's names blur (DATE and STRING,
   *     TIMESTAMP with and without zone, DECIMAL's precision): typed clients (Arrow Flight SQL)
   *     need them; empty when the producer of the table does not know them
   */
  public record ResultTable(
      List<String> columnNames,
      List<String> columnDataTypes,
      List<List<Object>> rows,
      List<SqlType> columnTypes) {
    public ResultTable {
      columnNames = List.copyOf(requireNonNull(columnNames, "columnNames is null"));
      columnDataTypes = List.copyOf(requireNonNull(columnDataTypes, "columnDataTypes is null"));
      rows = List.copyOf(requireNonNull(rows, "rows is null"));
      columnTypes = List.copyOf(requireNonNull(columnTypes, "columnTypes is null"));
      if (columnNames.size() != columnDataTypes.size()) {
        throw new IllegalArgumentException(
            "columnNames has "
                + columnNames.size()
                + " entries but columnDataTypes has "
                + columnDataTypes.size());
      }
      if (!columnTypes.isEmpty() && columnTypes.size() != columnNames.size()) {
        throw new IllegalArgumentException(
            "columnNames has "
                + columnNames.size()
                + " entries but columnTypes has "
                + columnTypes.size());
      }
    }

    /** A table whose SQL types are not known (only Pinot's type names). */
    public ResultTable(
        List<String> columnNames, List<String> columnDataTypes, List<List<Object>> rows) {
      this(columnNames, columnDataTypes, rows, List.of());
    }
  }
}
