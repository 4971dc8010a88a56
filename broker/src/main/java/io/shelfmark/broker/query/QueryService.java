package io.shelfmark.broker.query;

import java.util.List;
import java.util.Optional;

/**
 * Answers SQL. The broker's HTTP endpoint hands every request to one instance.
 *
 * <p>Contract: never throws for a query's own faults; a query that cannot be answered correctly
 * comes back as a {@link QueryResponse} with errors, never as a wrong or partial result.
 * Implementations are thread safe.
 */
@FunctionalInterface
public interface QueryService {
  QueryResponse execute(QueryRequest request);

  /**
   * The columns {@link #execute} would answer {@code request} with, as a result without rows, or
   * the errors planning gives; nothing is read. Typed clients (Arrow Flight SQL) ask for the schema
   * before they ask for the rows. The default executes the query; engines override it to plan only.
   */
  default QueryResponse describe(QueryRequest request) {
    QueryResponse answered = execute(request);
    return answered
        .result()
        .map(
            table ->
                new QueryResponse(
                    Optional.of(
                        new QueryResponse.ResultTable(
                            table.columnNames(),
                            table.columnDataTypes(),
                            List.of(),
                            table.columnTypes())),
                    List.of(),
                    answered.statistics()))
        .orElse(answered);
  }

  /**
   * Answers {@code request} into {@code sink}: the columns, then the rows as they come. The
   * returned response has the statistics and errors and no rows. An error after rows went out (a
   * failing file, a passed deadline) is in the response's errors: the caller must report it, never
   * end the stream as if it were whole. The default executes the query and hands its finished rows
   * over; engines override it to stream selections as they are read.
   */
  default QueryResponse stream(QueryRequest request, ResultSink sink) {
    return handOver(execute(request), sink);
  }

  /** {@code answered}'s rows given to {@code sink}; the response returned has no rows. */
  static QueryResponse handOver(QueryResponse answered, ResultSink sink) {
    if (!answered.errors().isEmpty() || answered.result().isEmpty()) {
      return answered;
    }
    QueryResponse.ResultTable table = answered.result().get();
    sink.start(
        new QueryResponse.ResultTable(
            table.columnNames(), table.columnDataTypes(), List.of(), table.columnTypes()),
        Optional.empty());
    sink.rows(table.rows());
    return new QueryResponse(
        Optional.of(
            new QueryResponse.ResultTable(
                table.columnNames(), table.columnDataTypes(), List.of(), table.columnTypes())),
        List.of(),
        answered.statistics());
  }
}
