package io.shelfmark.broker.query;

/**
 * The query service of a build without the query engine: every query is refused with an UNSUPPORTED
 * error that says so. It exists so that the HTTP API, the quickstart and clients can be exercised
 * end to end before the engine lands, without ever returning a made-up answer.
 */
public final class RefusingQueryService implements QueryService {
  public static final String MESSAGE =
      "Cannot execute query: this Shelfmark build has no query engine yet (it serves /health and"
          + " /tables; SQL execution arrives with the query-engine issue, see docs/status.md)";

  @Override
  public QueryResponse execute(QueryRequest request) {
    return QueryResponse.failed(QueryErrorCode.UNSUPPORTED, MESSAGE);
  }
}
