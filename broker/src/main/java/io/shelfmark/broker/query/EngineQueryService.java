package io.shelfmark.broker.query;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.shelfmark.broker.auth.TableAccess;
import io.shelfmark.broker.explain.ExplainReport;
import io.shelfmark.broker.explain.ExplainText;
import io.shelfmark.broker.routing.RoutingTable;
import io.shelfmark.broker.routing.SnapshotRoutes;
import io.shelfmark.broker.routing.TableRoute;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.SnapshotSelector;
import io.shelfmark.exchange.error.QueryCancelledException;
import io.shelfmark.exchange.error.QueryException;
import io.shelfmark.exchange.error.QueryTimeoutException;
import io.shelfmark.exchange.fragment.EngineOption;
import io.shelfmark.exchange.profile.ProfileMode;
import io.shelfmark.exchange.result.ExecutionStatistics;
import io.shelfmark.exchange.result.FinalResult;
import io.shelfmark.exchange.result.PartialResult;
import io.shelfmark.exchange.result.ResultFinisher;
import io.shelfmark.exchange.result.ResultRendering;
import io.shelfmark.sql.PlannedStatement;
import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.SqlLimits;
import io.shelfmark.sql.SqlPlanner;
import io.shelfmark.sql.StatementOptions;
import io.shelfmark.sql.explain.ExplainStatement;
import io.shelfmark.sql.function.FunctionRegistry;
import io.shelfmark.sql.plan.OutputColumn;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.schema.TableSchemaProvider;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.WeakReference;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
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
 *
 * <p>Plans are kept by SQL text and database (dashboards send the same text again and again) while
 * the tables the planner sees stay the same ({@link RoutingTable#tablesVersion()}), and with each
 * plan the files its pruning kept on the last route it ran against: a repeated query on an
 * unchanged route neither parses nor prunes. Both are functions of their inputs alone (planning of
 * the SQL and the tables, pruning of the plan and the route), so a kept answer is the one
 * recomputing would give.
 */
public final class EngineQueryService implements QueryService {
  private static final Logger log = LoggerFactory.getLogger(EngineQueryService.class);

  /** Plans kept, by SQL text. */
  static final int MAX_CACHED_PLANS = 1024;

  /** Longer SQL is planned every time: generated giants are rarely repeated verbatim. */
  static final int MAX_CACHED_SQL_LENGTH = 16 * 1024;

  private final RoutingTable routing;
  private final FunctionRegistry functions = FunctionRegistry.standard();
  private final SqlPlanner planner;
  private final FilePruning pruning;
  private final QueryDispatcher dispatcher;
  private final Duration defaultTimeout;
  private final Clock clock;
  private final QueryListener listener;
  private final SqlLimits limits;
  private final QueryPolicy policy;
  private final SnapshotRoutes snapshots;
  // When present, every query records its files' profiles and a query at least this slow has them
  // turned into its EXPLAIN ANALYZE for the query log.
  private final Optional<Duration> profileSlowerThan;
  private final Cache<PlanKey, PlannedQuery> plans =
      Caffeine.newBuilder().maximumSize(MAX_CACHED_PLANS).build();

  public EngineQueryService(
      RoutingTable routing,
      FilePruning pruning,
      QueryDispatcher dispatcher,
      Duration defaultTimeout,
      Clock clock) {
    this(
        routing,
        pruning,
        dispatcher,
        defaultTimeout,
        clock,
        QueryListener.NONE,
        SqlLimits.defaults());
  }

  /**
   * @param listener told of every answered query (metrics, the query log), with its table once
   *     planning resolved one
   * @param limits the planner refuses queries larger than these allow
   */
  public EngineQueryService(
      RoutingTable routing,
      FilePruning pruning,
      QueryDispatcher dispatcher,
      Duration defaultTimeout,
      Clock clock,
      QueryListener listener,
      SqlLimits limits) {
    this(
        routing,
        pruning,
        dispatcher,
        defaultTimeout,
        clock,
        listener,
        limits,
        QueryPolicy.unbounded(clock));
  }

  /**
   * @param listener told of every answered query (metrics, the query log)
   * @param limits the planner refuses queries larger than these allow
   * @param policy the admission lanes and per-query limits
   */
  public EngineQueryService(
      RoutingTable routing,
      FilePruning pruning,
      QueryDispatcher dispatcher,
      Duration defaultTimeout,
      Clock clock,
      QueryListener listener,
      SqlLimits limits,
      QueryPolicy policy) {
    this(
        routing,
        pruning,
        dispatcher,
        defaultTimeout,
        clock,
        listener,
        limits,
        policy,
        SnapshotRoutes.servedOnly("this node was not given a way to read past snapshots"),
        Optional.empty());
  }

  /**
   * @param listener told of every answered query (metrics, the query log)
   * @param limits the planner refuses queries larger than these allow
   * @param policy the admission lanes and per-query limits
   * @param snapshots the routes of snapshots other than the served one, for queries that ask for
   *     one ({@code snapshotId}, {@code asOfTimestamp})
   * @param profileSlowerThan when present, every query runs with its servers recording its files'
   *     profiles (as EXPLAIN ANALYZE does), and the listener gets the EXPLAIN ANALYZE of a query at
   *     least this slow ({@code query.slow-profile}, {@code query.slow-threshold}); the report is
   *     built only for those
   */
  public EngineQueryService(
      RoutingTable routing,
      FilePruning pruning,
      QueryDispatcher dispatcher,
      Duration defaultTimeout,
      Clock clock,
      QueryListener listener,
      SqlLimits limits,
      QueryPolicy policy,
      SnapshotRoutes snapshots,
      Optional<Duration> profileSlowerThan) {
    this.snapshots = requireNonNull(snapshots, "snapshots is null");
    this.profileSlowerThan = requireNonNull(profileSlowerThan, "profileSlowerThan is null");
    this.listener = requireNonNull(listener, "listener is null");
    this.limits = requireNonNull(limits, "limits is null");
    this.policy = requireNonNull(policy, "policy is null");
    this.routing = requireNonNull(routing, "routing is null");
    this.planner = new SqlPlanner(routing, functions, limits);
    this.pruning = requireNonNull(pruning, "pruning is null");
    this.dispatcher = requireNonNull(dispatcher, "dispatcher is null");
    this.defaultTimeout = requireNonNull(defaultTimeout, "defaultTimeout is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  @Override
  public QueryResponse execute(QueryRequest request) {
    requireNonNull(request, "request is null");
    long started = System.nanoTime();
    QueryTarget target = new QueryTarget(Optional.empty());
    QueryResponse response = respond(request, target);
    long elapsed = System.nanoTime() - started;
    Optional<ExplainReport> slowProfile = Optional.empty();
    if (target.profile != null
        && profileSlowerThan.isPresent()
        && elapsed >= profileSlowerThan.get().toNanos()) {
      slowProfile = Optional.of(target.profile.apply(elapsed));
    }
    listener.answered(target.table, request, response, elapsed, slowProfile);
    return response;
  }

  /**
   * Streams a selection without ORDER BY (with or without OFFSET and LIMIT) into {@code sink} while
   * the servers read it, when the dispatcher can stream ({@link QueryDispatcher#streams()}): no row
   * is kept, so neither {@code query.max-rows} nor the heap bounds how many rows it selects; the
   * deadline and cancelling do. Every other query is answered as {@link #execute} answers it and
   * its rows handed over. An error after some rows left is in the response's errors.
   */
  @Override
  public QueryResponse stream(QueryRequest request, ResultSink sink) {
    requireNonNull(request, "request is null");
    requireNonNull(sink, "sink is null");
    long started = System.nanoTime();
    QueryTarget target = new QueryTarget(Optional.of(sink));
    QueryResponse response = respond(request, target);
    listener.answered(target.table, request, response, System.nanoTime() - started);
    if (target.streamed) {
      return response;
    }
    try {
      return QueryService.handOver(response, sink);
    } catch (QueryException e) {
      return QueryResponse.failed(codeOf(e), e.getMessage()); // the sink's timeout or cancel
    }
  }

  /**
   * The served table a query resolved to, once it has: metrics and the query log name it, never a
   * name a client made up (an unknown table stays {@link QueryListener#NO_TABLE}). With slow
   * queries' profiles on, how to make the query's EXPLAIN ANALYZE from its total time, once it is
   * known to be slow.
   */
  private final class QueryTarget {
    private String table = QueryListener.NO_TABLE;
    private java.util.function.LongFunction<ExplainReport> profile;
    // Where a streamed query's rows go; empty for execute.
    private final Optional<ResultSink> sink;
    // The rows went to the sink as they were read: the response holds none.
    private boolean streamed;

    QueryTarget(Optional<ResultSink> sink) {
      this.sink = sink;
    }

    /** Whether {@code plan}'s rows go to the sink as they are read: a selection in no order. */
    boolean streams(QueryPlan plan) {
      return sink.isPresent()
          && dispatcher.streams()
          && !plan.aggregated()
          && plan.orderBy().isEmpty();
    }
  }

  private QueryResponse respond(QueryRequest request, QueryTarget target) {
    Instant received = clock.instant();
    try {
      Optional<ExplainStatement> explain = ExplainStatement.parse(request.sql());
      if (explain.isPresent()) {
        return explain(request, explain.get(), received, target);
      }
      PlannedQuery planned = planReadable(request);
      return switch (planned.statement()) {
        case PlannedStatement.Constant constant -> constant(constant);
        case PlannedStatement.OverTable table ->
            target.streams(table.plan())
                ? streamAnswer(
                    request, planned, table.plan(), received.plus(timeout(table, request)), target)
                : answer(
                    request, planned, table.plan(), received.plus(timeout(table, request)), target);
      };
    } catch (QueryAdmission.RejectedQueryException e) {
      return QueryResponse.failed(QueryErrorCode.TOO_MANY_QUERIES, e.getMessage());
    } catch (SqlException e) {
      return QueryResponse.failed(codeOf(e), e.getMessage());
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

  /**
   * A selection's rows streamed into {@code sink} as the servers read them: planned, pruned and
   * admitted as {@link #answer} does, then run on this thread (the caller's, which the sink blocks
   * while its client reads: a heavy-lane thread parked on a slow client would hold one of few), the
   * admission slot held until the last row left.
   */
  private QueryResponse streamAnswer(
      QueryRequest request,
      PlannedQuery planned,
      QueryPlan plan,
      Instant deadline,
      QueryTarget target) {
    ResultSink sink = target.sink.orElseThrow();
    target.streamed = true;
    target.table = plan.table().name().toString();
    TableRoute route = routeAsked(plan, request, planned.statement());
    List<DataFileInfo> candidates = planned.candidates(plan, route, pruning);
    policy.checkInLists(plan);
    QueryLane lane = QueryCost.lane(plan, route, candidates, policy.cheapMaxRows());
    QueryResponse.ResultTable columns = columns(plan);
    QueryDispatcher.QueryText text = queryText(request, planned.statement());
    QueryDispatcher.Dispatched dispatched;
    try (QueryAdmission.Admitted admitted =
        policy.admission().admit(lane, deadline, request.cancelled())) {
      SelectionStream rows =
          new SelectionStream(plan, sink, () -> checkContinue(deadline, request.cancelled()));
      sink.start(columns, Optional.of(deadline));
      dispatched =
          dispatcher.stream(
              text,
              plan,
              route,
              candidates,
              deadline,
              request.cancelled(),
              lane,
              policy.limits(),
              rows);
    }
    return new QueryResponse(
        Optional.of(columns), List.of(), statistics(route, candidates.size(), dispatched));
  }

  /** The columns {@code plan} answers, without rows. */
  private static QueryResponse.ResultTable columns(QueryPlan plan) {
    List<String> names = new ArrayList<>();
    List<String> pinotTypes = new ArrayList<>();
    for (OutputColumn output : plan.outputs()) {
      names.add(output.name());
      pinotTypes.add(ResultRendering.typeName(output.type()));
    }
    return new QueryResponse.ResultTable(names, pinotTypes, List.of(), types(plan));
  }

  /**
   * The time the query may take. Options in the SQL text ({@code SET timeoutMs=...;}, {@code
   * OPTION(timeoutMs=...)}) win over the request's {@code queryOptions}, as in Pinot's broker
   * (options parsed from the statement are kept; the request's fill in the names it lacks); the
   * broker's default applies when neither sets one.
   */
  private Duration timeout(PlannedStatement statement, QueryRequest request) {
    return statement.options().timeout().or(request::timeout).orElse(defaultTimeout);
  }

  /** {@code SELECT 1}: answered from the plan, no table read. */
  private static QueryResponse constant(PlannedStatement.Constant constant) {
    List<String> names = new ArrayList<>();
    List<String> types = new ArrayList<>();
    List<SqlType> sqlTypes = new ArrayList<>();
    for (OutputColumn output : constant.query().outputs()) {
      names.add(output.name());
      types.add(ResultRendering.typeName(output.type()));
      sqlTypes.add(output.type());
    }
    List<List<Object>> rows = new ArrayList<>();
    for (List<Object> row : constant.rows()) {
      List<Object> rendered = new ArrayList<>(row.size());
      for (int c = 0; c < row.size(); c++) {
        rendered.add(ResultRendering.render(constant.query().outputs().get(c).type(), row.get(c)));
      }
      rows.add(rendered);
    }
    return new QueryResponse(
        Optional.of(new QueryResponse.ResultTable(names, types, rows, sqlTypes)),
        List.of(),
        QueryStatistics.NONE);
  }

  private QueryResponse answer(
      QueryRequest request,
      PlannedQuery planned,
      QueryPlan plan,
      Instant deadline,
      QueryTarget target) {
    target.table = plan.table().name().toString();
    TableRoute route = routeAsked(plan, request, planned.statement());
    List<DataFileInfo> candidates = planned.candidates(plan, route, pruning);
    policy.checkInLists(plan);
    QueryLane lane = QueryCost.lane(plan, route, candidates, policy.cheapMaxRows());
    ProfileMode mode = profileSlowerThan.isPresent() ? ProfileMode.ANALYZE : ProfileMode.OFF;
    QueryDispatcher.QueryText text = queryText(request, planned.statement());
    long[] phases = new long[2];
    // The slot is held through finishing: sorting and rendering a million groups is work too.
    Finished finished =
        runAdmitted(
            lane,
            deadline,
            request,
            stop -> {
              long executing = System.nanoTime();
              QueryDispatcher.Dispatched dispatched =
                  dispatcher.execute(
                      text, plan, route, candidates, deadline, stop, lane, policy.limits(), mode);
              long finishing = System.nanoTime();
              FinalResult done =
                  ResultFinisher.finish(
                      plan, dispatched.partial(), () -> checkContinue(deadline, stop));
              phases[0] = finishing - executing;
              phases[1] = System.nanoTime() - finishing;
              return new Finished(dispatched, done);
            });
    QueryDispatcher.Dispatched dispatched = finished.dispatched();
    if (mode == ProfileMode.ANALYZE) {
      // Kept as a function: the report (and the pruning's reasons) is made only for a slow query.
      target.profile =
          total -> {
            Map<String, Long> time = new LinkedHashMap<>();
            time.put("execute", phases[0] / 1_000);
            time.put("finish", phases[1] / 1_000);
            time.put("total", total / 1_000);
            return ExplainReport.of(
                true,
                false,
                plan.table().name().toString(),
                route.snapshotId(),
                lane.name(),
                pruning.explain(plan, route),
                dispatched.servers(),
                cacheOf(dispatched),
                time);
          };
    }
    FinalResult result = finished.result();
    PartialResult partial = dispatched.partial();
    QueryStatistics statistics = statistics(route, candidates.size(), dispatched);
    QueryResponse.ResultTable table =
        new QueryResponse.ResultTable(
            result.columnNames(), result.columnDataTypes(), result.rows(), types(plan));
    if (!dispatched.unreadFiles().isEmpty()) {
      return new QueryResponse(
          Optional.of(table),
          List.of(
              new QueryError(
                  QueryErrorCode.UNAVAILABLE,
                  unreadMessage(plan, dispatched.unreadFiles(), dispatched.unreadReason()))),
          statistics,
          true);
    }
    return new QueryResponse(Optional.of(table), List.of(), statistics);
  }

  /** What answering a query over {@code candidates} files of {@code route} cost. */
  private static QueryStatistics statistics(
      TableRoute route, int candidates, QueryDispatcher.Dispatched dispatched) {
    ExecutionStatistics stats = dispatched.partial().statistics();
    return new QueryStatistics(
        stats.docsScanned(),
        route.snapshot().recordCount(),
        candidates,
        (int) stats.filesQueried(),
        (int) stats.filesMatched(),
        route.snapshot().dataFiles().size() - candidates,
        dispatched.storageBytesRead(),
        dispatched.storageRequests(),
        dispatched.cacheHits(),
        dispatched.cacheMisses(),
        route.snapshotId(),
        (int) stats.filesAnsweredFromSegment(),
        (int) stats.filesAnsweredFromStarTree(),
        dispatched.storageRetries(),
        stats.parquetPagesFromStatistics(),
        stats.parquetChunksReadWhole());
  }

  /**
   * EXPLAIN and EXPLAIN ANALYZE: the query planned and pruned as it would be (the same plan cache,
   * pruning and admission), then sent to the servers with profiling on. EXPLAIN has them evaluate
   * the indexes and plan the pages without reading any; ANALYZE runs the query and finishes its
   * result, and the response's statistics are the run's. The answer is the report: as text in a
   * {@code PLAN} column, and as the {@code explain} object.
   */
  private QueryResponse explain(
      QueryRequest request, ExplainStatement explain, Instant received, QueryTarget target) {
    long started = System.nanoTime();
    QueryRequest inner =
        new QueryRequest(
            explain.query(),
            request.timeout(),
            request.cancelled(),
            request.database(),
            request.access(),
            request.allowPartialResults(),
            request.snapshot(),
            request.engineOptions());
    PlannedQuery planned = planReadable(inner);
    long plannedAt = System.nanoTime();
    if (!(planned.statement() instanceof PlannedStatement.OverTable over)) {
      return explained(
          List.of("EXPLAIN: a SELECT without FROM is answered from the plan, no table is read"),
          QueryStatistics.NONE,
          Optional.empty());
    }
    QueryPlan plan = over.plan();
    target.table = plan.table().name().toString();
    TableRoute route = routeAsked(plan, inner, over);
    PruningReport pruned = pruning.explain(plan, route);
    List<DataFileInfo> candidates = pruned.candidates();
    long prunedAt = System.nanoTime();
    policy.checkInLists(plan);
    QueryLane lane = QueryCost.lane(plan, route, candidates, policy.cheapMaxRows());
    Instant deadline = received.plus(timeout(over, request));
    ProfileMode mode = explain.analyze() ? ProfileMode.ANALYZE : ProfileMode.PLAN;
    QueryDispatcher.QueryText text = queryText(inner, over);
    long[] phases = new long[2];
    QueryDispatcher.Dispatched dispatched =
        runAdmitted(
            lane,
            deadline,
            request,
            stop -> {
              long executing = System.nanoTime();
              QueryDispatcher.Dispatched done =
                  dispatcher.execute(
                      text, plan, route, candidates, deadline, stop, lane, policy.limits(), mode);
              long finishing = System.nanoTime();
              if (explain.analyze()) {
                // Finished as a query is (HAVING, outputs, ORDER BY, LIMIT), and the rows dropped:
                // the time and failures are the query's.
                ResultFinisher.finish(plan, done.partial(), () -> checkContinue(deadline, stop));
              }
              phases[0] = finishing - executing;
              phases[1] = System.nanoTime() - finishing;
              return done;
            });
    Map<String, Long> time = new LinkedHashMap<>();
    time.put("plan", (plannedAt - started) / 1_000);
    time.put("prune", (prunedAt - plannedAt) / 1_000);
    time.put("execute", phases[0] / 1_000);
    time.put("finish", phases[1] / 1_000);
    time.put("total", (System.nanoTime() - started) / 1_000);
    ExplainReport report =
        ExplainReport.of(
            explain.analyze(),
            explain.verbose(),
            plan.table().name().toString(),
            route.snapshotId(),
            lane.name(),
            pruned,
            dispatched.servers(),
            cacheOf(dispatched),
            time);
    QueryStatistics statistics =
        explain.analyze()
            ? statistics(route, candidates.size(), dispatched)
            : new QueryStatistics(
                0,
                route.snapshot().recordCount(),
                candidates.size(),
                0,
                0,
                route.snapshot().dataFiles().size() - candidates.size(),
                0,
                0,
                0,
                0,
                route.snapshotId(),
                0);
    return explained(ExplainText.lines(report), statistics, Optional.of(report));
  }

  /** Where the query's reads were served from; the tiers are the servers' (ExplainReport.of). */
  private static ExplainReport.Cache cacheOf(QueryDispatcher.Dispatched dispatched) {
    long kept = dispatched.partial().statistics().parquetPagesKept();
    return new ExplainReport.Cache(
        kept,
        Math.max(0, dispatched.cacheHits() - kept),
        -1,
        -1,
        dispatched.storageRequests(),
        dispatched.storageBytesRead());
  }

  /** The response of an EXPLAIN: the lines in a {@code PLAN} column, and the report. */
  private static QueryResponse explained(
      List<String> lines, QueryStatistics statistics, Optional<ExplainReport> report) {
    List<List<Object>> rows = new ArrayList<>(lines.size());
    for (String line : lines) {
      rows.add(List.of(line));
    }
    return new QueryResponse(
        Optional.of(
            new QueryResponse.ResultTable(
                List.of(PLAN_COLUMN), List.of("STRING"), rows, List.of(PrimitiveType.STRING))),
        List.of(),
        statistics,
        false,
        report);
  }

  /** The one column of an EXPLAIN's result table. */
  public static final String PLAN_COLUMN = "PLAN";

  /**
   * What the servers need of the request besides the plan. The options are the statement's and, for
   * the engine's switches the statement does not set, the request's ({@link
   * QueryRequest#engineOptions()}): the statement wins, as for {@code timeoutMs}.
   *
   * @throws SqlException naming the option and where it is written when the statement gives one of
   *     the engine's switches a value it does not take
   */
  private static QueryDispatcher.QueryText queryText(
      QueryRequest request, PlannedStatement statement) {
    Map<String, String> options = new LinkedHashMap<>(request.engineOptions());
    statement
        .options()
        .values()
        .forEach(
            (name, option) -> {
              EngineOption.named(name).ifPresent(engine -> checkOption(engine, option));
              options.put(name, option.value());
            });
    boolean allowPartial =
        request.allowPartialResults()
            || statement
                .options()
                .value(QueryDispatcher.QueryText.ALLOW_PARTIAL_RESULTS)
                .map(value -> value.trim().equalsIgnoreCase("true"))
                .orElse(false);
    return new QueryDispatcher.QueryText(request.sql(), request.database(), options, allowPartial);
  }

  /** Refuses a value the engine's switch does not take, pointing at where the text sets it. */
  private static void checkOption(EngineOption engine, StatementOptions.Option option) {
    try {
      engine.parse(option.value());
    } catch (IllegalArgumentException e) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          option.position(),
          "use query option " + engine.optionName() + "=" + option.value(),
          "it must be " + engine.expected(),
          "for example OPTION(" + engine.optionName() + "=" + engine.accepted().getLast() + ")");
    }
  }

  /** The error of a partial result: the files it lacks, the first few by name. */
  static String unreadMessage(QueryPlan plan, List<String> files, String reason) {
    int shown = Math.min(files.size(), 3);
    return "Cannot read %d data file%s of %s: no replica answered (%s%s; %s); the result lacks their rows"
        .formatted(
            files.size(),
            files.size() == 1 ? "" : "s",
            plan.table().name(),
            String.join(", ", files.subList(0, shown)),
            files.size() > shown ? " and " + (files.size() - shown) + " more" : "",
            reason);
  }

  private static List<SqlType> types(QueryPlan plan) {
    List<SqlType> types = new ArrayList<>(plan.outputs().size());
    for (OutputColumn output : plan.outputs()) {
      types.add(output.type());
    }
    return types;
  }

  /**
   * Plans the request as {@link #execute} does (the same plan cache, the same view of the caller's
   * tables) and answers its columns without rows; nothing is read and no admission slot taken.
   */
  @Override
  public QueryResponse describe(QueryRequest request) {
    requireNonNull(request, "request is null");
    try {
      if (ExplainStatement.parse(request.sql()).isPresent()) {
        return new QueryResponse(
            Optional.of(
                new QueryResponse.ResultTable(
                    List.of(PLAN_COLUMN),
                    List.of("STRING"),
                    List.of(),
                    List.of(PrimitiveType.STRING))),
            List.of(),
            QueryStatistics.NONE);
      }
      PlannedQuery planned = planReadable(request);
      return switch (planned.statement()) {
        case PlannedStatement.Constant constant -> {
          QueryResponse.ResultTable table = constant(constant).result().orElseThrow();
          yield new QueryResponse(
              Optional.of(
                  new QueryResponse.ResultTable(
                      table.columnNames(),
                      table.columnDataTypes(),
                      List.of(),
                      table.columnTypes())),
              List.of(),
              QueryStatistics.NONE);
        }
        case PlannedStatement.OverTable table ->
            new QueryResponse(Optional.of(columns(table.plan())), List.of(), QueryStatistics.NONE);
      };
    } catch (SqlException e) {
      return QueryResponse.failed(codeOf(e), e.getMessage());
    } catch (RuntimeException e) {
      log.error("Cannot describe query: {}", request.sql(), e);
      return QueryResponse.failed(
          QueryErrorCode.INTERNAL, "Cannot describe query: internal error: " + e);
    }
  }

  private record Finished(QueryDispatcher.Dispatched dispatched, FinalResult result) {}

  /**
   * Runs {@code work} in a running slot of {@code lane}, and answers by the deadline whatever the
   * work does. {@code work} gets the flag it must stop on: its client cancelled, or its deadline
   * passed.
   *
   * <p>A cheap query runs on this thread. A heavy one runs on the policy's heavy threads while this
   * thread waits for it at most until the deadline: its loops check the deadline only between
   * batches and groups, and on a busy machine a time-sliced heavy thread reached the next check 0.7
   * s late, so a 3 s query answered TIMEOUT at 3.7 s. Past the deadline this thread answers TIMEOUT
   * and raises the flag; the work stops at its next check and only then gives its slot back, so
   * abandoned work still counts against {@code query.heavy.max-running}.
   */
  private <T> T runAdmitted(
      QueryLane lane, Instant deadline, QueryRequest request, Function<BooleanSupplier, T> work) {
    QueryAdmission.Admitted admitted =
        policy.admission().admit(lane, deadline, request.cancelled());
    if (lane != QueryLane.HEAVY) {
      try (admitted) {
        return work.apply(request.cancelled());
      }
    }
    AtomicBoolean abandoned = new AtomicBoolean();
    BooleanSupplier stop = () -> abandoned.get() || request.cancelled().getAsBoolean();
    CompletableFuture<T> running;
    try {
      running = CompletableFuture.supplyAsync(() -> work.apply(stop), policy.heavyThreads());
    } catch (RuntimeException e) {
      admitted.close();
      throw e;
    }
    running.whenComplete((result, failure) -> admitted.close());
    try {
      long remaining = Duration.between(clock.instant(), deadline).toNanos();
      return running.get(Math.max(0, remaining), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      abandoned.set(true);
      throw new QueryTimeoutException(
          "Cannot finish the query: its deadline %s passed while it ran (raise the timeout or narrow the query)"
              .formatted(deadline));
    } catch (InterruptedException e) {
      abandoned.set(true);
      Thread.currentThread().interrupt();
      throw new QueryCancelledException(
          "Cannot finish the query: the thread waiting for it was interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** Throws when the query must stop: its client cancelled, or its deadline passed. */
  private void checkContinue(Instant deadline, BooleanSupplier stop) {
    if (clock.instant().isAfter(deadline)) {
      throw new QueryTimeoutException(
          "Cannot finish the query: its deadline %s passed while its result was finished (raise the timeout or narrow the query)"
              .formatted(deadline));
    }
    if (stop.getAsBoolean()) {
      throw new QueryCancelledException("Cannot finish the query: it was cancelled");
    }
  }

  /**
   * Plans {@code sql} and prunes its table's current files as a query does, and executes nothing;
   * neither the plan nor its files are kept. A fresh node's warm-up calls it many times, so that
   * planning and pruning are compiled before the first user query: on a JVM that had planned only a
   * few queries, a new SQL text took about 6 ms to plan and 2.6 ms to prune 150 files, against 0.2
   * ms to plan once the planner is compiled.
   *
   * @return how many of the table's data files pruning kept
   * @throws SqlException if the SQL does not plan, or its table is not served
   */
  public int prepare(String sql) {
    requireNonNull(sql, "sql is null");
    QueryPlan plan = planner.plan(sql);
    return pruning.candidates(plan, route(plan, "it is not served")).size();
  }

  /**
   * The plan of the request's SQL when its table is one the caller may read. Otherwise, and for
   * every planning error of a caller who may not read all tables, the error is the one planning
   * over the readable tables alone gives: a table the caller may not read answers exactly as a
   * table that does not exist, and messages list only readable tables and their columns. The shared
   * plan cache serves everyone, since a plan does not depend on who asks.
   */
  private PlannedQuery planReadable(QueryRequest request) {
    TableAccess access = request.access();
    PlannedQuery planned;
    try {
      planned = plan(request.sql(), request.database());
    } catch (SqlException e) {
      // Errors found after the table is resolved (unknown or mistyped columns) tell that the table
      // exists and what it holds; syntax and size errors come before any table and are answered
      // as they are.
      if (access.readsEverything()
          || e.kind() == SqlErrorKind.SYNTAX
          || e.kind() == SqlErrorKind.LIMIT) {
        throw e;
      }
      throw asSeenBy(access, request).orElse(e);
    }
    if (planned.statement() instanceof PlannedStatement.OverTable over) {
      String table = over.plan().table().name().toString();
      if (!access.canRead(table)) {
        throw asSeenBy(access, request)
            .orElseGet(
                () ->
                    new SqlException(
                        SqlErrorKind.UNRESOLVED, null, "Cannot resolve table '" + table + "'"));
      }
    }
    return planned;
  }

  /** The error planning the request over only the tables {@code access} may read gives. */
  private Optional<SqlException> asSeenBy(TableAccess access, QueryRequest request) {
    TableSchemaProvider readable = new ReadableTables(routing, access);
    TableSchemaProvider seen =
        request
            .database()
            .map(namespace -> TableSchemaProvider.inNamespace(readable, namespace))
            .orElse(readable);
    try {
      new SqlPlanner(seen, functions, limits).planStatement(request.sql());
      return Optional.empty(); // fewer tables cannot plan what all tables could not
    } catch (SqlException e) {
      return Optional.of(e);
    }
  }

  /**
   * The route a query runs on: the served one, or the snapshot it asks for. Options in the SQL text
   * ({@code SET snapshotId=...;}) win over the request's, as {@code timeoutMs} does.
   */
  private TableRoute routeAsked(QueryPlan plan, QueryRequest request, PlannedStatement statement) {
    TableRoute current = route(plan, "it stopped being served while the query was planned");
    Optional<SnapshotSelector> asked;
    Optional<String> id = statement.options().value(SnapshotSelector.SNAPSHOT_ID);
    Optional<String> time = statement.options().value(SnapshotSelector.AS_OF_TIMESTAMP);
    if (id.isPresent() || time.isPresent()) {
      try {
        asked = SnapshotSelector.of(id, time);
      } catch (IllegalArgumentException e) {
        throw new SqlException(SqlErrorKind.INVALID, null, e.getMessage());
      }
    } else {
      asked = request.snapshot();
    }
    return asked.isEmpty() ? current : snapshots.route(current, asked.get());
  }

  /** The current route of the plan's table; {@code gone} says why when there is none. */
  private TableRoute route(QueryPlan plan, String gone) {
    return routing
        .route(plan.table().name())
        .orElseThrow(
            () ->
                new SqlException(
                    SqlErrorKind.UNRESOLVED,
                    null,
                    "Cannot query table " + plan.table().name() + ": " + gone));
  }

  /**
   * The plan of {@code sql}: kept from an earlier query while the planner's tables are the same.
   */
  private PlannedQuery plan(String sql, Optional<String> database) {
    // Read before planning: a table replaced while planning then invalidates this plan at once.
    long tablesVersion = routing.tablesVersion();
    PlanKey key = new PlanKey(database.orElse(""), sql);
    PlannedQuery cached = plans.getIfPresent(key);
    if (cached != null && cached.tablesVersion() == tablesVersion) {
      return cached;
    }
    // A database changes what unqualified names mean, so its plans are kept apart (by the key).
    SqlPlanner inDatabase =
        database
            .map(
                namespace ->
                    new SqlPlanner(
                        TableSchemaProvider.inNamespace(routing, namespace), functions, limits))
            .orElse(planner);
    PlannedQuery planned = new PlannedQuery(inDatabase.planStatement(sql), tablesVersion);
    if (sql.length() <= MAX_CACHED_SQL_LENGTH) {
      plans.put(key, planned);
    }
    return planned;
  }

  /** What a plan depends on besides the tables: the SQL text and the request's database. */
  private record PlanKey(String database, String sql) {}

  /** How many plans are kept (for tests). */
  long cachedPlans() {
    plans.cleanUp();
    return plans.estimatedSize();
  }

  /**
   * A plan and the files pruning kept on the last route it ran against. The route is held weakly
   * and the files as positions in its snapshot's file list, so a kept plan never keeps an old
   * snapshot alive.
   */
  private static final class PlannedQuery {
    private final PlannedStatement statement;
    private final long tablesVersion;
    private volatile Pruned pruned;

    PlannedQuery(PlannedStatement statement, long tablesVersion) {
      this.statement = statement;
      this.tablesVersion = tablesVersion;
    }

    PlannedStatement statement() {
      return statement;
    }

    long tablesVersion() {
      return tablesVersion;
    }

    List<DataFileInfo> candidates(QueryPlan plan, TableRoute route, FilePruning pruning) {
      Pruned last = pruned;
      List<DataFileInfo> files = route.snapshot().dataFiles();
      if (last != null && last.route().get() == route) {
        List<DataFileInfo> kept = new ArrayList<>(last.kept().cardinality());
        for (int i = last.kept().nextSetBit(0); i >= 0; i = last.kept().nextSetBit(i + 1)) {
          kept.add(files.get(i));
        }
        return kept;
      }
      List<DataFileInfo> candidates = pruning.candidates(plan, route);
      BitSet kept = positions(files, candidates);
      if (kept != null) {
        pruned = new Pruned(new WeakReference<>(route), kept);
      }
      return candidates;
    }

    /** Where each candidate sits in {@code files}, or null when one is not found in order. */
    private static BitSet positions(List<DataFileInfo> files, List<DataFileInfo> candidates) {
      BitSet kept = new BitSet(files.size());
      int next = 0;
      for (DataFileInfo candidate : candidates) {
        while (next < files.size() && files.get(next) != candidate) {
          next++;
        }
        if (next == files.size()) {
          return null;
        }
        kept.set(next++);
      }
      return kept;
    }
  }

  private record Pruned(WeakReference<TableRoute> route, BitSet kept) {}

  /**
   * Pinot tells an unknown table (190) and an unknown column (710) apart from other SQL errors; the
   * planner reports all three as {@link SqlErrorKind#UNRESOLVED}, with messages that start "Cannot
   * resolve table", "Cannot resolve column" (see Binder, ColumnResolver) or, from this class,
   * "Cannot query table".
   */
  static QueryErrorCode codeOf(SqlException e) {
    return switch (e.kind()) {
      case UNSUPPORTED -> QueryErrorCode.UNSUPPORTED;
      case INVALID -> QueryErrorCode.QUERY_VALIDATION;
      // Pinot refuses an over-large query while parsing it (150); the message names the limit's
      // key.
      case SYNTAX, LIMIT -> QueryErrorCode.SQL_PARSING;
      case UNRESOLVED -> {
        String message = e.getMessage();
        if (message.startsWith("Cannot resolve table")
            || message.startsWith("Cannot query table")) {
          yield QueryErrorCode.UNKNOWN_TABLE;
        }
        yield message.startsWith("Cannot resolve column")
            ? QueryErrorCode.UNKNOWN_COLUMN
            : QueryErrorCode.SQL_PARSING;
      }
    };
  }

  private static QueryErrorCode codeOf(QueryException e) {
    return switch (e.code()) {
      case USER -> QueryErrorCode.QUERY_EXECUTION;
      case UNSUPPORTED -> QueryErrorCode.UNSUPPORTED;
      case TIMEOUT -> QueryErrorCode.TIMEOUT;
      case CANCELLED -> QueryErrorCode.CANCELLED;
      case RESOURCE_EXHAUSTED -> QueryErrorCode.RESOURCE_EXHAUSTED;
      case UNAVAILABLE -> QueryErrorCode.UNAVAILABLE;
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
