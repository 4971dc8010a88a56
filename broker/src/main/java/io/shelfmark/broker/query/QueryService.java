package io.shelfmark.broker.query;

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
}
