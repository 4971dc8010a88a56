package io.shelfmark.cli.bench.run;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.cli.bench.report.ExplainTimes;
import io.shelfmark.cli.bench.report.Percentile;
import io.shelfmark.cli.client.BrokerClient;
import java.util.Arrays;
import java.util.Optional;

/**
 * The broker's own view of a query: {@code EXPLAIN ANALYZE <query>} run {@code runs} times on a
 * warm node, the medians of the times its {@code explain} object reports (runs 2..N, as hot runs).
 * Not thread safe.
 */
final class ExplainProbe {
  private final BrokerClient client;

  ExplainProbe(BrokerClient client) {
    this.client = requireNonNull(client, "client is null");
  }

  /**
   * The medians of {@code runs} EXPLAIN ANALYZE runs of {@code sql}.
   *
   * @throws IllegalStateException with the broker's message when a run fails
   */
  ExplainTimes run(String sql, int runs) {
    if (runs < 2) {
      throw new IllegalArgumentException(
          "Cannot summarise "
              + runs
              + " EXPLAIN ANALYZE runs (need at least 2: run 1 is excluded)");
    }
    long[] execute = new long[runs - 1];
    long[] server = new long[runs - 1];
    long[] work = new long[runs - 1];
    long[] total = new long[runs - 1];
    int servers = 0;
    for (int i = 0; i < runs; i++) {
      JsonNode response =
          client.query("EXPLAIN ANALYZE " + sql, Optional.of(QueryProbe.QUERY_TIMEOUT));
      JsonNode exceptions = response.path("exceptions");
      if (exceptions.isArray() && !exceptions.isEmpty()) {
        throw new IllegalStateException(
            "Cannot explain " + sql + ": " + exceptions.get(0).path("message").asText());
      }
      JsonNode explain = response.path("explain");
      JsonNode times = explain.path("timeMicros");
      if (times.isMissingNode()) {
        throw new IllegalStateException(
            "Cannot read the EXPLAIN ANALYZE times of "
                + sql
                + ": the answer has no explain.timeMicros");
      }
      long slowest = 0;
      for (JsonNode s : explain.path("servers")) {
        slowest = Math.max(slowest, s.path("timeMicros").asLong());
      }
      servers = explain.path("servers").size();
      if (i == 0) {
        continue; // the first run warms what the hot runs had not (the profiled row path)
      }
      execute[i - 1] = times.path("execute").asLong();
      server[i - 1] = slowest;
      work[i - 1] =
          times.path("index").asLong()
              + times.path("read").asLong()
              + times.path("aggregate").asLong();
      total[i - 1] = times.path("total").asLong();
    }
    return new ExplainTimes(
        runs, median(execute), median(server), median(work), median(total), servers);
  }

  private static double median(long[] micros) {
    long[] sorted = micros.clone();
    Arrays.sort(sorted);
    return Percentile.nearestRank(sorted, 50) / 1e3;
  }
}
