package io.shelfmark.cli.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.broker.dispatch.FlightDispatcher;
import io.shelfmark.broker.dispatch.ReplicaMap;
import io.shelfmark.broker.dispatch.ServerEndpoint;
import io.shelfmark.broker.prune.SnapshotPruning;
import io.shelfmark.broker.query.EngineQueryService;
import io.shelfmark.broker.query.QueryDispatcher;
import io.shelfmark.broker.query.QueryErrorCode;
import io.shelfmark.broker.query.QueryLane;
import io.shelfmark.broker.query.QueryRequest;
import io.shelfmark.broker.query.QueryResponse;
import io.shelfmark.broker.routing.RoutingTable;
import io.shelfmark.broker.routing.TableRoute;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.cli.quickstart.Quickstart;
import io.shelfmark.cli.quickstart.TestQuickstart;
import io.shelfmark.exchange.error.QueryResourceException;
import io.shelfmark.exchange.error.QueryTimeoutException;
import io.shelfmark.exchange.error.WireError;
import io.shelfmark.exchange.fragment.PlanFragment;
import io.shelfmark.exchange.fragment.QueryLimits;
import io.shelfmark.server.flight.FlightFragmentServer;
import io.shelfmark.server.local.LocalServer;
import io.shelfmark.sql.SqlPlanner;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.QueryResult;
import io.shelfmark.testing.oracle.ResultComparison;
import io.shelfmark.testing.query.Column;
import io.shelfmark.testing.query.ColumnKind;
import io.shelfmark.testing.query.GeneratedQuery;
import io.shelfmark.testing.query.RandomQueryGenerator;
import io.shelfmark.testing.query.TableDescription;
import io.shelfmark.testing.query.ValueDomain;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker → server data plane over Arrow Flight on 127.0.0.1: the quickstart's obs.metrics
 * (20,000 rows over the embedded S3 lake) served by one node's {@link LocalServer} behind three
 * Flight endpoints, each its own gRPC server on its own port (to the broker, three servers holding
 * every file), queried by a broker ({@link EngineQueryService}) over a {@link FlightDispatcher}.
 * Answers equal the in-process dispatcher's and DuckDB's; a closed endpoint's files go to another
 * replica; files without a live replica fail the query naming them, or, allowed, give a partial
 * result listing them; deadlines and the wire version are enforced.
 */
class TestFlightDataPlane {
  private static final Logger log = LoggerFactory.getLogger(TestFlightDataPlane.class);
  private static final long SEED = Long.getLong("shelfmark.test.seed", System.nanoTime());
  private static final int RANDOM_QUERIES = Integer.getInteger("shelfmark.test.queries", 60);
  private static final TableName TABLE = TableName.parse("obs.metrics");

  private static Path directory;
  private static Quickstart quickstart;
  private static DuckDbOracle duckDb;
  private static ExecutorService cheapWork;
  private static ExecutorService heavyWork;
  private static ExecutorService calls;

  @BeforeAll
  static void start() throws Exception {
    directory = Files.createTempDirectory("shelfmark-flight-test");
    quickstart =
        Quickstart.start(
            new Quickstart.Options(20_000, 7, directory, 0, true)
                .withTableConfig(io.shelfmark.cli.quickstart.DenseStarTreeConfig.load()),
            new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
    duckDb = DuckDbOracle.open();
    List<Path> files = new ArrayList<>();
    for (DataFileInfo file : quickstart.table().snapshot().dataFiles()) {
      files.add(quickstart.lakeDirectory().resolve(file.path().substring("s3://".length())));
    }
    duckDb.registerTable("obs.metrics", files);
    cheapWork = Executors.newVirtualThreadPerTaskExecutor();
    heavyWork = Executors.newFixedThreadPool(2);
    calls = Executors.newVirtualThreadPerTaskExecutor();
  }

  @AfterAll
  static void stop() throws Exception {
    if (duckDb != null) {
      duckDb.close();
    }
    if (quickstart != null) {
      quickstart.close();
    }
    for (ExecutorService executor : new ExecutorService[] {cheapWork, heavyWork, calls}) {
      if (executor != null) {
        executor.shutdownNow();
      }
    }
  }

  @Test
  void randomAndBenchmarkQueriesEqualInProcessAndDuckDb() throws Exception {
    List<FlightFragmentServer> servers = startServers(3);
    try (FlightDispatcher dispatcher =
        new FlightDispatcher(ReplicaMap.everywhere(endpoints(servers)), calls, Clock.systemUTC())) {
      EngineQueryService overFlight = broker(dispatcher);
      EngineQueryService inProcess = broker(inProcessDispatcher());
      List<String> failures = new ArrayList<>();
      for (Map.Entry<String, String> query : Quickstart.BENCHMARK_QUERIES.entrySet()) {
        compare(
            query.getKey() + ": " + query.getValue(),
            query.getValue(),
            duckDb.query(TestQuickstart.DUCKDB_QUERIES.get(query.getKey())),
            query.getValue().contains("ORDER BY"),
            Map.of(),
            overFlight,
            inProcess,
            failures);
      }
      TableDescription table =
          new TableDescription(
              "obs.metrics",
              List.of(
                  Column.of("org_id", ColumnKind.LONG),
                  Column.of("metric", ColumnKind.STRING),
                  Column.of("resolution", ColumnKind.INT),
                  Column.epochMillis("logical_timestamp"),
                  Column.of("sum_rollup", ColumnKind.DOUBLE),
                  Column.of("latest_rollup", ColumnKind.DOUBLE),
                  Column.map("dimensions", List.of("service", "region", "node"))));
      log.info("Random queries over Flight: seed {} (-Dshelfmark.test.seed={})", SEED, SEED);
      RandomQueryGenerator generator =
          new RandomQueryGenerator(table, ValueDomain.sample(duckDb, table, 12), SEED);
      for (int q = 0; q < RANDOM_QUERIES; q++) {
        GeneratedQuery query = generator.next();
        compare(
            "#" + q + " " + query,
            query.shelfmarkSql(),
            duckDb.query(query.duckDbSql()),
            query.ordered(),
            query.approximateColumns(),
            overFlight,
            inProcess,
            failures);
      }
      assertThat(failures).as("seed %s: answers over Flight that differ", SEED).isEmpty();
    } finally {
      closeAll(servers);
    }
  }

  /**
   * EXPLAIN and EXPLAIN ANALYZE over Flight (fragment and response version 2): each server's files
   * and time, and the same plan and counts as the node's in-process EXPLAIN over HTTP.
   */
  @Test
  void explainOverFlightReportsEachServer() throws Exception {
    List<FlightFragmentServer> servers = startServers(3);
    try (FlightDispatcher dispatcher =
        new FlightDispatcher(ReplicaMap.everywhere(endpoints(servers)), calls, Clock.systemUTC())) {
      EngineQueryService overFlight = broker(dispatcher);
      io.shelfmark.cli.client.BrokerClient http =
          new io.shelfmark.cli.client.BrokerClient(quickstart.url());
      for (String sql :
          List.of(
              Quickstart.BENCHMARK_QUERIES.get("Q2"),
              "SELECT metric, COUNT(*), SUM(sum_rollup) FROM obs.metrics WHERE resolution = 15000"
                  + " GROUP BY metric")) {
        QueryResponse analyzed = overFlight.execute(new QueryRequest("EXPLAIN ANALYZE " + sql));
        assertThat(analyzed.errors()).as(sql).isEmpty();
        io.shelfmark.broker.explain.ExplainReport report = analyzed.explain().orElseThrow();
        assertThat(report.totals().matchedRows()).isEqualTo(analyzed.statistics().numDocsScanned());
        assertThat(report.totals().filesRun())
            .isEqualTo(analyzed.statistics().numSegmentsProcessed());
        // Star-tree answers travel in version 4 profiles: Q2's files come from the tree.
        assertThat(report.totals().filesFromStarTree())
            .isEqualTo(analyzed.statistics().numSegmentsStarTree());
        if (sql.equals(Quickstart.BENCHMARK_QUERIES.get("Q2"))) {
          assertThat(report.totals().filesFromStarTree()).isPositive();
          assertThat(report.fileGroups())
              .anyMatch(
                  group ->
                      group.starTree() != null
                          && group.starTree().recordsVisited() > 0
                          && !group.starTree().edges().isEmpty());
        }
        assertThat(report.servers()).isNotEmpty();
        assertThat(report.servers())
            .allMatch(server -> server.server().startsWith("127.0.0.1:") && server.files() > 0);
        assertThat(report.servers().stream().mapToInt(s -> s.files()).sum())
            .isEqualTo(analyzed.statistics().numSegmentsQueried());

        QueryResponse planned = overFlight.execute(new QueryRequest("EXPLAIN " + sql));
        com.fasterxml.jackson.databind.JsonNode local =
            http.query("EXPLAIN " + sql, java.util.Optional.empty()).path("explain").path("totals");
        io.shelfmark.broker.explain.ExplainReport.Totals totals =
            planned.explain().orElseThrow().totals();
        assertThat(totals.files()).isEqualTo(local.path("files").asInt());
        assertThat(totals.pagesPlanned()).isEqualTo(local.path("pagesPlanned").asLong());
        assertThat(totals.lowerBoundBytes()).isEqualTo(local.path("lowerBoundBytes").asLong());
        assertThat(totals.definiteRows()).isEqualTo(local.path("definiteRows").asLong());
        assertThat(totals.candidateRows()).isEqualTo(local.path("candidateRows").asLong());
        assertThat(totals.filesWithoutParquet())
            .isEqualTo(local.path("filesWithoutParquet").asInt());
      }
    } finally {
      closeAll(servers);
    }
  }

  @Test
  void aClosedServersFilesAreReadFromAnotherReplica() throws Exception {
    List<FlightFragmentServer> servers = startServers(3);
    try (FlightDispatcher dispatcher =
        new FlightDispatcher(ReplicaMap.everywhere(endpoints(servers)), calls, Clock.systemUTC())) {
      EngineQueryService overFlight = broker(dispatcher);
      String sql = "SELECT metric, COUNT(*), SUM(sum_rollup) FROM obs.metrics GROUP BY metric";
      QueryResult expected = duckDb.query(sql);
      assertEquivalent(overFlight.execute(new QueryRequest(sql)), expected);
      servers.get(0).close(); // every file's first choice may be this one: all go elsewhere
      assertEquivalent(overFlight.execute(new QueryRequest(sql)), expected);
      // Another endpoint closes while a stream of queries runs: every answer stays whole.
      List<String> wrong = java.util.Collections.synchronizedList(new ArrayList<>());
      java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(3);
      Thread stream =
          Thread.ofVirtual()
              .start(
                  () -> {
                    for (int q = 0; q < 20; q++) {
                      int i = q;
                      QueryResponse response = overFlight.execute(new QueryRequest(sql));
                      if (!response.errors().isEmpty()) {
                        wrong.add("#" + i + ": " + response.errors());
                      } else {
                        ResultComparison.difference(
                                expected, resultOf(response), false, 1e-9, Map.of())
                            .ifPresent(difference -> wrong.add("#" + i + ": " + difference));
                      }
                      started.countDown();
                    }
                  });
      started.await();
      servers.get(2).close();
      stream.join();
      assertThat(wrong).isEmpty();
      // Only servers.get(1) is left: it answers alone.
      assertEquivalent(overFlight.execute(new QueryRequest(sql)), expected);
    } finally {
      closeAll(servers);
    }
  }

  @Test
  void filesWithoutALiveReplicaFailTheQueryOrArePartialWhenAllowed() throws Exception {
    List<FlightFragmentServer> servers = startServers(2);
    List<DataFileInfo> files = quickstart.table().snapshot().dataFiles();
    assertThat(files).as("the quickstart table's files").hasSizeGreaterThan(1);
    DataFileInfo lost = files.getFirst();
    ServerEndpoint live = endpoints(servers).get(0);
    ServerEndpoint dead = endpoints(servers).get(1);
    servers.get(1).close();
    Map<String, List<ServerEndpoint>> replicas = new java.util.HashMap<>();
    for (DataFileInfo file : files) {
      replicas.put(file.path(), file == lost ? List.of(dead) : List.of(dead, live));
    }
    try (FlightDispatcher dispatcher =
        new FlightDispatcher(ReplicaMap.fixed(replicas), calls, Clock.systemUTC())) {
      EngineQueryService overFlight = broker(dispatcher);
      String sql = "SELECT COUNT(*) FROM obs.metrics";
      QueryResponse failed = overFlight.execute(new QueryRequest(sql));
      assertThat(failed.result()).isEmpty();
      assertThat(failed.errors()).hasSize(1);
      assertThat(failed.errors().getFirst().code()).isEqualTo(QueryErrorCode.UNAVAILABLE);
      assertThat(failed.errors().getFirst().message())
          .startsWith("Cannot read 1 data file of obs.metrics: no replica answered (" + lost.path())
          .endsWith("(retry when the servers are back, or set allowPartialResults=true)");

      QueryResponse partial =
          overFlight.execute(
              new QueryRequest(
                  sql,
                  Optional.empty(),
                  () -> false,
                  Optional.empty(),
                  io.shelfmark.broker.auth.TableAccess.ALL,
                  true));
      assertThat(partial.partialResult()).isTrue();
      assertThat(partial.errors()).hasSize(1);
      assertThat(partial.errors().getFirst().message())
          .startsWith(
              "Cannot read 1 data file of obs.metrics: no replica answered (" + lost.path());
      long total = quickstart.table().snapshot().recordCount();
      assertThat(partial.result().orElseThrow().rows())
          .containsExactly(List.of(total - lost.recordCount()));

      // The same through the SQL text's own option.
      QueryResponse optioned =
          overFlight.execute(new QueryRequest("SET allowPartialResults = true; " + sql));
      assertThat(optioned.partialResult()).isTrue();
      assertThat(optioned.result().orElseThrow().rows())
          .containsExactly(List.of(total - lost.recordCount()));
    } finally {
      closeAll(servers);
    }
  }

  @Test
  void serverErrorsKeepTheirKindAndMessageAndDeadlinesBecomeTimeouts() throws Exception {
    List<FlightFragmentServer> servers = startServers(1);
    try (FlightDispatcher dispatcher =
        new FlightDispatcher(ReplicaMap.everywhere(endpoints(servers)), calls, Clock.systemUTC())) {
      RoutingTable routing = quickstart.node().routing();
      TableRoute route = routing.route(TABLE).orElseThrow();
      String sql = "SELECT metric, logical_timestamp, COUNT(*) FROM obs.metrics GROUP BY 1, 2";
      QueryPlan plan = new SqlPlanner(routing).plan(sql);
      QueryLimits tight = new QueryLimits(2, 1_000, 1_000);
      Instant deadline = Instant.now().plusSeconds(30);
      // In process, the server refuses it so:
      String expected;
      try {
        quickstart
            .node()
            .server()
            .execute(
                route.table().name().toString(),
                route.snapshotId(),
                plan,
                route.snapshot().dataFiles(),
                deadline,
                () -> false,
                cheapWork,
                tight);
        throw new AssertionError("the in-process server should refuse more than 2 groups");
      } catch (QueryResourceException e) {
        expected = e.getMessage();
      }
      QueryDispatcher.QueryText text =
          new QueryDispatcher.QueryText(sql, Optional.empty(), Map.of(), false);
      assertThatThrownBy(
              () ->
                  dispatcher.execute(
                      text,
                      plan,
                      route,
                      route.snapshot().dataFiles(),
                      deadline,
                      () -> false,
                      QueryLane.HEAVY,
                      tight))
          .isInstanceOf(QueryResourceException.class)
          .hasMessage(expected);

      // A deadline of a millisecond passes in flight: gRPC's DEADLINE_EXCEEDED, the broker's
      // timeout.
      assertThatThrownBy(
              () ->
                  dispatcher.execute(
                      text,
                      plan,
                      route,
                      route.snapshot().dataFiles(),
                      Instant.now().plusMillis(1),
                      () -> false,
                      QueryLane.HEAVY,
                      QueryLimits.defaults()))
          .isInstanceOf(QueryTimeoutException.class)
          .hasMessageStartingWith("Cannot finish the query: its deadline ")
          .hasMessageEndingWith("(raise the timeout or narrow the query)");
    } finally {
      closeAll(servers);
    }
  }

  @Test
  void aFragmentOfAnUnknownVersionIsRefusedNamingBothVersions() throws Exception {
    List<FlightFragmentServer> servers = startServers(1);
    try (RootAllocator allocator = new RootAllocator();
        FlightClient client =
            FlightClient.builder(
                    allocator, Location.forGrpcInsecure("127.0.0.1", servers.get(0).port()))
                .build()) {
      TableRoute route = quickstart.node().routing().route(TABLE).orElseThrow();
      byte[] bytes =
          new PlanFragment(
                  "q-version",
                  "SELECT COUNT(*) FROM obs.metrics",
                  Optional.empty(),
                  "obs.metrics",
                  route.schema().schemaId(),
                  route.snapshotId(),
                  List.of(),
                  Duration.ofSeconds(10),
                  PlanFragment.Lane.CHEAP,
                  QueryLimits.defaults(),
                  Map.of())
              .encode();
      ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putShort(4, (short) 3);
      assertThatThrownBy(
              () -> {
                try (FlightStream stream = client.getStream(new Ticket(bytes))) {
                  while (stream.next()) {
                    // drained: the server answers with an error before any batch
                  }
                }
              })
          .isInstanceOfSatisfying(
              FlightRuntimeException.class,
              e -> {
                assertThat(e.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
                assertThat(e.status().description())
                    .isEqualTo(
                        "Cannot read a plan fragment of version 3: this node reads versions 1 to 2"
                            + " (run brokers and servers of the same release, or upgrade the older"
                            + " side)");
                assertThat(e.status().metadata().get(WireError.METADATA_KEY))
                    .isEqualTo(WireError.WIRE_FORMAT.name());
              });
    } finally {
      closeAll(servers);
    }
  }

  private static void compare(
      String name,
      String sql,
      QueryResult expected,
      boolean ordered,
      Map<Integer, Double> approximate,
      EngineQueryService overFlight,
      EngineQueryService inProcess,
      List<String> failures) {
    QueryResponse flight = overFlight.execute(new QueryRequest(sql));
    QueryResponse local = inProcess.execute(new QueryRequest(sql));
    if (!flight.errors().isEmpty() || !local.errors().isEmpty()) {
      if (!flight.errors().equals(local.errors())) {
        failures.add(name + ": errors differ: " + flight.errors() + " vs " + local.errors());
      } else {
        failures.add(name + ": failed: " + flight.errors());
      }
      return;
    }
    QueryResult fromFlight = resultOf(flight);
    ResultComparison.difference(expected, fromFlight, ordered, 1e-9, approximate)
        .ifPresent(difference -> failures.add(name + " vs DuckDB: " + difference));
    ResultComparison.difference(resultOf(local), fromFlight, ordered, 1e-9, approximate)
        .ifPresent(difference -> failures.add(name + " vs in process: " + difference));
    if (flight.statistics().numDocsScanned() != local.statistics().numDocsScanned()) {
      failures.add(
          name
              + ": docs scanned "
              + flight.statistics().numDocsScanned()
              + " over Flight, "
              + local.statistics().numDocsScanned()
              + " in process");
    }
  }

  private static void assertEquivalent(QueryResponse response, QueryResult expected) {
    assertThat(response.errors()).isEmpty();
    ResultComparison.assertEquivalent(expected, resultOf(response), false, 1e-9);
  }

  private static final java.time.format.DateTimeFormatter TIMESTAMP =
      java.time.format.DateTimeFormatter.ofPattern(
          "yyyy-MM-dd HH:mm:ss[.SSSSSS]", java.util.Locale.ROOT);

  /** The response's rows as DuckDB's are compared: TIMESTAMP text as date-times. */
  private static QueryResult resultOf(QueryResponse response) {
    QueryResponse.ResultTable table = response.result().orElseThrow();
    List<List<Object>> rows = new ArrayList<>();
    for (List<Object> row : table.rows()) {
      List<Object> values = new ArrayList<>(row);
      for (int c = 0; c < values.size(); c++) {
        if (values.get(c) instanceof String text
            && table.columnDataTypes().get(c).equals("TIMESTAMP")) {
          values.set(
              c,
              text.endsWith("Z")
                  ? java.time.LocalDateTime.parse(text.replace("Z", ""), TIMESTAMP)
                      .toInstant(java.time.ZoneOffset.UTC)
                  : java.time.LocalDateTime.parse(text, TIMESTAMP));
        }
      }
      rows.add(values);
    }
    return QueryResult.normalized(table.columnNames(), rows);
  }

  private static EngineQueryService broker(QueryDispatcher dispatcher) {
    return new EngineQueryService(
        quickstart.node().routing(),
        new SnapshotPruning(),
        dispatcher,
        Duration.ofSeconds(60),
        Clock.systemUTC());
  }

  /** The node's own server in this process, as the all-in-one node dispatches. */
  private static QueryDispatcher inProcessDispatcher() {
    LocalServer server = quickstart.node().server();
    return (plan, route, files, deadline, cancelled) -> {
      LocalServer.Execution execution =
          server.execute(
              route.table().name().toString(),
              route.snapshotId(),
              plan,
              files,
              deadline,
              cancelled,
              cheapWork,
              QueryLimits.defaults());
      return new QueryDispatcher.Dispatched(
          execution.partial(),
          execution.storage().getRequests(),
          execution.storage().bytesRead(),
          execution.cacheHits(),
          execution.cacheMisses());
    };
  }

  private static List<FlightFragmentServer> startServers(int count) {
    List<FlightFragmentServer> servers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      servers.add(
          FlightFragmentServer.start(
              "127.0.0.1", 0, quickstart.node().server(), cheapWork, heavyWork));
    }
    return servers;
  }

  private static List<ServerEndpoint> endpoints(List<FlightFragmentServer> servers) {
    List<ServerEndpoint> endpoints = new ArrayList<>();
    for (FlightFragmentServer server : servers) {
      endpoints.add(new ServerEndpoint("127.0.0.1", server.port()));
    }
    return endpoints;
  }

  private static void closeAll(List<FlightFragmentServer> servers) throws InterruptedException {
    for (FlightFragmentServer server : servers) {
      server.close();
    }
  }
}
