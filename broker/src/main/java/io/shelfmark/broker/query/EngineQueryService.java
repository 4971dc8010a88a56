package io.shelfmark.broker.query;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.routing.RoutingTable;
import io.shelfmark.broker.routing.TableRoute;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.server.exec.QueryException;
import io.shelfmark.server.result.ExecutionStatistics;
import io.shelfmark.server.result.FinalResult;
import io.shelfmark.server.result.PartialResult;
import io.shelfmark.server.result.ResultFinisher;
import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.SqlPlanner;
import io.shelfmark.sql.plan.QueryPlan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's query path: plan the SQL against the routing table, take the table's current route
 * (one snapshot for the whole query), prune data files on metadata, dispatch the rest to the
 * servers, finish their merged partial result (HAVING, outputs, ORDER BY, OFFSET, LIMIT) and report
 * what it cost.
 *
 * <p>Never throws for a query's own faults: every failure becomes an error in the response with a
 * code saying what kind it is, and a query that cannot be answered correctly is refused, never
 * answered partially. Thread safe.
 */
public final class EngineQueryService implements QueryService {
  private static final Logger log = LoggerFactory.getLogger(EngineQueryService.class);

  private final RoutingTable routing;
  private final SqlPlanner planner;
  private final FilePruning pruning;
  private final QueryDispatcher dispatcher;
  private final Duration defaultTimeout;
  private final Clock clock;

  public EngineQueryService(
      RoutingTable routing,
      FilePruning pruning,
      QueryDispatcher dispatcher,
      Duration defaultTimeout,
      Clock clock) {
    this.routing = requireNonNull(routing, "routing is null");
    this.planner = new SqlPlanner(routing);
    this.pruning = requireNonNull(pruning, "pruning is null");
    this.dispatcher = requireNonNull(dispatcher, "dispatcher is null");
    this.defaultTimeout = requireNonNull(defaultTimeout, "defaultTimeout is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  @Override
  public QueryResponse execute(QueryRequest request) {
    requireNonNull(request, "request is null");
    Instant deadline = clock.instant().plus(request.timeout().orElse(defaultTimeout));
    try {
      return answer(request, deadline);
    } catch (SqlException e) {
      return QueryResponse.failed(
          e.kind() == SqlErrorKind.UNSUPPORTED
              ? QueryErrorCode.UNSUPPORTED
              : QueryErrorCode.SQL_PARSING,
          e.getMessage());
    } catch (QueryException e) {
      return QueryResponse.failed(codeOf(e), e.getMessage());
    } catch (UncheckedIOException e) {
      return QueryResponse.failed(ioCode(e.getCause()), e.getMessage());
    } catch (RuntimeException e) {
      Optional<QueryErrorCode> known = knownFailure(e);
      if (known.isPresent()) {
        return QueryResponse.failed(known.get(), e.getMessage());
      }
      log.error("Cannot execute query: {}", request.sql(), e);
      return QueryResponse.failed(
          QueryErrorCode.INTERNAL, "Cannot execute query: internal error: " + e);
    }
  }

  private QueryResponse answer(QueryRequest request, Instant deadline) {
    QueryPlan plan = planner.plan(request.sql());
    TableRoute route =
        routing
            .route(plan.table().name())
            .orElseThrow(
                () ->
                    new SqlException(
                        SqlErrorKind.UNRESOLVED,
                        null,
                        "Cannot query table "
                            + plan.table().name()
                            + ": it stopped being served while the query was planned"));
    List<DataFileInfo> files = route.snapshot().dataFiles();
    List<DataFileInfo> candidates = pruning.candidates(plan, route);
    QueryDispatcher.Dispatched dispatched =
        dispatcher.execute(plan, route, candidates, deadline, request.cancelled());
    PartialResult partial = dispatched.partial();
    FinalResult result = ResultFinisher.finish(plan, partial);
    ExecutionStatistics stats = partial.statistics();
    QueryStatistics statistics =
        new QueryStatistics(
            stats.docsScanned(),
            route.snapshot().recordCount(),
            candidates.size(),
            (int) stats.filesQueried(),
            (int) stats.filesMatched(),
            files.size() - candidates.size(),
            dispatched.storageBytesRead(),
            dispatched.storageRequests(),
            dispatched.cacheHits(),
            dispatched.cacheMisses(),
            route.snapshotId());
    return new QueryResponse(
        Optional.of(
            new QueryResponse.ResultTable(
                result.columnNames(), result.columnDataTypes(), result.rows())),
        List.of(),
        statistics);
  }

  private static QueryErrorCode codeOf(QueryException e) {
    return switch (e.code()) {
      case USER -> QueryErrorCode.QUERY_EXECUTION;
      case UNSUPPORTED -> QueryErrorCode.UNSUPPORTED;
      case TIMEOUT, CANCELLED -> QueryErrorCode.TIMEOUT;
      case INTERNAL -> knownFailure(e.getCause()).orElse(QueryErrorCode.INTERNAL);
    };
  }

  private static QueryErrorCode ioCode(Throwable cause) {
    return knownFailure(cause).orElse(QueryErrorCode.STORAGE);
  }

  /** Storage failures and corrupt files anywhere in the cause chain, by their class names. */
  private static Optional<QueryErrorCode> knownFailure(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      String name = t.getClass().getSimpleName();
      if (name.startsWith("Corrupt")) {
        return Optional.of(QueryErrorCode.CORRUPT);
      }
      if (name.startsWith("Unsupported")) {
        return Optional.of(QueryErrorCode.UNSUPPORTED);
      }
      if (name.equals("StorageException")
          || name.equals("ObjectNotFoundException")
          || t instanceof IOException) {
        return Optional.of(QueryErrorCode.STORAGE);
      }
    }
    return Optional.empty();
  }
}
