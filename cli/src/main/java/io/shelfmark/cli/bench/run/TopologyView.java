package io.shelfmark.cli.bench.run;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.cli.bench.BenchMode;
import io.shelfmark.cli.bench.BenchQuery;
import io.shelfmark.cli.bench.report.ExplainTimes;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.testing.oracle.QueryResult;
import io.shelfmark.testing.oracle.ResultComparison;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What one topology answered for a query in a mode, kept so the other topology's can be compared
 * with it: the answer (its result table) and the broker's EXPLAIN ANALYZE times ({@code explain}
 * null when EXPLAIN failed: the output says why).
 */
record TopologyView(QueryResult answer, ExplainTimes explain) {
  /** Doubles summed in another order (files split over servers) may differ in the last bits. */
  private static final double TOLERANCE = 1e-9;

  TopologyView {
    requireNonNull(answer, "answer is null");
  }

  static String key(BenchQuery query, BenchMode mode) {
    return query.name() + "/" + mode.id();
  }

  /** Asks {@code client} for the query's answer, then its EXPLAIN ANALYZE times. */
  static TopologyView observe(
      BrokerClient client, BenchQuery query, BenchMode mode, int runs, PrintStream out) {
    QueryResult answer = resultOf(client.query(query.sql(), Optional.of(QueryProbe.QUERY_TIMEOUT)));
    ExplainTimes explain;
    try {
      explain = new ExplainProbe(client).run(query.sql(), runs);
      out.printf(
          Locale.ROOT,
          "  %s %s EXPLAIN ANALYZE: execute %.2f ms, slowest server %.2f ms over %d servers,"
              + " files' work %.2f ms%n",
          query.name(),
          mode,
          explain.executeMs(),
          explain.serverMs(),
          explain.servers(),
          explain.serverWorkMs());
    } catch (RuntimeException e) {
      out.printf(Locale.ROOT, "  %s %s EXPLAIN ANALYZE failed: %s%n", query.name(), mode, e);
      explain = null;
    }
    return new TopologyView(answer, explain);
  }

  /** The first difference between this answer and {@code other}'s, or empty. */
  Optional<String> difference(TopologyView other) {
    return ResultComparison.difference(answer, other.answer, false, TOLERANCE, Map.of());
  }

  /** The result table of a broker's answer, or its first exception as the only column. */
  static QueryResult resultOf(JsonNode response) {
    JsonNode exceptions = response.path("exceptions");
    if (exceptions.isArray() && !exceptions.isEmpty()) {
      return QueryResult.normalized(
          List.of("exception"),
          List.of(List.of(exceptions.get(0).path("message").asText(exceptions.toString()))));
    }
    List<String> columns = new ArrayList<>();
    for (JsonNode name : response.path("resultTable").path("dataSchema").path("columnNames")) {
      columns.add(name.asText());
    }
    List<List<Object>> rows = new ArrayList<>();
    for (JsonNode row : response.path("resultTable").path("rows")) {
      List<Object> values = new ArrayList<>();
      for (JsonNode value : row) {
        values.add(
            value.isNull()
                ? null
                : value.isIntegralNumber()
                    ? (Object) value.asLong()
                    : value.isNumber() ? (Object) value.asDouble() : value.asText());
      }
      rows.add(values);
    }
    return QueryResult.normalized(columns, rows);
  }
}
