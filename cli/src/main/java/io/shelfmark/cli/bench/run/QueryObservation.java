package io.shelfmark.cli.bench.run;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.cli.bench.report.IoFigures;
import io.shelfmark.testing.latency.ProxyCounters;
import io.shelfmark.testing.latency.RequestLog;

/**
 * One query execution as the benchmark saw it: the client-observed latency, the engine's own
 * statistics from its Pinot-shaped answer, and what the latency proxy counted meanwhile.
 *
 * @param latencyNanos HTTP request to last byte
 * @param io storage traffic from both sides
 * @param docsMatched {@code numDocsScanned}
 * @param totalDocs {@code totalDocs}
 * @param segmentsQueried {@code numSegmentsQueried}
 * @param segmentsPruned {@code numSegmentsPrunedByBroker}
 * @param timeUsedMs {@code timeUsedMs}
 * @param resultRows rows of the result table
 * @param error the first exception's message, or null
 */
public record QueryObservation(
    long latencyNanos,
    IoFigures io,
    long docsMatched,
    long totalDocs,
    long segmentsQueried,
    long segmentsPruned,
    long timeUsedMs,
    long resultRows,
    String error) {

  /** Reads the engine's statistics from {@code response} and the proxy's from its counters. */
  public static QueryObservation of(
      long latencyNanos, JsonNode response, ProxyCounters.Snapshot proxy, RequestLog log) {
    IoFigures io =
        new IoFigures(
            response.path("storageBytesRead").asLong(0),
            response.path("storageRequests").asLong(0),
            proxy.requests(),
            proxy.responseBodyBytes(),
            log.withMethod("GET").sequentialRounds(),
            response.path("cacheHits").asLong(0),
            response.path("cacheMisses").asLong(0));
    String error = null;
    JsonNode exceptions = response.path("exceptions");
    if (exceptions.isArray() && !exceptions.isEmpty()) {
      JsonNode first = exceptions.get(0);
      error = first.path("message").asText(first.toString());
    }
    return new QueryObservation(
        latencyNanos,
        io,
        response.path("numDocsScanned").asLong(0),
        response.path("totalDocs").asLong(0),
        response.path("numSegmentsQueried").asLong(0),
        response.path("numSegmentsPrunedByBroker").asLong(0),
        response.path("timeUsedMs").asLong(0),
        response.path("resultTable").path("rows").size(),
        error);
  }
}
