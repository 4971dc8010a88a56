package io.shelfmark.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.catalog.Catalogs;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.quickstart.Quickstart;
import io.shelfmark.cli.quickstart.TestQuickstart;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.QueryResult;
import io.shelfmark.testing.oracle.ResultComparison;
import io.shelfmark.testing.query.Column;
import io.shelfmark.testing.query.ColumnKind;
import io.shelfmark.testing.query.GeneratedQuery;
import io.shelfmark.testing.query.RandomQueryGenerator;
import io.shelfmark.testing.query.TableDescription;
import io.shelfmark.testing.query.ValueDomain;
import java.io.Closeable;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local cluster of real processes on 127.0.0.1 ({@code cluster up}: the lake, ZooKeeper, a
 * controller, three servers and a broker, each a JVM of its own) over the quickstart's table:
 * answers equal DuckDB's on the benchmark queries and a randomized set; {@code kill -9} of a server
 * during a query stream fails no query and changes no answer (every file has a second replica);
 * {@code cluster down} stops every process.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TestLocalCluster {
  private static final Logger log = LoggerFactory.getLogger(TestLocalCluster.class);
  private static final long SEED = Long.getLong("shelfmark.test.seed", System.nanoTime());
  private static final int RANDOM_QUERIES = Integer.getInteger("shelfmark.test.queries", 40);
  private static final long ROWS = 20_000;

  private static Path runDir;
  private static List<ClusterProcess> processes;
  private static BrokerClient broker;
  private static DuckDbOracle duckDb;

  @BeforeAll
  static void up() throws Exception {
    runDir = Files.createTempDirectory("shelfmark-cluster-test");
    processes =
        LocalCluster.up(
            new LocalCluster.Options(runDir, 3, 2, Optional.empty(), ROWS, 384, true),
            new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
    broker = new BrokerClient(LocalCluster.url(process("broker")));
    duckDb = DuckDbOracle.open();
    duckDb.registerTable("obs.metrics", dataFiles());
  }

  @AfterAll
  static void down() throws Exception {
    if (duckDb != null) {
      duckDb.close();
    }
    if (runDir != null) {
      LocalCluster.down(
          runDir, new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
    }
  }

  @Test
  @Order(1)
  void everyFileIsServedByExactlyItsTwoReplicasOnceThePlacementSettles() throws Exception {
    int files = dataFiles().size();
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    long served;
    do {
      served = 0;
      for (ClusterStatus.ProcessLine line : ClusterStatus.lines(processes)) {
        java.util.regex.Matcher count =
            java.util.regex.Pattern.compile("obs\\.metrics: (\\d+) files").matcher(line.detail());
        if (line.process().role().equals("server") && count.find()) {
          served += Long.parseLong(count.group(1));
        }
      }
      if (served == 2L * files) {
        return;
      }
      Thread.sleep(200);
    } while (System.nanoTime() < deadline);
    // An old replica no longer assigned must stop being served once its new one is ready.
    assertThat(served).as("files served by the 3 servers, 2 replicas each").isEqualTo(2L * files);
  }

  @Test
  @Order(1)
  void everyProcessRunsAndEveryServerServes() {
    List<ClusterStatus.ProcessLine> lines = ClusterStatus.lines(processes);
    assertThat(lines)
        .extracting(line -> line.process().name())
        .containsExactly(
            "lake",
            "zookeeper",
            "controller-1",
            "controller-2",
            "server-1",
            "server-2",
            "server-3",
            "broker");
    assertThat(lines).allSatisfy(line -> assertThat(line.alive()).isTrue());
    assertThat(lines)
        .filteredOn(line -> line.process().role().equals("server"))
        .allSatisfy(
            line -> {
              assertThat(line.health()).isEqualTo("MEMBER");
              assertThat(line.detail()).contains("obs.metrics: ");
            });
    assertThat(lines)
        .filteredOn(line -> line.process().role().equals("controller"))
        .extracting(ClusterStatus.ProcessLine::detail)
        .containsExactly("leader", "standby");
  }

  /**
   * The broker's nodes page lists each server with the segments it serves and its cache per tier,
   * as the server reports them over the data plane (the Flight node-report action).
   */
  @Test
  @Order(2)
  void theNodesPageShowsEachServersSegmentsAndCache() throws Exception {
    int files = dataFiles().size();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    com.fasterxml.jackson.databind.JsonNode nodes;
    long segments;
    do {
      java.net.http.HttpResponse<String> response =
          java.net.http.HttpClient.newHttpClient()
              .send(
                  java.net.http.HttpRequest.newBuilder(
                          java.net.URI.create(LocalCluster.url(process("broker")) + "/nodes"))
                      .build(),
                  java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(200);
      nodes = new com.fasterxml.jackson.databind.ObjectMapper().readTree(response.body());
      segments = 0;
      for (com.fasterxml.jackson.databind.JsonNode node : nodes.path("nodes")) {
        if (node.path("roles").toString().contains("server")) {
          segments += node.path("segments").asLong();
        }
      }
      if (segments == 2L * files) {
        break;
      }
      Thread.sleep(200);
    } while (System.nanoTime() < deadline);
    assertThat(segments).as(nodes.toString()).isEqualTo(2L * files);
    int servers = 0;
    for (com.fasterxml.jackson.databind.JsonNode node : nodes.path("nodes")) {
      if (node.path("roles").toString().contains("server")) {
        servers++;
        assertThat(node.path("segments").asLong()).as(node.toString()).isPositive();
        assertThat(node.path("cache").findValuesAsText("tier"))
            .as(node.toString())
            .containsExactly("memory", "disk");
        assertThat(node.path("cache").path(0).path("maxBytes").asLong()).isPositive();
      }
    }
    assertThat(servers).isEqualTo(3);
  }

  @Test
  @Order(2)
  void answersEqualDuckDbs() throws Exception {
    List<String> failures = new ArrayList<>();
    for (Map.Entry<String, String> query : Quickstart.BENCHMARK_QUERIES.entrySet()) {
      compare(
          query.getKey(),
          query.getValue(),
          duckDb.query(TestQuickstart.DUCKDB_QUERIES.get(query.getKey())),
          true,
          Map.of(),
          failures);
    }
    log.info("Random queries through the cluster: seed {} (-Dshelfmark.test.seed={})", SEED, SEED);
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
    RandomQueryGenerator generator =
        new RandomQueryGenerator(table, ValueDomain.sample(duckDb, table, 12), SEED);
    for (int q = 0; q < RANDOM_QUERIES; q++) {
      GeneratedQuery query = generator.next();
      compare(
          "#" + q + " " + query.shelfmarkSql(),
          query.shelfmarkSql(),
          duckDb.query(query.duckDbSql()),
          query.ordered(),
          query.approximateColumns(),
          failures);
    }
    assertThat(failures).as("seed %s: answers through the cluster that differ", SEED).isEmpty();
  }

  @Test
  @Order(2)
  void jdbcThroughArrowFlightSqlAnswersAsHttpDoes() throws Exception {
    String sql = Quickstart.BENCHMARK_QUERIES.get("Q1");
    long expected =
        broker
            .query(sql, Optional.of(Duration.ofSeconds(60)))
            .path("resultTable")
            .path("rows")
            .path(0)
            .path(0)
            .asLong();
    String url =
        "jdbc:arrow-flight-sql://127.0.0.1:"
            + process("broker").ports().get("broker-flight")
            + "/?useEncryption=false";
    try (java.sql.Connection connection = java.sql.DriverManager.getConnection(url);
        java.sql.Statement statement = connection.createStatement();
        java.sql.ResultSet rows = statement.executeQuery(sql)) {
      assertThat(rows.next()).isTrue();
      assertThat(rows.getLong(1)).isEqualTo(expected).isPositive();
    }
  }

  /**
   * An engine switch in HTTP {@code queryOptions} crosses the broker → server hop: the servers
   * answer Q2 from the rows instead of the bundled star-tree, with DuckDB's answer.
   */
  @Test
  @Order(2)
  void engineSwitchesInQueryOptionsReachTheServers() {
    String q2 = Quickstart.BENCHMARK_QUERIES.get("Q2");
    JsonNode fromTree = broker.query(q2, Optional.of(Duration.ofSeconds(60)));
    assertThat(fromTree.path("numSegmentsStarTree").asInt()).as(fromTree.toString()).isPositive();
    JsonNode fromRows =
        broker.query(q2, Optional.of(Duration.ofSeconds(60)), Map.of("useStarTree", "false"));
    assertThat(fromRows.path("exceptions")).as(fromRows.toString()).isEmpty();
    assertThat(fromRows.path("numSegmentsStarTree").asInt()).isZero();
    assertThat(fromRows.path("numDocsScanned").asLong()).isPositive();
    ResultComparison.assertEquivalent(
        duckDb.query(TestQuickstart.DUCKDB_QUERIES.get("Q2")),
        TestQuickstart.resultOf(fromRows),
        true,
        ResultComparison.DEFAULT_TOLERANCE);
  }

  @Test
  @Order(3)
  void aKilledServerFailsNoQueryWhileItsFilesHaveAnotherReplica() throws Exception {
    String sql =
        "SELECT metric, COUNT(*), SUM(sum_rollup) FROM obs.metrics WHERE resolution = 15000"
            + " GROUP BY metric";
    QueryResult expected = duckDb.query(sql);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger answered = new AtomicInteger();
    List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    Thread stream =
        Thread.ofPlatform()
            .start(
                () -> {
                  while (!stop.get()) {
                    try {
                      JsonNode response = broker.query(sql, Optional.of(Duration.ofSeconds(20)));
                      if (!response.path("exceptions").isEmpty()) {
                        failures.add("error: " + response.path("exceptions"));
                      } else {
                        ResultComparison.difference(
                                expected, TestQuickstart.resultOf(response), false, 1e-9, Map.of())
                            .ifPresent(failures::add);
                        answered.incrementAndGet();
                      }
                    } catch (RuntimeException e) {
                      failures.add(e.toString());
                    }
                  }
                });
    try {
      awaitAnswers(answered, 3);
      ClusterProcess killed = process("server-1");
      ProcessHandle.of(killed.pid()).orElseThrow().destroyForcibly();
      ProcessHandle.of(killed.pid()).ifPresent(handle -> handle.onExit().join());
      int before = answered.get();
      awaitAnswers(answered, before + 10);
    } finally {
      stop.set(true);
      stream.join();
    }
    assertThat(failures).as("answers around a server's kill -9").isEmpty();
    assertThat(ClusterStatus.lines(processes))
        .filteredOn(line -> line.process().name().equals("server-1"))
        .singleElement()
        .satisfies(line -> assertThat(line.health()).isEqualTo("DOWN"));
  }

  @Test
  @Order(4)
  void aRestartedServerServesAgainWithItsPinnedSegmentsAndNothingIsRebuilt() throws Exception {
    Path pinned = runDir.resolve("server-1/segments");
    Map<Path, java.nio.file.attribute.FileTime> before = modified(pinned);
    assertThat(before).as("server-1's pinned segments, kept on its disk").isNotEmpty();
    long segmentsInStore = modified(runDir.resolve("lake/s3/lake/_shelfmark")).size();
    LocalCluster.restart(
        runDir,
        "server-1",
        384,
        new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
    processes = LocalCluster.processes(runDir);
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (!ClusterStatus.lines(processes).stream()
        .anyMatch(
            line ->
                line.process().name().equals("server-1")
                    && line.health().equals("MEMBER")
                    && line.detail().matches("obs\\.metrics: [1-9]\\d* files.*"))) {
      assertThat(System.nanoTime()).as("server-1 serves again within 90 s").isLessThan(deadline);
      Thread.sleep(200);
    }
    // Its previous life's session expires within the session timeout of the kill, taking that
    // life's ephemeral nodes with it: the restarted server must still be a member serving files
    // after that. (Here the old session has mostly expired before the new report is written, so
    // this does not force the overlap AssignmentFollower.report guards against.)
    Thread.sleep(LocalCluster.SESSION_TIMEOUT.plusSeconds(2).toMillis());
    assertThat(ClusterStatus.lines(processes))
        .filteredOn(line -> line.process().name().equals("server-1"))
        .singleElement()
        .satisfies(
            line -> {
              assertThat(line.health()).isEqualTo("MEMBER");
              assertThat(line.detail()).matches("obs\\.metrics: [1-9]\\d* files.*");
            });
    Map<Path, java.nio.file.attribute.FileTime> after = modified(pinned);
    java.util.Set<Path> kept = new java.util.HashSet<>(before.keySet());
    kept.retainAll(after.keySet());
    assertThat(kept).as("pinned segments it serves again").isNotEmpty();
    for (Path file : kept) {
      assertThat(after.get(file))
          .as("%s is not downloaded again", file)
          .isEqualTo(before.get(file));
    }
    assertThat(modified(runDir.resolve("lake/s3/lake/_shelfmark")).size())
        .as("segment objects in the store: none built again")
        .isEqualTo(segmentsInStore);
    List<String> failures = new ArrayList<>();
    compare(
        "Q2 after the restart",
        Quickstart.BENCHMARK_QUERIES.get("Q2"),
        duckDb.query(TestQuickstart.DUCKDB_QUERIES.get("Q2")),
        true,
        Map.of(),
        failures);
    assertThat(failures).isEmpty();
  }

  /** The regular files below {@code directory} and when each was last modified. */
  private static Map<Path, java.nio.file.attribute.FileTime> modified(Path directory)
      throws java.io.IOException {
    Map<Path, java.nio.file.attribute.FileTime> files = new java.util.HashMap<>();
    if (!Files.isDirectory(directory)) {
      return files;
    }
    try (var walk = Files.walk(directory)) {
      for (Path file : walk.filter(Files::isRegularFile).toList()) {
        files.put(file, Files.getLastModifiedTime(file));
      }
    }
    return files;
  }

  @Test
  @Order(5)
  void anAppendBecomesVisibleAndEveryAnswerIsOneWholeSnapshot() throws Exception {
    followSnapshotsEverySecond();
    StreamedCounts stream = StreamedCounts.start(broker);
    try {
      long appended = appendCopyOfAFile("appended-1");
      stream.awaitSnapshots(2);
      stream.awaitAnswers(5);
      stream.stop();
      assertThat(stream.failures()).isEmpty();
      assertThat(stream.countBySnapshot()).hasSize(2);
      List<Long> counts = new ArrayList<>(stream.countBySnapshot().values());
      assertThat(counts).containsExactlyInAnyOrder(ROWS, ROWS + appended);
    } finally {
      stream.stop();
    }
  }

  @Test
  @Order(6)
  void aKilledLeaderControllerIsReplacedWhileQueriesKeepBeingAnswered() throws Exception {
    StreamedCounts stream = StreamedCounts.start(broker);
    try {
      stream.awaitAnswers(3);
      ClusterProcess leader = process("controller-1");
      ProcessHandle.of(leader.pid()).orElseThrow().destroyForcibly();
      ProcessHandle.of(leader.pid()).ifPresent(handle -> handle.onExit().join());
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!ClusterStatus.lines(processes).stream()
          .anyMatch(
              line ->
                  line.process().name().equals("controller-2") && line.detail().equals("leader"))) {
        assertThat(System.nanoTime()).as("controller-2 leads within 60 s").isLessThan(deadline);
        Thread.sleep(200);
      }
      // The new leader follows snapshots: a second append becomes visible through it.
      int snapshotsBefore = stream.countBySnapshot().size();
      appendCopyOfAFile("appended-2");
      stream.awaitSnapshots(snapshotsBefore + 1);
      stream.awaitAnswers(stream.answered() + 5);
    } finally {
      stream.stop();
    }
    assertThat(stream.failures()).as("answers while the leader controller was replaced").isEmpty();
  }

  @Test
  @Order(7)
  void aServerJoinsAndAnotherIsDrainedAndRemovedWithoutFailingAQuery() throws Exception {
    PrintStream quiet =
        new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    int files = dataFiles().size();
    StreamedCounts stream = StreamedCounts.start(broker);
    try {
      stream.awaitAnswers(stream.answered() + 3);
      ClusterProcess joined = LocalCluster.addServer(runDir, 384, quiet);
      assertThat(joined.name()).isEqualTo("server-4");
      processes = LocalCluster.processes(runDir);
      // Balancing gives the newcomer its share; the others stop serving what moved to it.
      Map<String, Long> served =
          awaitServed(
              counts -> counts.getOrDefault("server-4", 0L) > 0 && total(counts) == 2L * files,
              "server-4 serves a share and every file has its 2 replicas");
      log.info("After server-4 joined: {}", served);
      stream.awaitAnswers(stream.answered() + 5);

      LocalCluster.remove(runDir, "server-2", Duration.ofMinutes(2), quiet);
      processes = LocalCluster.processes(runDir);
      assertThat(processes).extracting(ClusterProcess::name).doesNotContain("server-2");
      served =
          awaitServed(
              counts -> !counts.containsKey("server-2") && total(counts) == 2L * files,
              "server-2's files are on the 3 others, 2 replicas each");
      log.info("After server-2 was removed: {}", served);
      stream.awaitAnswers(stream.answered() + 5);
    } finally {
      stream.stop();
    }
    assertThat(stream.failures()).as("answers while a server joined and one left").isEmpty();
    assertThat(stream.countBySnapshot()).as("one count per snapshot").isNotEmpty();
  }

  @Test
  @Order(8)
  void aCorruptAppendedFileIsAFailedSegmentAndIsNeverSkipped() throws Exception {
    String corrupt = changeTable(table -> appendCopy(table, "corrupt-1", true)).location();
    String fileName = corrupt.substring(corrupt.lastIndexOf('/') + 1);
    BrokerClient controller = new BrokerClient(LocalCluster.url(process("controller-2")));

    // The leader records the file's build as failed, with its reason, in the table's status.
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    JsonNode status;
    do {
      status = controller.table("obs.metrics").orElseThrow();
      if (status.path("segmentsFailed").asLong() > 0) {
        break;
      }
      Thread.sleep(200);
    } while (System.nanoTime() < deadline);
    assertThat(status.path("segmentsFailed").asLong()).as("failed segments: %s", status).isOne();
    assertThat(status.path("failures").toString()).contains(fileName);

    // Its snapshot is routed (servers read the file directly): a query needing its pages is
    // refused naming it, never answered without its rows.
    long snapshot = status.path("snapshotId").asLong();
    JsonNode sum = null;
    deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (System.nanoTime() < deadline) {
      sum =
          broker.query(
              "SELECT SUM(sum_rollup) FROM obs.metrics", Optional.of(Duration.ofSeconds(30)));
      if (!sum.path("exceptions").isEmpty() || sum.path("snapshotId").asLong() == snapshot) {
        break;
      }
      Thread.sleep(200);
    }
    assertThat(sum.path("exceptions").toString())
        .as("a sum over the snapshot with the corrupt file: %s", sum)
        .contains(fileName);
    // A count needs no page: the file's footer holds its rows, so it is answered, and whole.
    JsonNode count =
        broker.query("SELECT COUNT(*) FROM obs.metrics", Optional.of(Duration.ofSeconds(30)));
    if (count.path("exceptions").isEmpty()) {
      long others =
          ((Number) duckDb.query("SELECT COUNT(*) FROM obs.metrics").rows().getFirst().getFirst())
              .longValue();
      assertThat(count.path("resultTable").path("rows").path(0).path(0).asLong())
          .as("the other files' rows and the corrupt file's, from its footer")
          .isEqualTo(others + rowsOf(corrupt));
    } else {
      assertThat(count.path("exceptions").toString()).contains(fileName);
    }

    // Deleting the file from the table heals it: the next snapshot answers as DuckDB does.
    changeTable(
        table -> {
          table.newDelete().deleteFile(corrupt).commit();
          return null;
        });
    List<String> failures = new ArrayList<>();
    deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (System.nanoTime() < deadline) {
      JsonNode healed =
          broker.query("SELECT COUNT(*) FROM obs.metrics", Optional.of(Duration.ofSeconds(30)));
      if (healed.path("exceptions").isEmpty() && healed.path("snapshotId").asLong() != snapshot) {
        break;
      }
      Thread.sleep(200);
    }
    compare(
        "SUM after the corrupt file's delete",
        "SELECT SUM(sum_rollup) FROM obs.metrics",
        duckDb.query("SELECT SUM(sum_rollup) FROM obs.metrics"),
        false,
        Map.of(),
        failures);
    assertThat(failures).isEmpty();
  }

  @Test
  @Order(9)
  void aLeaderKilledWhileIndexingIsReplacedAndItsFinishedSegmentsAreNotRebuilt() throws Exception {
    PrintStream quiet =
        new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    // controller-1 was killed earlier: back as the standby of controller-2.
    LocalCluster.restart(runDir, "controller-1", 384, quiet);
    processes = LocalCluster.processes(runDir);
    awaitController("controller-1", "standby");

    String second = "obs.metrics_b";
    long rows =
        withCatalog(
            catalog ->
                io.shelfmark.generator.MetricsTableGenerator.generate(
                        catalog,
                        TableIdentifier.of("obs", "metrics_b"),
                        io.shelfmark.generator.GeneratorOptions.builder()
                            .rows(ROWS)
                            .existingTable(io.shelfmark.generator.ExistingTablePolicy.REUSE)
                            .build(),
                        (written, total) -> {})
                    .rows());
    String config =
        io.shelfmark.config.ConfigWriter.write(
                io.shelfmark.config.ConfigLoader.loadBundledTable(
                    io.shelfmark.config.ConfigLoader.BENCHMARK_TABLE_RESOURCE),
                io.shelfmark.config.ConfigFormat.YAML)
            .replaceFirst("(?m)^  name: metrics$", "  name: metrics_b");
    assertThat(config).contains("name: metrics_b");
    BrokerClient leader = new BrokerClient(LocalCluster.url(process("controller-2")));

    StreamedCounts stream = StreamedCounts.start(broker);
    Map<String, String> finished;
    try {
      stream.awaitAnswers(stream.answered() + 3);
      leader.onboard(config);
      // Kill -9 the leader once some segments are built and some are not.
      long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
      JsonNode status;
      do {
        status = leader.table(second).orElseThrow();
        assertThat(System.nanoTime()).as("indexing under way: %s", status).isLessThan(deadline);
      } while (status.path("segmentsReady").asLong() < 3);
      ClusterProcess killed = process("controller-2");
      ProcessHandle.of(killed.pid()).orElseThrow().destroyForcibly();
      ProcessHandle.of(killed.pid()).ifPresent(handle -> handle.onExit().join());
      assertThat(status.path("segmentsPending").asLong())
          .as("segments still to build when the leader was killed: %s", status)
          .isPositive();
      finished = readySegments(second);
      assertThat(finished).as("segments recorded ready before the kill").isNotEmpty();
      Map<Path, java.nio.file.attribute.FileTime> before = segmentObjects(finished);

      // The standby leads, builds what was left, and the broker serves the whole table.
      awaitController("controller-1", "leader");
      BrokerClient next = new BrokerClient(LocalCluster.url(process("controller-1")));
      deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
      while (true) {
        JsonNode now = next.table(second).orElse(null);
        JsonNode count =
            broker.query("SELECT COUNT(*) FROM " + second, Optional.of(Duration.ofSeconds(30)));
        if (now != null
            && now.path("segmentsPending").asLong(-1) == 0
            && count.path("exceptions").isEmpty()
            && count.path("resultTable").path("rows").path(0).path(0).asLong() == rows) {
          assertThat(now.path("segmentsFailed").asLong()).isZero();
          break;
        }
        assertThat(System.nanoTime())
            .as("%s indexed and served after the takeover: %s / %s", second, now, count)
            .isLessThan(deadline);
        Thread.sleep(200);
      }
      assertThat(readySegments(second))
          .as("every segment ready before the kill is still ready")
          .containsAllEntriesOf(finished);
      assertThat(segmentObjects(finished))
          .as("segments finished before the kill were not built again")
          .isEqualTo(before);
      stream.awaitAnswers(stream.answered() + 3);
    } finally {
      stream.stop();
    }
    assertThat(stream.failures())
        .as("answers while the leader was replaced mid-indexing")
        .isEmpty();
  }

  @Test
  @Order(10)
  void downStopsEveryProcess() throws Exception {
    int stopped =
        LocalCluster.down(
            runDir, new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
    assertThat(stopped).isEqualTo(processes.size() - 1); // controller-1 was killed
    assertThat(processes).noneMatch(ClusterProcess::alive);
    assertThat(LocalCluster.processes(runDir)).isEmpty();
  }

  /**
   * Onboards the table again with a 1 s refresh interval (its segments are kept: the config's
   * indexes are the same), so that appends become visible within seconds.
   */
  private static void followSnapshotsEverySecond() {
    String config =
        io.shelfmark.config.ConfigWriter.write(
                io.shelfmark.config.ConfigLoader.loadBundledTable(
                    io.shelfmark.config.ConfigLoader.BENCHMARK_TABLE_RESOURCE),
                io.shelfmark.config.ConfigFormat.YAML)
            .replaceAll("(?m)^refresh-interval: .*$", "refresh-interval: 1s");
    assertThat(config).contains("refresh-interval: 1s");
    new BrokerClient(LocalCluster.url(process("controller-1"))).onboard(config);
  }

  /**
   * Commits an append of a copy of one of the table's data files (a new path in the lake) and
   * returns its rows.
   */
  private static long appendCopyOfAFile(String name) throws Exception {
    long rows = changeTable(table -> appendCopy(table, name, false)).recordCount();
    duckDb.registerTable("obs.metrics", dataFiles());
    return rows;
  }

  /** Waits until the controller {@code name}'s status line says {@code role}. */
  private static void awaitController(String name, String role) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (ClusterStatus.lines(processes).stream()
        .noneMatch(line -> line.process().name().equals(name) && line.detail().equals(role))) {
      assertThat(System.nanoTime()).as("%s is %s within 60 s", name, role).isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  /** The segment records of {@code table} in state ready, by data file: their locations. */
  private static Map<String, String> readySegments(String table) throws Exception {
    Map<String, String> ready = new java.util.TreeMap<>();
    try (var client = LocalCluster.zookeeperClient(process("zookeeper"))) {
      var nodes = new io.shelfmark.cluster.state.ZNodes(LocalCluster.CLUSTER_NAME);
      new io.shelfmark.cluster.state.VersionedJson(client)
          .children(nodes.segments(table), JsonNode.class)
          .values()
          .forEach(
              record -> {
                if (record.path("state").asText().equals("ready")) {
                  ready.put(record.path("dataFile").asText(), record.path("location").asText());
                }
              });
    }
    return ready;
  }

  /** The last-modified times of the segment objects {@code segments} name, in the lake's bucket. */
  private static Map<Path, java.nio.file.attribute.FileTime> segmentObjects(
      Map<String, String> segments) throws java.io.IOException {
    Map<Path, java.nio.file.attribute.FileTime> times = new java.util.TreeMap<>();
    for (String location : segments.values()) {
      Path object = runDir.resolve("lake/s3").resolve(location.substring("s3://".length()));
      times.put(object, Files.getLastModifiedTime(object));
    }
    return times;
  }

  /** A change to the lake's table, committed through its catalog. */
  private interface TableChange<T> {
    T apply(org.apache.iceberg.Table table) throws Exception;
  }

  private static <T> T changeTable(TableChange<T> change) throws Exception {
    return withCatalog(
        catalog -> change.apply(catalog.loadTable(TableIdentifier.of("obs", "metrics"))));
  }

  /** Work with the lake's catalog. */
  private interface CatalogWork<T> {
    T apply(Catalog catalog) throws Exception;
  }

  private static <T> T withCatalog(CatalogWork<T> work) throws Exception {
    ClusterConfig lake =
        ConfigLoader.withoutEnvironment().loadCluster(process("lake").configFile().orElseThrow());
    try (ObjectStore store = ObjectStores.open(lake.storage())) {
      Catalog catalog = Catalogs.open(lake.catalog().orElseThrow(), store);
      try {
        return work.apply(catalog);
      } finally {
        if (catalog instanceof Closeable closeable) {
          closeable.close();
        }
      }
    }
  }

  /**
   * Appends a copy of one of {@code table}'s data files under {@code name}; with {@code corrupt},
   * every byte between the leading magic and the footer is overwritten, so the footer (schema, row
   * counts, statistics) still reads but no page does.
   */
  private static org.apache.iceberg.DataFile appendCopy(
      org.apache.iceberg.Table table, String name, boolean corrupt) throws Exception {
    org.apache.iceberg.DataFile source;
    try (var tasks = table.newScan().planFiles()) {
      source = tasks.iterator().next().file();
    }
    String path = source.location();
    String copyPath = path.substring(0, path.lastIndexOf('/') + 1) + name + ".parquet";
    Path from = runDir.resolve("lake/s3").resolve(path.substring("s3://".length()));
    Path to = runDir.resolve("lake/s3").resolve(copyPath.substring("s3://".length()));
    Files.copy(from, to);
    if (corrupt) {
      byte[] bytes = Files.readAllBytes(to);
      int footer =
          java.nio.ByteBuffer.wrap(bytes, bytes.length - 8, 4)
              .order(java.nio.ByteOrder.LITTLE_ENDIAN)
              .getInt();
      java.util.Arrays.fill(bytes, 4, bytes.length - 8 - footer, (byte) 0x5A);
      Files.write(to, bytes);
    }
    org.apache.iceberg.DataFile copy =
        org.apache.iceberg.DataFiles.builder(table.specs().get(source.specId()))
            .copy(source)
            .withPath(copyPath)
            .build();
    table.newAppend().appendFile(copy).commit();
    return copy;
  }

  private static long rowsOf(String path) throws Exception {
    return changeTable(
        table -> {
          try (var tasks = table.newScan().planFiles()) {
            for (var task : tasks) {
              if (task.file().location().equals(path)) {
                return task.file().recordCount();
              }
            }
          }
          throw new AssertionError(path + " is not in the table");
        });
  }

  /**
   * A stream of {@code SELECT COUNT(*)} through the broker on a thread of its own, checking that
   * every answer is whole: one count per snapshot id, whatever the moment it was asked.
   */
  private static final class StreamedCounts {
    private final Map<Long, Long> countBySnapshot = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger answered = new AtomicInteger();
    private final AtomicBoolean stop = new AtomicBoolean();
    private Thread thread;

    static StreamedCounts start(BrokerClient broker) {
      StreamedCounts stream = new StreamedCounts();
      stream.thread =
          Thread.ofPlatform()
              .start(
                  () -> {
                    while (!stream.stop.get()) {
                      try {
                        JsonNode response =
                            broker.query(
                                "SELECT COUNT(*) FROM obs.metrics",
                                Optional.of(Duration.ofSeconds(20)));
                        if (!response.path("exceptions").isEmpty()) {
                          stream.failures.add("error: " + response.path("exceptions"));
                          continue;
                        }
                        long snapshot = response.path("snapshotId").asLong();
                        long count =
                            response.path("resultTable").path("rows").path(0).path(0).asLong();
                        Long earlier = stream.countBySnapshot.putIfAbsent(snapshot, count);
                        if (earlier != null && earlier != count) {
                          stream.failures.add(
                              "snapshot %d counted %d, then %d"
                                  .formatted(snapshot, earlier, count));
                        }
                        stream.answered.incrementAndGet();
                      } catch (RuntimeException e) {
                        stream.failures.add(e.toString());
                      }
                    }
                  });
      return stream;
    }

    Map<Long, Long> countBySnapshot() {
      return countBySnapshot;
    }

    List<String> failures() {
      return failures;
    }

    int answered() {
      return answered.get();
    }

    void awaitAnswers(int count) throws InterruptedException {
      TestLocalCluster.awaitAnswers(answered, count);
    }

    void awaitSnapshots(int count) throws InterruptedException {
      long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
      while (countBySnapshot.size() < count) {
        assertThat(System.nanoTime())
            .as("%s snapshots answered within 2 minutes (%s)", count, countBySnapshot)
            .isLessThan(deadline);
        Thread.sleep(100);
      }
    }

    void stop() throws InterruptedException {
      stop.set(true);
      thread.join();
    }
  }

  /** The files each live server reports serving, by process name, once {@code settled} holds. */
  private static Map<String, Long> awaitServed(
      java.util.function.Predicate<Map<String, Long>> settled, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    Map<String, Long> counts;
    do {
      counts = new java.util.TreeMap<>();
      for (ClusterStatus.ProcessLine line : ClusterStatus.lines(processes)) {
        java.util.regex.Matcher count =
            java.util.regex.Pattern.compile("obs\\.metrics: (\\d+) files").matcher(line.detail());
        if (line.alive() && line.process().role().equals("server") && count.find()) {
          counts.put(line.process().name(), Long.parseLong(count.group(1)));
        }
      }
      if (settled.test(counts)) {
        return counts;
      }
      Thread.sleep(200);
    } while (System.nanoTime() < deadline);
    throw new AssertionError(what + " within 2 minutes; files served by server: " + counts);
  }

  private static long total(Map<String, Long> counts) {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }

  private static void awaitAnswers(AtomicInteger answered, int count) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (answered.get() < count) {
      assertThat(System.nanoTime()).as("%s answers within 2 minutes", count).isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  private static void compare(
      String what,
      String sql,
      QueryResult expected,
      boolean ordered,
      Map<Integer, Double> approximate,
      List<String> failures) {
    JsonNode response = broker.query(sql, Optional.of(Duration.ofSeconds(60)));
    if (!response.path("exceptions").isEmpty()) {
      failures.add(what + ": " + response.path("exceptions"));
      return;
    }
    ResultComparison.difference(
            expected,
            TestQuickstart.resultOf(response),
            ordered,
            ResultComparison.DEFAULT_TOLERANCE,
            approximate)
        .ifPresent(difference -> failures.add(what + ": " + difference));
  }

  private static ClusterProcess process(String name) {
    return processes.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
  }

  /** The table's data files in the lake's directory, for DuckDB. */
  private static List<Path> dataFiles() throws Exception {
    ClusterConfig lake =
        ConfigLoader.withoutEnvironment().loadCluster(process("lake").configFile().orElseThrow());
    try (ObjectStore store = ObjectStores.open(lake.storage())) {
      Catalog catalog = Catalogs.open(lake.catalog().orElseThrow(), store);
      try {
        TableSnapshot snapshot =
            TableSnapshot.current(catalog.loadTable(TableIdentifier.of("obs", "metrics")));
        List<Path> files = new ArrayList<>();
        for (DataFileInfo file : snapshot.dataFiles()) {
          files.add(runDir.resolve("lake/s3").resolve(file.path().substring("s3://".length())));
        }
        return files;
      } finally {
        if (catalog instanceof Closeable closeable) {
          closeable.close();
        }
      }
    }
  }
}
