package io.shelfmark.cli.node.warmup;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.client.BrokerClientException;
import io.shelfmark.config.cluster.WarmupConfig;
import io.shelfmark.controller.table.ServedTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warms a node's JVM before it reports its first table ready: once that table's segments are all
 * built (and published to the broker), a background thread runs {@link WarmupQueries} over HTTP
 * against the node's own broker for {@link WarmupConfig#rounds()} rounds, emptying the node's
 * caches after each round — so every round decodes and reads as a cold query does, and the first
 * user query finds a compiled query path but empty caches. Then it plans and prunes each query
 * {@link #PLANNING_RUNS} times more without executing it: the rounds plan each text only once (the
 * broker keeps plans by SQL text), too few calls for the JIT to compile the planner, and a user's
 * first new SQL text then took about 6 ms to plan where a compiled planner takes 0.2 ms. Warm-up
 * happens once per process: the JIT's work serves every table, so tables onboarded later are ready
 * as soon as their segments are.
 *
 * <p>A warm-up query that fails is logged and skipped; warm-up never fails a table. Thread safe:
 * {@link #accept} is a table registry listener.
 */
public final class NodeWarmup implements Consumer<ServedTable>, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(NodeWarmup.class);

  private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(30);

  /**
   * Plan-only runs of each warm-up query: enough calls for the JIT's optimising compiler (some
   * thousands per method), a second or two of warm-up.
   */
  static final int PLANNING_RUNS = 300;

  /**
   * Plans and prunes a SQL text without executing it, returning how many files pruning kept. Throws
   * for SQL that does not plan.
   */
  @FunctionalInterface
  public interface Planning {
    int prepare(String sql);
  }

  /** Where warm-up is, as table statuses report it ({@code warmup}). */
  public enum State {
    /** Warm-up is turned off ({@code server.warmup.rounds: 0}). */
    OFF("off"),
    /** Waiting for the first table whose segments are all ready. */
    PENDING("pending"),
    /** Running: the node is not ready for measured queries yet. */
    RUNNING("running"),
    /** Finished (or gave up, see the log): tables are ready once their segments are. */
    DONE("done");

    private final String label;

    State(String label) {
      this.label = label;
    }

    /** The word table statuses show. */
    public String label() {
      return label;
    }
  }

  private final WarmupConfig config;
  private final BrokerClient broker;
  private final Runnable emptyCaches;
  private final Planning planning;
  private final AtomicReference<State> state;
  private final AtomicReference<Summary> summary = new AtomicReference<>();
  private volatile boolean closed;

  /**
   * What a finished warm-up did.
   *
   * @param table the table it warmed up on
   * @param queries the distinct warm-up queries
   * @param rounds how many times they ran
   * @param failed how many runs failed (the first failure is logged)
   * @param plans how many plan-only runs followed the rounds
   * @param millis how long it took
   */
  public record Summary(String table, int queries, int rounds, int failed, int plans, long millis) {
    public Summary {
      requireNonNull(table, "table is null");
    }
  }

  /**
   * @param broker a client of the node's own broker, with the node's warm-up credentials when the
   *     broker requires them
   * @param emptyCaches empties every cache a query may fill (pages, decompressed pages, posting
   *     lists)
   * @param planning the node's broker planning and pruning without executing
   */
  public NodeWarmup(
      WarmupConfig config, BrokerClient broker, Runnable emptyCaches, Planning planning) {
    this.config = requireNonNull(config, "config is null");
    this.broker = requireNonNull(broker, "broker is null");
    this.emptyCaches = requireNonNull(emptyCaches, "emptyCaches is null");
    this.planning = requireNonNull(planning, "planning is null");
    this.state = new AtomicReference<>(config.enabled() ? State.PENDING : State.OFF);
  }

  /** Where warm-up is now. */
  public State state() {
    return state.get();
  }

  /** What the warm-up did, once it ran queries. */
  public Optional<Summary> summary() {
    return Optional.ofNullable(summary.get());
  }

  /** Starts warm-up on {@code table} if it is the first with every segment settled. */
  @Override
  public void accept(ServedTable table) {
    // Settled with no segment at all (every build failed), it still warms up on the files alone:
    // waiters must not wait for a warm-up that never starts.
    if (state.get() != State.PENDING || table.snapshotId() < 0 || table.segmentsPending() > 0) {
      return;
    }
    if (state.compareAndSet(State.PENDING, State.RUNNING)) {
      Thread.ofPlatform()
          .daemon(true)
          .name("node-warmup")
          .start(
              () -> {
                try {
                  run(table);
                } catch (RuntimeException e) {
                  log.warn("Warm-up on table {} stopped: {}", table.sqlName(), e.toString());
                } finally {
                  try {
                    emptyCaches.run();
                  } catch (RuntimeException e) {
                    log.warn("Cannot empty the caches after warm-up: {}", e.toString());
                  }
                  state.set(State.DONE);
                }
              });
    }
  }

  private void run(ServedTable table) {
    WarmupQueries shape = WarmupQueries.of(table.sqlName(), table.config(), table.schema());
    if (shape.isEmpty()) {
      log.info("No warm-up on table {}: it has no indexed column to filter on", table.sqlName());
      return;
    }
    BrokerClient client = broker;
    Optional<JsonNode> sample = sampleRow(client, shape.sampleSql(), table.sqlName());
    if (sample.isEmpty()) {
      return;
    }
    List<String> queries = shape.queries(sample.get());
    long start = System.nanoTime();
    long deadline = start + config.maxDuration().toNanos();
    int rounds = 0;
    int failed = 0;
    while (rounds < config.rounds() && System.nanoTime() < deadline && !closed) {
      for (String sql : queries) {
        if (closed) {
          break;
        }
        Optional<String> error = run(client, sql);
        if (error.isPresent() && failed++ == 0) {
          log.info("Warm-up query failed (later failures are counted): {}: {}", sql, error.get());
        }
      }
      emptyCaches.run();
      rounds++;
    }
    int plans = plan(queries, deadline);
    Summary done =
        new Summary(
            table.sqlName(),
            queries.size(),
            rounds,
            failed,
            plans,
            (System.nanoTime() - start) / 1_000_000);
    summary.set(done);
    log.info(
        "Warmed up on table {}: {} queries x {} rounds and {} plans in {} ms ({} failed)",
        done.table(),
        done.queries(),
        done.rounds(),
        done.plans(),
        done.millis(),
        done.failed());
  }

  /**
   * Plans each query {@link #PLANNING_RUNS} times, until the deadline (a query that cannot be
   * planned is logged and dropped); how many plans it made.
   */
  private int plan(List<String> queries, long deadline) {
    List<String> planned = new ArrayList<>(queries);
    int plans = 0;
    for (int run = 0; run < PLANNING_RUNS && !planned.isEmpty(); run++) {
      for (Iterator<String> it = planned.iterator(); it.hasNext(); ) {
        if (closed || System.nanoTime() >= deadline) {
          return plans;
        }
        String sql = it.next();
        try {
          planning.prepare(sql);
          plans++;
        } catch (RuntimeException e) {
          log.info("Warm-up cannot plan (not planned again): {}: {}", sql, e.getMessage());
          it.remove();
        }
      }
    }
    return plans;
  }

  /** Stops a running warm-up after its current query (the node is closing). */
  @Override
  public void close() {
    closed = true;
  }

  private Optional<JsonNode> sampleRow(BrokerClient client, String sql, String table) {
    JsonNode response = client.query(sql, Optional.of(QUERY_TIMEOUT));
    JsonNode rows = response.path("resultTable").path("rows");
    if (!errors(response).isEmpty() || rows.size() == 0) {
      log.info(
          "No warm-up on table {}: cannot sample a row ({})",
          table,
          errors(response).isEmpty() ? "no rows" : errors(response));
      return Optional.empty();
    }
    return Optional.of(rows.get(0));
  }

  /** Runs one warm-up query; why it failed, or empty. */
  private static Optional<String> run(BrokerClient client, String sql) {
    try {
      String errors = errors(client.query(sql, Optional.of(QUERY_TIMEOUT)));
      return errors.isEmpty() ? Optional.empty() : Optional.of(errors);
    } catch (BrokerClientException e) {
      return Optional.of(e.getMessage());
    }
  }

  private static String errors(JsonNode response) {
    StringBuilder messages = new StringBuilder();
    for (JsonNode error : response.path("exceptions")) {
      messages.append(messages.isEmpty() ? "" : "; ").append(error.path("message").asText());
    }
    return messages.toString();
  }
}
