package io.shelfmark.cli.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.cli.quickstart.Quickstart;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile load against a real node over real HTTP (issue 21, findings 2–4): heavy scans in parallel
 * with many clients of cheap index-only counts. Before the admission lanes, 8 heavy {@code GROUP BY
 * logical_timestamp} queries answered at 2–4 times their timeout and a 2 ms index-only count waited
 * up to 11 s behind them; a 50,000-item {@code NOT IN} took the heap to OutOfMemoryError.
 *
 * <p>Kept short for CI on 2 cores: a few seconds of load on a 200,000-row table.
 */
class TestLoadHostile {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long ROWS = 200_000;
  private static final Duration LOAD = Duration.ofSeconds(8);
  private static final int HEAVY_CLIENTS = 8;
  private static final int CHEAP_CLIENTS = 32;

  /**
   * Long enough that its 10% (+100 ms) allowance is larger than the scheduling delays of a shared
   * 2-core machine (a waking thread waited up to 370 ms for a core at a load average of 17), short
   * enough that the queued heavy queries time out during the load.
   */
  private static final Duration HEAVY_TIMEOUT = Duration.ofSeconds(3);

  /**
   * The deadline of one more heavy client: twice one heavy query's time alone, at least 200 ms and
   * at most 1 s. Its queries wait behind the other 8 heavy clients' in their lane (about 8 times
   * one query), so they answer deadline timeouts, which the test holds to the allowance however
   * fast the heavy query itself has become: a fixed 1 s stopped timing out once partial groups
   * became columns (a heavy query went from about 150 to about 55 ms on an idle machine). At 200 ms
   * with the collector's 100 ms pauses of before, answers came 100-140 ms past the deadline.
   */
  private static Duration shortTimeout(Duration heavyAlone) {
    Duration twice = heavyAlone.multipliedBy(2);
    return twice.compareTo(Duration.ofMillis(200)) < 0
        ? Duration.ofMillis(200)
        : twice.compareTo(Duration.ofSeconds(1)) > 0 ? Duration.ofSeconds(1) : twice;
  }

  private static final Duration CHEAP_PERIOD = Duration.ofMillis(500);

  /** One row per logical_timestamp: about as many groups as rows, sorted. */
  private static final String HEAVY =
      "SELECT logical_timestamp, COUNT(*), SUM(sum_rollup) FROM obs.metrics"
          + " GROUP BY logical_timestamp ORDER BY 2 DESC, 1 LIMIT 5";

  @TempDir static Path directory;
  private static Quickstart quickstart;
  private static HttpClient http;

  @BeforeAll
  static void start() throws Exception {
    quickstart =
        Quickstart.start(
            new Quickstart.Options(ROWS, 11, directory, 0, true),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    http = HttpClient.newBuilder().executor(Executors.newVirtualThreadPerTaskExecutor()).build();
  }

  @AfterAll
  static void stop() throws Exception {
    if (quickstart != null) {
      quickstart.close();
    }
  }

  private record Answer(int status, JsonNode body, Duration elapsed) {
    /** How long the node took, from reading the request to writing the answer. */
    Duration served() {
      return Duration.ofMillis(body.path("timeUsedMs").asLong());
    }

    String errorType() {
      JsonNode exceptions = body.path("exceptions");
      return exceptions.isEmpty() ? "" : exceptions.get(0).path("errorType").asText();
    }
  }

  private static Answer query(String sql, Duration timeout) throws Exception {
    String body =
        JSON.writeValueAsString(
            java.util.Map.of("sql", sql, "queryOptions", "timeoutMs=" + timeout.toMillis()));
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(quickstart.url() + "/query/sql"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    long started = System.nanoTime();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
    return new Answer(response.statusCode(), JSON.readTree(response.body()), elapsed);
  }

  @Test
  void heavyQueriesKeepTheirDeadlinesAndCheapCountsStayFast() throws Exception {
    String cheap = Quickstart.BENCHMARK_QUERIES.get("Q1");
    long expectedCount =
        query(cheap, Duration.ofSeconds(30))
            .body()
            .path("resultTable")
            .path("rows")
            .get(0)
            .get(0)
            .asLong();
    // Warm the heavy path once (its first run compiles the grouping code), then time it alone.
    query(HEAVY, Duration.ofSeconds(60));
    Duration shortTimeout = shortTimeout(query(HEAVY, Duration.ofSeconds(60)).served());

    // The same cheap clients alone first: what this machine gives them without heavy queries
    // (printed, for reading the figures below on a loaded machine).
    List<Answer> alone = Collections.synchronizedList(new ArrayList<>());
    long aloneEnd = System.nanoTime() + Duration.ofSeconds(3).toNanos();
    try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<?>> running = new ArrayList<>();
      for (int i = 0; i < CHEAP_CLIENTS; i++) {
        int client = i;
        running.add(clients.submit(() -> cheapClient(cheap, client, aloneEnd, alone)));
      }
      for (Future<?> client : running) {
        client.get();
      }
    }
    List<Duration> aloneLatencies = new ArrayList<>(alone.stream().map(Answer::elapsed).toList());
    Collections.sort(aloneLatencies);
    Duration aloneP99 = aloneLatencies.get((int) Math.ceil(aloneLatencies.size() * 0.99) - 1);
    System.out.printf(
        "cheap alone: %d answered, p50 %d ms, p99 %d ms at the client%n",
        aloneLatencies.size(),
        aloneLatencies.get(aloneLatencies.size() / 2).toMillis(),
        aloneP99.toMillis());

    List<Answer> heavy = Collections.synchronizedList(new ArrayList<>());
    List<Answer> shortDeadline = Collections.synchronizedList(new ArrayList<>());
    List<Answer> cheapAnswers = Collections.synchronizedList(new ArrayList<>());
    long end = System.nanoTime() + LOAD.toNanos();
    try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<?>> running = new ArrayList<>();
      for (int i = 0; i < HEAVY_CLIENTS; i++) {
        running.add(
            clients.submit(
                () -> {
                  while (System.nanoTime() < end) {
                    heavy.add(query(HEAVY, HEAVY_TIMEOUT));
                  }
                  return null;
                }));
      }
      running.add(
          clients.submit(
              () -> {
                while (System.nanoTime() < end) {
                  shortDeadline.add(query(HEAVY, shortTimeout));
                }
                return null;
              }));
      for (int i = 0; i < CHEAP_CLIENTS; i++) {
        int client = i;
        running.add(clients.submit(() -> cheapClient(cheap, client, end, cheapAnswers)));
      }
      for (Future<?> client : running) {
        client.get();
      }
    }

    List<Duration> latencies = new ArrayList<>();
    List<Duration> served = new ArrayList<>();
    for (Answer answer : cheapAnswers) {
      latencies.add(answer.elapsed());
      served.add(answer.served());
    }
    Collections.sort(latencies);
    Collections.sort(served);
    Duration p99 = latencies.get((int) Math.ceil(latencies.size() * 0.99) - 1);
    Duration servedP99 = served.get((int) Math.ceil(served.size() * 0.99) - 1);
    long timedOut = heavy.stream().filter(a -> a.errorType().equals("TIMEOUT")).count();
    System.out.printf(
        "heavy: %d answered, %d timed out, slowest %d ms served, %d ms at the client; cheap: %d"
            + " answered, p50 %d ms, p99 %d ms, max %d ms at the client; p99 %d ms served%n",
        heavy.size() - timedOut,
        timedOut,
        heavy.stream().map(Answer::served).max(Duration::compareTo).orElseThrow().toMillis(),
        heavy.stream().map(Answer::elapsed).max(Duration::compareTo).orElseThrow().toMillis(),
        latencies.size(),
        latencies.get(latencies.size() / 2).toMillis(),
        p99.toMillis(),
        latencies.getLast().toMillis(),
        servedP99.toMillis());

    // Every heavy query answered or timed out within its deadline + 10% + 100 ms, as the node
    // measures it (from reading the request to writing the answer). The clients share this JVM
    // and its 2 cores with the node, so their own wall time adds their scheduling: it is held to
    // a looser bound that still fails for a deadline that does not hold (they ran to 3-4 times).
    Duration allowed = HEAVY_TIMEOUT.plus(HEAVY_TIMEOUT.dividedBy(10)).plusMillis(100);
    assertThat(heavy).hasSizeGreaterThanOrEqualTo(HEAVY_CLIENTS);
    for (Answer answer : heavy) {
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.errorType()).as("heavy query %s", answer.body()).isIn("", "TIMEOUT");
      assertThat(answer.served()).as("heavy query %s", answer.body()).isLessThan(allowed);
      assertThat(answer.elapsed())
          .as("heavy query at the client")
          .isLessThan(allowed.multipliedBy(2));
    }
    // The short-deadline client's queries wait behind the heavy lane's: they time out, and each
    // answers within its own deadline + 10% + 100 ms.
    Duration shortAllowed = shortTimeout.plus(shortTimeout.dividedBy(10)).plusMillis(100);
    long shortTimedOut =
        shortDeadline.stream().filter(a -> a.errorType().equals("TIMEOUT")).count();
    System.out.printf(
        "short deadline (%d ms): %d answered, %d timed out, slowest %d ms served%n",
        shortTimeout.toMillis(),
        shortDeadline.size() - shortTimedOut,
        shortTimedOut,
        shortDeadline.stream()
            .map(Answer::served)
            .max(Duration::compareTo)
            .orElseThrow()
            .toMillis());
    assertThat(shortTimedOut).as("queries that waited past their deadline").isPositive();
    for (Answer answer : shortDeadline) {
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.errorType()).as("short query %s", answer.body()).isIn("", "TIMEOUT");
      assertThat(answer.served()).as("short query %s", answer.body()).isLessThan(shortAllowed);
    }

    // Cheap index-only counts: all answered, correctly, and not starved (the p99 bound below).
    assertThat(cheapAnswers).hasSizeGreaterThan(CHEAP_CLIENTS);
    for (Answer answer : cheapAnswers) {
      assertThat(answer.errorType()).as("cheap query %s", answer.body()).isEmpty();
      assertThat(answer.body().path("resultTable").path("rows").get(0).get(0).asLong())
          .isEqualTo(expectedCount);
    }
    // Issue 21 asks for a p99 under 100 ms, held as the node serves the counts (from reading the
    // request to writing the answer) and at the clients, which share this JVM's 2 cores and its
    // collector with the node. Since partial groups became columns the heavy queries' young pauses
    // are p90 15 ms (95 ms before): on an idle machine the p99 was 6-10 ms served and 21-26 ms at
    // the clients (27-83 and 76-114 ms before). At load averages of 10-14 from other builds the
    // clients saw 112-334 ms, so the test wants the machine to itself, as CI gives it.
    assertThat(servedP99)
        .as("cheap counts' p99 as the node serves them")
        .isLessThan(Duration.ofMillis(100));
    assertThat(p99).as("cheap counts' p99 at the clients").isLessThan(Duration.ofMillis(100));

    // The node is healthy afterwards and still answers correctly.
    assertThat(
            query(cheap, Duration.ofSeconds(10))
                .body()
                .path("resultTable")
                .path("rows")
                .get(0)
                .get(0)
                .asLong())
        .isEqualTo(expectedCount);
  }

  /**
   * A dashboard panel's pace: one count per CHEAP_PERIOD per client, 64 a second in all. Back to
   * back, 32 clients would measure how many counts 2 shared cores answer a second, not whether
   * heavy queries starve them.
   */
  private static Void cheapClient(String sql, int client, long end, List<Answer> answers)
      throws Exception {
    // Independent clients are not in step: each starts at its own point of the period. All 32
    // sending at the same instant measured how long 2 cores take to answer a burst of 32 counts
    // (the last one waited for the other 31: a p99 of 70 ms without any heavy query), not whether
    // heavy queries starve them.
    long next = System.nanoTime() + CHEAP_PERIOD.toNanos() * client / CHEAP_CLIENTS;
    LockSupport.parkNanos(next - System.nanoTime());
    while (next < end) {
      answers.add(query(sql, Duration.ofSeconds(10)));
      next += CHEAP_PERIOD.toNanos();
      long wait = next - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait); // the pace of a client, not a wait for the node
      }
    }
    return null;
  }

  @Test
  void aTenThousandItemNotInAnswersWithoutExhaustingTheHeap() throws Exception {
    StringBuilder items = new StringBuilder("'node-none'");
    // The longest list broker.sql.max-in-list-size allows by default (10,000 values): item by
    // item it cost 10,000 vectors of a batch's size per batch (330 MB for 4,096 rows).
    for (int i = 1; i < 10_000; i++) {
      items.append(", 'x").append(i).append('\'');
    }
    Runtime runtime = Runtime.getRuntime();
    Answer notIn =
        query(
            "SELECT COUNT(*) FROM obs.metrics WHERE dimensions['node'] NOT IN (" + items + ")",
            Duration.ofSeconds(60));
    assertThat(notIn.status()).as("%s", notIn.body()).isEqualTo(200);
    assertThat(notIn.errorType()).as("%s", notIn.body()).isEmpty();
    Answer all =
        query(
            "SELECT COUNT(*) FROM obs.metrics WHERE dimensions['node'] IS NOT NULL",
            Duration.ofSeconds(60));
    assertThat(notIn.body().path("resultTable").path("rows").get(0).get(0).asLong())
        .isEqualTo(all.body().path("resultTable").path("rows").get(0).get(0).asLong());
    // Used to build one vector of a batch's size per item and batch: gigabytes.
    assertThat(runtime.totalMemory() - runtime.freeMemory()).isLessThan(runtime.maxMemory());
  }

  @Test
  void limitsAnswerResourceExhaustedNamingTheirKey() throws Exception {
    Answer tooMany =
        query("SELECT metric, org_id FROM obs.metrics LIMIT 200000", Duration.ofSeconds(60));
    assertThat(tooMany.errorType()).isEqualTo("RESOURCE_EXHAUSTED");
    assertThat(tooMany.body().path("exceptions").get(0).path("message").asText())
        .contains("query.max-rows");
  }
}
