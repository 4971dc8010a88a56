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
}
