package io.shelfmark.broker.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.broker.routing.RoutingTable;
import io.shelfmark.broker.routing.TableRoute;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.FilePartition;
import io.shelfmark.catalog.snapshot.SnapshotSelector;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.exchange.error.QueryExecutionException;
import io.shelfmark.exchange.error.QueryInternalException;
import io.shelfmark.exchange.error.QueryTimeoutException;
import io.shelfmark.exchange.error.UnsupportedQueryException;
import io.shelfmark.exchange.result.ExecutionStatistics;
import io.shelfmark.exchange.result.PartialResult;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.schema.IcebergSchemas;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.storage.spi.StorageException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The broker's query path around the dispatch: planning errors, the route's snapshot, the deadline
 * handed to the servers, and how each kind of server failure is reported. The servers are the real
 * executor over a snapshot without data files, or dispatchers that fail as servers do.
 */
class TestEngineQueryService {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "org_id", Types.LongType.get()),
          Types.NestedField.optional(2, "metric", Types.StringType.get()));
  private static final Instant NOW = Instant.parse("2026-11-22T00:00:00Z");

  private final RoutingTable routing = new RoutingTable();

  TestEngineQueryService() {
    routing.publish(
        new TableRoute(
            IcebergSchemas.toBoundTable(TableName.parse("obs.metrics"), SCHEMA),
            SCHEMA,
            Map.of(0, PartitionSpec.unpartitioned()),
            new TableSnapshot("obs.metrics", OptionalLong.of(77), List.of(), List.of()),
            Map.of()));
  }

  private EngineQueryService service(QueryDispatcher dispatcher) {
    return new EngineQueryService(
        routing,
        FilePruning.NONE,
        dispatcher,
        Duration.ofSeconds(10),
        Clock.fixed(NOW, java.time.ZoneOffset.UTC));
  }

  private static final QueryDispatcher NEVER =
      (plan, route, files, deadline, cancelled) -> {
        throw new AssertionError("a refused query must not reach the servers");
      };

  private static QueryDispatcher failing(RuntimeException failure) {
    return (plan, route, files, deadline, cancelled) -> {
      throw failure;
    };
  }

  private static AtomicReference<Instant> deadlineOf(String sql, Optional<Duration> timeout) {
    AtomicReference<Instant> deadline = new AtomicReference<>();
    QueryDispatcher recording =
        (plan, route, files, until, cancelled) -> {
          deadline.set(until);
          throw new QueryTimeoutException("Cannot finish: recorded the deadline");
        };
    new TestEngineQueryService().service(recording).execute(new QueryRequest(sql, timeout));
    return deadline;
  }

  @Test
  void optionsInTheSqlTextWinOverTheRequestsAndTheDefault() {
    String count = "SELECT COUNT(*) FROM obs.metrics";
    assertThat(deadlineOf(count, Optional.empty()).get()).isEqualTo(NOW.plusSeconds(10));
    assertThat(deadlineOf(count, Optional.of(Duration.ofMillis(250))).get())
        .isEqualTo(NOW.plusMillis(250));
    assertThat(
            deadlineOf("SET timeoutMs=2000; " + count, Optional.of(Duration.ofMillis(250))).get())
        .isEqualTo(NOW.plusMillis(2000));
    assertThat(deadlineOf(count + " OPTION(timeoutMs=5000)", Optional.empty()).get())
        .isEqualTo(NOW.plusMillis(5000));
    assertThat(deadlineOf("SET someOption=x;\n" + count, Optional.empty()).get())
        .isEqualTo(NOW.plusSeconds(10));
  }

  @Test
  void selectWithoutFromIsAnsweredWithoutTheServers() {
    QueryResponse ping = service(NEVER).execute(new QueryRequest("SELECT 1"));
    assertThat(ping.errors()).isEmpty();
    assertThat(ping.result().orElseThrow().columnNames()).containsExactly("1");
    assertThat(ping.result().orElseThrow().columnDataTypes()).containsExactly("INT");
    assertThat(ping.result().orElseThrow().rows()).containsExactly(List.of(1L));

    QueryResponse row =
        service(NEVER)
            .execute(new QueryRequest("SET timeoutMs=10; SELECT 1 AS x, 'a', DATE '2026-01-02'"));
    assertThat(row.result().orElseThrow().columnDataTypes())
        .containsExactly("INT", "STRING", "STRING");
    assertThat(row.result().orElseThrow().rows()).containsExactly(List.of(1L, "a", "2026-01-02"));

    QueryResponse columnsOnly = service(NEVER).execute(new QueryRequest("SELECT 1 AS x LIMIT 0"));
    assertThat(columnsOnly.result().orElseThrow().columnNames()).containsExactly("x");
    assertThat(columnsOnly.result().orElseThrow().rows()).isEmpty();
  }

  @Test
  void aNodeWithoutPastSnapshotsAnswersTheServedOneAndRefusesOthers() {
    QueryDispatcher real =
        (plan, route, files, until, cancelled) ->
            new QueryDispatcher.Dispatched(noFiles(plan), 0, 0, 0, 0);
    String count = "SELECT COUNT(*) FROM obs.metrics";
    QueryResponse served =
        service(real)
            .execute(
                new QueryRequest(count).withSnapshot(Optional.of(new SnapshotSelector.Id(77))));
    assertThat(served.errors()).isEmpty();
    assertThat(served.statistics().snapshotId()).isEqualTo(77);

    QueryResponse past =
        service(NEVER)
            .execute(new QueryRequest(count).withSnapshot(Optional.of(new SnapshotSelector.Id(5))));
    assertThat(past.errors()).hasSize(1);
    assertThat(past.errors().getFirst().code()).isEqualTo(QueryErrorCode.UNSUPPORTED);
    assertThat(past.errors().getFirst().message())
        .startsWith("Cannot query obs.metrics snapshot 5: this node was not given a way")
        .endsWith(
            "(this node answers the served snapshot 77; leave out snapshotId and asOfTimestamp)");
    QueryResponse asOf =
        service(NEVER)
            .execute(
                new QueryRequest(count).withSnapshot(Optional.of(new SnapshotSelector.AsOf(NOW))));
    assertThat(asOf.errors().getFirst().message())
        .startsWith("Cannot query obs.metrics as of 2026-11-22T00:00:00Z:");

    QueryResponse malformed =
        service(NEVER).execute(new QueryRequest("SET snapshotId=abc; " + count));
    assertThat(malformed.errors().getFirst().code()).isEqualTo(QueryErrorCode.QUERY_VALIDATION);
    assertThat(malformed.errors().getFirst().message())
        .startsWith("Cannot use snapshotId=abc: it must be an Iceberg snapshot id");
  }

  @Test
  void aPastSnapshotsRouteIsWhatTheServersGetAndTheResponseNames() {
    TableRoute current = routing.route(TableName.parse("obs.metrics")).orElseThrow();
    TableRoute past =
        new TableRoute(
            current.table(),
            SCHEMA,
            current.specs(),
            new TableSnapshot("obs.metrics", OptionalLong.of(5), List.of(), List.of()),
            Map.of());
    List<Long> dispatched = new ArrayList<>();
    QueryDispatcher real =
        (plan, route, files, until, cancelled) -> {
          dispatched.add(route.snapshotId());
          return new QueryDispatcher.Dispatched(noFiles(plan), 0, 0, 0, 0);
        };
    List<SnapshotSelector> asked = new ArrayList<>();
    EngineQueryService service =
        new EngineQueryService(
            routing,
            FilePruning.NONE,
            real,
            Duration.ofSeconds(10),
            Clock.fixed(NOW, ZoneOffset.UTC),
            QueryListener.NONE,
            io.shelfmark.sql.SqlLimits.defaults(),
            QueryPolicy.unbounded(Clock.fixed(NOW, ZoneOffset.UTC)),
            (route, selector) -> {
              asked.add(selector);
              return past;
            },
            Optional.empty());
    // The SQL text's option wins over the request's.
    QueryResponse response =
        service.execute(
            new QueryRequest("SET snapshotId=5; SELECT COUNT(*) FROM obs.metrics")
                .withSnapshot(Optional.of(new SnapshotSelector.Id(6))));
    assertThat(response.errors()).isEmpty();
    assertThat(response.statistics().snapshotId()).isEqualTo(5);
    assertThat(dispatched).containsExactly(5L);
    assertThat(asked).containsExactly(new SnapshotSelector.Id(5));
    // Without an option the served route answers, and the past routes are not asked.
    assertThat(
            service
                .execute(new QueryRequest("SELECT COUNT(*) FROM obs.metrics"))
                .statistics()
                .snapshotId())
        .isEqualTo(77);
    assertThat(asked).hasSize(1);
  }

  @Test
  void answersFromTheRouteSnapshotWithTheRequestDeadline() {
    AtomicReference<Instant> deadline = new AtomicReference<>();
    QueryDispatcher real =
        (plan, route, files, until, cancelled) -> {
          deadline.set(until);
          return new QueryDispatcher.Dispatched(noFiles(plan), 3, 4096, 1, 2);
        };
    QueryResponse response =
        service(real)
            .execute(
                new QueryRequest(
                    "SELECT COUNT(*) FROM obs.metrics WHERE org_id = '7'",
                    Optional.of(Duration.ofMillis(250))));
    assertThat(response.errors()).isEmpty();
    assertThat(response.result().orElseThrow().rows()).containsExactly(List.of(0L));
    assertThat(response.result().orElseThrow().columnDataTypes()).containsExactly("LONG");
    assertThat(response.statistics().snapshotId()).isEqualTo(77);
    assertThat(response.statistics().storageBytesRead()).isEqualTo(4096);
    assertThat(response.statistics().storageRequests()).isEqualTo(3);
    assertThat(response.statistics().cacheHits()).isEqualTo(1);
    assertThat(response.statistics().cacheMisses()).isEqualTo(2);
    assertThat(deadline.get()).isEqualTo(NOW.plusMillis(250));
  }

  @Test
  void theClientsCancellationReachesTheServers() {
    AtomicBoolean clientGone = new AtomicBoolean();
    QueryDispatcher stopsWhenCancelled =
        (plan, route, files, deadline, cancelled) -> {
          clientGone.set(true);
          if (cancelled.getAsBoolean()) {
            throw new io.shelfmark.exchange.error.QueryCancelledException(
                "Cannot finish the query: it was cancelled");
          }
          throw new AssertionError("the cancellation did not reach the servers");
        };
    QueryResponse response =
        service(stopsWhenCancelled)
            .execute(
                new QueryRequest(
                    "SELECT COUNT(*) FROM obs.metrics", Optional.empty(), clientGone::get));
    assertThat(response.errors().getFirst().code()).isEqualTo(QueryErrorCode.CANCELLED);
    assertThat(response.errors().getFirst().message()).contains("cancelled");
  }

  @Test
  void sqlErrorsAreRefusedBeforeDispatchWithTheirPosition() {
    QueryResponse unknown =
        service(NEVER).execute(new QueryRequest("SELECT nope FROM obs.metrics"));
    assertThat(unknown.errors()).hasSize(1);
    assertThat(unknown.errors().getFirst().code()).isEqualTo(QueryErrorCode.UNKNOWN_COLUMN);
    assertThat(unknown.errors().getFirst().code().code()).isEqualTo(710);
    assertThat(unknown.errors().getFirst().message()).contains("nope").contains("line 1");

    QueryResponse table = service(NEVER).execute(new QueryRequest("SELECT 1 FROM obs.nope"));
    assertThat(table.errors().getFirst().code()).isEqualTo(QueryErrorCode.UNKNOWN_TABLE);
    assertThat(table.errors().getFirst().code().code()).isEqualTo(190);

    QueryResponse function =
        service(NEVER).execute(new QueryRequest("SELECT NOPE(org_id) FROM obs.metrics"));
    assertThat(function.errors().getFirst().code()).isEqualTo(QueryErrorCode.SQL_PARSING);

    QueryResponse syntax = service(NEVER).execute(new QueryRequest("SELEC org_id FROM x"));
    assertThat(syntax.errors().getFirst().code()).isEqualTo(QueryErrorCode.SQL_PARSING);

    QueryResponse join =
        service(NEVER)
            .execute(new QueryRequest("SELECT 1 FROM obs.metrics a JOIN obs.metrics b ON true"));
    assertThat(join.errors().getFirst().code()).isEqualTo(QueryErrorCode.UNSUPPORTED);
  }

  @Test
  void databaseResolvesUnqualifiedNamesInItsNamespace() {
    String count = "SELECT COUNT(*) FROM metrics WHERE org_id = 7";
    QueryResponse withoutDatabase = service(NEVER).execute(new QueryRequest(count));
    assertThat(withoutDatabase.errors().getFirst().code()).isEqualTo(QueryErrorCode.UNKNOWN_TABLE);

    List<QueryPlan> plans = new ArrayList<>();
    QueryResponse inObs =
        service(recording(plans))
            .execute(new QueryRequest(count, Optional.empty(), () -> false, Optional.of("obs")));
    assertThat(inObs.errors()).isEmpty();
    assertThat(plans.getFirst().table().name().toString()).isEqualTo("obs.metrics");

    // Qualified names are taken as written whatever the database.
    QueryResponse qualified =
        service(recording(plans))
            .execute(
                new QueryRequest(
                    "SELECT COUNT(*) FROM obs.metrics",
                    Optional.empty(),
                    () -> false,
                    Optional.of("logs")));
    assertThat(qualified.errors()).isEmpty();

    QueryResponse elsewhere =
        service(NEVER)
            .execute(new QueryRequest(count, Optional.empty(), () -> false, Optional.of("logs")));
    assertThat(elsewhere.errors().getFirst().code()).isEqualTo(QueryErrorCode.UNKNOWN_TABLE);
  }

  @Test
  void serverFailuresKeepTheirKind() {
    String sql = "SELECT COUNT(*) FROM obs.metrics";
    assertThat(code(failing(new QueryTimeoutException("Cannot finish: timed out")), sql))
        .isEqualTo(QueryErrorCode.TIMEOUT);
    assertThat(code(failing(new UnsupportedQueryException("Cannot apply equality deletes")), sql))
        .isEqualTo(QueryErrorCode.UNSUPPORTED);
    assertThat(code(failing(new QueryExecutionException("SUM overflows BIGINT")), sql))
        .isEqualTo(QueryErrorCode.QUERY_EXECUTION);
    assertThat(
            code(
                failing(
                    new QueryInternalException(
                        "Cannot read s3://lake/f.parquet",
                        new StorageException("Cannot GET s3://lake/f.parquet: 503"))),
                sql))
        .isEqualTo(QueryErrorCode.STORAGE);
    assertThat(
            code(failing(new UncheckedIOException("Cannot read f", new IOException("reset"))), sql))
        .isEqualTo(QueryErrorCode.STORAGE);
    QueryResponse bug =
        service(failing(new IllegalStateException("boom"))).execute(new QueryRequest(sql));
    assertThat(bug.errors().getFirst().code()).isEqualTo(QueryErrorCode.INTERNAL);
    assertThat(bug.errors().getFirst().message())
        .isEqualTo("Cannot execute query: internal error: java.lang.IllegalStateException: boom");
  }

  @Test
  void plansAndPruningAreKeptUntilTheirInputsChange() {
    List<QueryPlan> plans = new ArrayList<>();
    List<TableRoute> pruned = new ArrayList<>();
    EngineQueryService service =
        new EngineQueryService(
            routing,
            recordingPruning(pruned),
            recording(plans),
            Duration.ofSeconds(10),
            Clock.fixed(NOW, java.time.ZoneOffset.UTC));
    String count = "SELECT COUNT(*) FROM obs.metrics WHERE org_id = 7";
    assertThat(service.execute(new QueryRequest(count)).errors()).isEmpty();
    assertThat(service.execute(new QueryRequest(count)).errors()).isEmpty();
    assertThat(plans).hasSize(2);
    assertThat(plans.get(1)).isSameAs(plans.get(0));
    assertThat(pruned).hasSize(1);
    assertThat(service.cachedPlans()).isEqualTo(1);

    // A new snapshot of the same table: the plan stays, the files are pruned again on the new
    // route.
    publish(78, SCHEMA);
    assertThat(service.execute(new QueryRequest(count)).statistics().snapshotId()).isEqualTo(78);
    assertThat(plans.get(2)).isSameAs(plans.get(0));
    assertThat(pruned).hasSize(2);
    assertThat(pruned.get(1).snapshotId()).isEqualTo(78);

    // A column added: SQL refused before is planned again against the new columns.
    String host = "SELECT COUNT(host) FROM obs.metrics WHERE org_id = 7";
    QueryResponse refused = service.execute(new QueryRequest(host));
    assertThat(refused.errors().getFirst().code()).isEqualTo(QueryErrorCode.UNKNOWN_COLUMN);
    assertThat(refused.errors().getFirst().message()).contains("host");
    publish(
        79,
        new Schema(
            Types.NestedField.required(1, "org_id", Types.LongType.get()),
            Types.NestedField.optional(2, "metric", Types.StringType.get()),
            Types.NestedField.optional(3, "host", Types.StringType.get())));
    QueryResponse answered = service.execute(new QueryRequest(host));
    assertThat(answered.errors()).isEmpty();
    assertThat(answered.result().orElseThrow().rows()).containsExactly(List.of(0L));
    assertThat(service.execute(new QueryRequest(count)).errors()).isEmpty();
    assertThat(plans.getLast()).isNotSameAs(plans.get(0));
    assertThat(plans.getLast().table().columnNames()).contains("host");
  }

  @Test
  void preparePlansAndPrunesWithoutExecutingOrKeepingThePlan() {
    List<TableRoute> pruned = new ArrayList<>();
    EngineQueryService service =
        new EngineQueryService(
            routing,
            recordingPruning(pruned),
            NEVER,
            Duration.ofSeconds(10),
            Clock.fixed(NOW, ZoneOffset.UTC));
    String count = "SELECT COUNT(*) FROM obs.metrics WHERE org_id = 7";
    assertThat(service.prepare(count)).isZero();
    assertThat(service.prepare(count)).isZero();
    // Pruned each time on the current route, never dispatched (NEVER throws), nothing kept.
    assertThat(pruned).hasSize(2);
    assertThat(pruned.get(1).snapshotId()).isEqualTo(77);
    assertThat(service.cachedPlans()).isZero();

    assertThatThrownBy(() -> service.prepare("SELECT COUNT(nope) FROM obs.metrics"))
        .isInstanceOf(SqlException.class)
        .hasMessageContaining("nope");
    assertThatThrownBy(() -> service.prepare("SELECT COUNT(*) FROM obs.other"))
        .isInstanceOf(SqlException.class)
        .hasMessageContaining("obs.other");
    assertThat(pruned).hasSize(2);
  }

  /** Keeps every file and records each route it pruned. */
  private static FilePruning recordingPruning(List<TableRoute> pruned) {
    return (plan, route) -> {
      pruned.add(route);
      return route.snapshot().dataFiles();
    };
  }

  private void publish(long snapshotId, Schema schema) {
    routing.publish(
        new TableRoute(
            IcebergSchemas.toBoundTable(TableName.parse("obs.metrics"), schema),
            schema,
            Map.of(0, PartitionSpec.unpartitioned()),
            new TableSnapshot("obs.metrics", OptionalLong.of(snapshotId), List.of(), List.of()),
            Map.of()));
  }

  /** What a server answers for a plan over no files: no groups (or rows), no work. */
  private static PartialResult noFiles(QueryPlan plan) {
    return plan.aggregated()
        ? PartialResult.ofGroups(List.of(), ExecutionStatistics.EMPTY)
        : PartialResult.ofRows(List.of(), ExecutionStatistics.EMPTY);
  }

  /** Answers as a server over no files and records each plan it is handed. */
  private static QueryDispatcher recording(List<QueryPlan> plans) {
    return (plan, route, files, until, cancelled) -> {
      plans.add(plan);
      return new QueryDispatcher.Dispatched(noFiles(plan), 0, 0, 0, 0);
    };
  }

  @Test
  void aFullLaneAnswersTooManyQueriesAndALongInListResourceExhausted() {
    QueryAdmission admission =
        new QueryAdmission(
            Map.of(
                QueryLane.CHEAP,
                new QueryAdmission.LaneLimits(1, 0),
                QueryLane.HEAVY,
                new QueryAdmission.LaneLimits(1, 0)),
            Clock.systemUTC());
    EngineQueryService service =
        new EngineQueryService(
            routing,
            FilePruning.NONE,
            NEVER,
            Duration.ofSeconds(10),
            Clock.systemUTC(),
            QueryListener.NONE,
            io.shelfmark.sql.SqlLimits.defaults(),
            new QueryPolicy(
                admission, 0, io.shelfmark.exchange.fragment.QueryLimits.defaults(), 3));
    // No files: the query is cheap; with the cheap lane's one slot taken, it is refused at once.
    try (QueryAdmission.Admitted taken =
        admission.admit(
            QueryLane.CHEAP, Clock.systemUTC().instant().plusSeconds(60), () -> false)) {
      QueryResponse refused = service.execute(new QueryRequest("SELECT COUNT(*) FROM obs.metrics"));
      assertThat(refused.errors().getFirst().code()).isEqualTo(QueryErrorCode.TOO_MANY_QUERIES);
      assertThat(refused.errors().getFirst().message())
          .contains("query.cheap.max-running, query.cheap.max-queued");
    }
    QueryResponse tooLong =
        service.execute(
            new QueryRequest("SELECT COUNT(*) FROM obs.metrics WHERE org_id IN (1, 2, 3, 4)"));
    assertThat(tooLong.errors().getFirst().code()).isEqualTo(QueryErrorCode.RESOURCE_EXHAUSTED);
    assertThat(tooLong.errors().getFirst().message())
        .isEqualTo(
            "Cannot filter on an IN list of 4 items: more than 3 (raise query.max-in-list-items or"
                + " filter on a range)");
  }

  /**
   * A heavy query's work that does not look at its deadline (a time-sliced thread between two
   * checks): the request is answered TIMEOUT at the deadline all the same, the work is told to
   * stop, and it keeps its lane slot until it has stopped.
   */
  @Test
  @Timeout(30) // before the fix the request waited for the work, which waits for the test
  void aHeavyQueryIsAnsweredAtItsDeadlineWhileItsWorkHasNotStopped() throws Exception {
    DataFileInfo file =
        new DataFileInfo(
            "s3://lake/obs/metrics/data/f.parquet",
            org.apache.iceberg.FileFormat.PARQUET,
            org.apache.iceberg.FileContent.DATA,
            1000,
            1_000_000,
            new FilePartition(0, "", new ArrayList<>()),
            1,
            1,
            List.of());
    RoutingTable oneFile = new RoutingTable();
    oneFile.publish(
        new TableRoute(
            IcebergSchemas.toBoundTable(TableName.parse("obs.metrics"), SCHEMA),
            SCHEMA,
            Map.of(0, PartitionSpec.unpartitioned()),
            new TableSnapshot("obs.metrics", OptionalLong.of(78), List.of(file), List.of()),
            Map.of()));
    QueryAdmission admission =
        new QueryAdmission(
            Map.of(
                QueryLane.CHEAP,
                new QueryAdmission.LaneLimits(1, 0),
                QueryLane.HEAVY,
                new QueryAdmission.LaneLimits(1, 0)),
            Clock.systemUTC());
    CountDownLatch release = new CountDownLatch(1);
    AtomicBoolean toldToStop = new AtomicBoolean();
    QueryDispatcher deaf =
        (plan, route, files, deadline, cancelled) -> {
          try {
            release.await();
          } catch (InterruptedException e) {
            throw new AssertionError(e);
          }
          toldToStop.set(cancelled.getAsBoolean());
          return new QueryDispatcher.Dispatched(noFiles(plan), 0, 0, 0, 0);
        };
    ExecutorService heavyThreads = Executors.newSingleThreadExecutor();
    try {
      EngineQueryService service =
          new EngineQueryService(
              oneFile,
              FilePruning.NONE,
              deaf,
              Duration.ofSeconds(10),
              Clock.systemUTC(),
              QueryListener.NONE,
              io.shelfmark.sql.SqlLimits.defaults(),
              new QueryPolicy(
                  admission,
                  0,
                  io.shelfmark.exchange.fragment.QueryLimits.defaults(),
                  10,
                  heavyThreads));
      long started = System.nanoTime();
      QueryResponse response =
          service.execute(
              new QueryRequest(
                  "SELECT metric, COUNT(*) FROM obs.metrics GROUP BY metric",
                  Optional.of(Duration.ofMillis(300)),
                  () -> false));
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      assertThat(response.errors().getFirst().code()).isEqualTo(QueryErrorCode.TIMEOUT);
      assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(300));
      // Answered while the work still runs: it still holds the heavy lane's one slot.
      assertThat(admission.running(QueryLane.HEAVY)).isEqualTo(1);
      QueryResponse refused =
          service.execute(
              new QueryRequest("SELECT metric, COUNT(*) FROM obs.metrics GROUP BY metric"));
      assertThat(refused.errors().getFirst().code()).isEqualTo(QueryErrorCode.TOO_MANY_QUERIES);
      release.countDown();
      heavyThreads.shutdown();
      assertThat(heavyThreads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      assertThat(toldToStop).isTrue();
      assertThat(admission.running(QueryLane.HEAVY)).isZero();
    } finally {
      release.countDown();
      heavyThreads.shutdownNow();
    }
  }

  private QueryErrorCode code(QueryDispatcher dispatcher, String sql) {
    QueryResponse response = service(dispatcher).execute(new QueryRequest(sql));
    assertThat(response.result()).isEmpty();
    return response.errors().getFirst().code();
  }
}
