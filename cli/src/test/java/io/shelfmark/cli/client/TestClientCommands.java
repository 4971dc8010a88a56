package io.shelfmark.cli.client;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.broker.http.BrokerHttpServer;
import io.shelfmark.broker.http.BrokerRoutes;
import io.shelfmark.broker.query.QueryErrorCode;
import io.shelfmark.broker.query.QueryRequest;
import io.shelfmark.broker.query.QueryResponse;
import io.shelfmark.broker.query.QueryStatistics;
import io.shelfmark.broker.table.TableAdminException;
import io.shelfmark.broker.table.TableStatus;
import io.shelfmark.cli.Shelfmark;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The client commands ({@code query}, {@code table ...}) against a real broker HTTP endpoint whose
 * query service and table admin are small in-test implementations: what is under test is the
 * commands' requests, rendering and errors.
 */
class TestClientCommands {
  private final ExecutorService executor = Executors.newFixedThreadPool(2);
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private final AtomicInteger polls = new AtomicInteger();
  private final AtomicReference<QueryRequest> lastQuery = new AtomicReference<>();
  private BrokerHttpServer server;
  private String url;

  @BeforeEach
  void start() throws Exception {
    server =
        new BrokerHttpServer(
            new BrokerRoutes(
                this::answer,
                () -> List.of(status(polls.get() < 2 ? TableStatus.INDEXING : TableStatus.SERVING)),
                Optional.of(this::onboard),
                List.of("controller", "broker"),
                () -> true,
                Duration.ofSeconds(10)));
    url = "http://127.0.0.1:" + server.start("127.0.0.1", 0, executor);
  }

  /** The in-test query service: a fixed answer, or an error for SQL containing "boom". */
  private QueryResponse answer(QueryRequest request) {
    lastQuery.set(request);
    if (request.sql().contains("boom")) {
      return QueryResponse.failed(
          QueryErrorCode.SQL_PARSING, "Cannot resolve column boom at line 1");
    }
    return new QueryResponse(
        Optional.of(
            new QueryResponse.ResultTable(
                List.of("service", "total_value"),
                List.of("STRING", "DOUBLE"),
                List.of(Arrays.asList("checkout", 12.5), Arrays.asList(null, 3.0)))),
        List.of(),
        new QueryStatistics(25, 1000, 4, 4, 1, 6, 4096, 3, 1, 2, 77));
  }

  @AfterEach
  void stop() {
    server.close();
    executor.shutdownNow();
  }

  private TableStatus status(String state) {
    polls.incrementAndGet();
    boolean done = state.equals(TableStatus.SERVING);
    return new TableStatus(
        "obs.metrics",
        state,
        77,
        4,
        1000,
        40_000,
        done ? 1000 : 250,
        done ? 3 : 1,
        done ? 0 : 3,
        done ? 1 : 0,
        0,
        done ? 8_000 : 2_000,
        "off",
        done
            ? List.of(new TableStatus.SegmentFailure("s3://lake/f4.parquet", "corrupt page"))
            : List.of());
  }

  private TableStatus onboard(String config) throws TableAdminException {
    if (config.contains("nope")) {
      throw new TableAdminException(
          "Cannot onboard table obs.nope", List.of("table.name: no such table"));
    }
    polls.set(0);
    return status(TableStatus.INDEXING);
  }

  private int run(String... args) {
    CommandLine commandLine = Shelfmark.commandLine();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.add("--broker=" + url);
    return commandLine.execute(all.toArray(String[]::new));
  }

  @Test
  void queryPrintsAnAlignedTableAndStatistics() {
    assertThat(run("query", "SELECT x FROM obs.metrics")).isZero();
    assertThat(out.toString())
        .contains("| service  | total_value |")
        .contains("| checkout | 12.5        |")
        .contains("| NULL     | 3.0         |")
        .contains("2 rows in ")
        .contains("docs matched 25 of 1,000; segments queried 4, pruned 6")
        .contains("storage 4,096 bytes in 3 requests; cache hits 1, misses 2; snapshot 77");
  }

  @Test
  void queryErrorsExitNonZeroWithTheMessage() {
    assertThat(run("query", "SELECT boom FROM obs.metrics")).isEqualTo(1);
    assertThat(out.toString())
        .contains("Error 150 (SQL_PARSING): Cannot resolve column boom at line 1");
  }

  @Test
  void queryOptionsReachTheBrokerAsQueryOptions() {
    assertThat(
            run(
                "query",
                "--option",
                "useStarTree=false",
                "--option",
                "chunkReads=whole",
                "SELECT x FROM obs.metrics"))
        .isZero();
    assertThat(lastQuery.get().engineOptions())
        .containsExactlyInAnyOrderEntriesOf(Map.of("useStarTree", "false", "chunkReads", "whole"));
    // The broker refuses a bad value of an engine switch, naming it.
    assertThat(run("query", "--option", "useStarTree=fasle", "SELECT x FROM obs.metrics"))
        .isEqualTo(1);
    assertThat(out.toString()).contains("Cannot use queryOptions useStarTree=fasle");
  }

  @Test
  void queryOptionsThatCannotBeSentAreRefusedBeforeSending() {
    lastQuery.set(null);
    assertThat(run("query", "--option", "a=b;c", "SELECT x FROM obs.metrics")).isNotZero();
    assertThat(run("query", "--snapshot", "5", "--option", "snapshotId=6", "SELECT x")).isNotZero();
    assertThat(run("query", "--timeout-ms", "5", "--option", "timeoutMs=6", "SELECT x"))
        .isNotZero();
    assertThat(err.toString())
        .contains("Cannot use --option a=b;c: give NAME=VALUE, without ';'")
        .contains("Cannot use --option snapshotId=6: snapshotId is also given by its own flag")
        .contains("Cannot use --option timeoutMs=6: timeoutMs is also given by its own flag");
    assertThat(lastQuery.get()).isNull();
  }

  @Test
  void queryJsonPrintsTheResponse() {
    assertThat(run("query", "--json", "SELECT x FROM obs.metrics")).isZero();
    assertThat(out.toString()).contains("\"resultTable\"").contains("\"numDocsScanned\" : 25");
  }

  @Test
  void unreachableBrokerSaysWhatToDo() {
    CommandLine commandLine = Shelfmark.commandLine();
    commandLine.setErr(new PrintWriter(err, true));
    assertThat(commandLine.execute("query", "--broker=http://127.0.0.1:1", "SELECT 1"))
        .isEqualTo(1);
    assertThat(err.toString())
        .contains("Cannot reach a Shelfmark broker at http://127.0.0.1:1")
        .doesNotContain("\tat ");
  }

  @Test
  void onboardWaitsForIndexingAndPrintsTheSummary(@TempDir Path dir) throws Exception {
    Path config = dir.resolve("t.yaml");
    Files.writeString(config, "table: {catalog: c, namespace: obs, name: metrics}\n", UTF_8);
    assertThat(run("table", "onboard", config.toString())).isZero();
    assertThat(out.toString())
        .contains("Onboarding obs.metrics at snapshot 77: 4 data files, 1,000 rows, 40,000 bytes")
        .contains("state           SERVING")
        .contains("segments        3 ready, 0 pending, 1 failed; 8,000 bytes (20.0% of the data)")
        .contains("failed        s3://lake/f4.parquet: corrupt page");
    // One segment was ready when onboarding answered: reused, not counted as indexed now.
    assertThat(out.toString())
        .containsPattern(
            "Indexed 2 of 4 files in [0-9.]+ s \\([0-9,]+ rows/s\\); 1 file's segment reused from an"
                + " earlier build");
  }

  @Test
  void onboardRejectionListsViolations(@TempDir Path dir) throws Exception {
    Path config = dir.resolve("t.yaml");
    Files.writeString(config, "table: {name: nope}\n", UTF_8);
    assertThat(run("table", "onboard", config.toString())).isEqualTo(1);
    assertThat(err.toString())
        .contains("Cannot onboard table obs.nope")
        .contains("  - table.name: no such table");

    assertThat(run("table", "onboard", dir.resolve("missing.yaml").toString())).isEqualTo(1);
    assertThat(err.toString()).contains("Cannot read table config").contains("no such file");
  }

  @Test
  void listAndStatus() {
    assertThat(run("table", "list")).isZero();
    assertThat(out.toString()).contains("obs.metrics").contains("TABLE").contains("INDEX/DATA");
    assertThat(run("table", "status", "obs.metrics")).isZero();
    assertThat(out.toString()).contains("snapshot        77");
    assertThat(run("table", "status", "obs.other")).isEqualTo(1);
    assertThat(err.toString()).contains("Cannot find table obs.other");
  }
}
