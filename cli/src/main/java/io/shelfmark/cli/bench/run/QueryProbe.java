package io.shelfmark.cli.bench.run;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cli.bench.lake.ProxiedLake;
import io.shelfmark.cli.client.BrokerClient;
import java.time.Duration;
import java.util.Optional;

/**
 * Runs one query at a time against a broker over HTTP and observes it: the proxy's counters are
 * reset right before the request and read right after the answer, so they hold exactly that query's
 * traffic (no other query may run meanwhile). Not thread safe.
 */
public final class QueryProbe {
  /** The time limit given to the engine per query. */
  public static final Duration QUERY_TIMEOUT = Duration.ofSeconds(120);

  private final BrokerClient client;
  private final ProxiedLake lake;

  public QueryProbe(String brokerUrl, ProxiedLake lake) {
    this.client = new BrokerClient(requireNonNull(brokerUrl, "brokerUrl is null"));
    this.lake = requireNonNull(lake, "lake is null");
  }

  /**
   * Opens the client's connection to the broker ({@code GET /tables}, which reads no storage), so
   * that the next {@link #run} is timed on an open connection as later ones are.
   */
  public void connect() {
    client.tables();
  }

  /** Runs {@code sql} once and observes it. */
  public QueryObservation run(String sql) {
    lake.resetCounters();
    long start = System.nanoTime();
    // Client-observed: from sending the request to the answer's last byte (parsing excluded).
    BrokerClient.Answer answer = client.queryObserved(sql, Optional.of(QUERY_TIMEOUT));
    long latency = answer.lastByteNanos() - start;
    return QueryObservation.of(latency, answer.body(), lake.counters(), lake.requestLog());
  }

  /** The client, for the load generator's concurrent calls (no observation). */
  public BrokerClient client() {
    return client;
  }
}
