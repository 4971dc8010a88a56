package io.shelfmark.broker.metrics;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.shelfmark.broker.query.QueryError;
import io.shelfmark.broker.query.QueryListener;
import io.shelfmark.broker.query.QueryRequest;
import io.shelfmark.broker.query.QueryResponse;
import io.shelfmark.broker.query.QueryStatistics;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Query metrics in a Micrometer registry, named for Prometheus ({@code shelfmark_queries_total} and
 * so on; docs/operations.md lists them). Labels are bounded: {@code table} is a served table or
 * {@code none}, {@code outcome} is {@code success} or an error type in lower case. Meters are
 * looked up once per table and outcome, not per query. Thread safe.
 */
public final class MicrometerQueryMetrics implements QueryListener {
  /** Latency histogram buckets: dashboards' queries span about 1 ms to the default 10 s timeout. */
  private static final Duration MIN_EXPECTED = Duration.ofMillis(1);

  private static final Duration MAX_EXPECTED = Duration.ofSeconds(30);

  private final MeterRegistry registry;
  private final Map<String, Counter> outcomes = new ConcurrentHashMap<>();
  private final Map<String, TableMeters> tables = new ConcurrentHashMap<>();

  public MicrometerQueryMetrics(MeterRegistry registry) {
    this.registry = requireNonNull(registry, "registry is null");
  }

  /** The meters of one table: looked up once, then only incremented. */
  private record TableMeters(
      Timer latency,
      Counter filesQueried,
      Counter filesPruned,
      Counter docsScanned,
      Counter storageBytes,
      Counter storageRequests,
      Counter cacheHits,
      Counter cacheMisses) {}

  @Override
  public void answered(
      String table, QueryRequest request, QueryResponse response, long elapsedNanos) {
    String outcome =
        response.errors().isEmpty() ? "success" : outcome(response.errors().getFirst());
    outcomes
        .computeIfAbsent(
            table + '\0' + outcome,
            key ->
                Counter.builder("shelfmark.queries")
                    .description("Queries answered, by table and outcome")
                    .tag("table", table)
                    .tag("outcome", outcome)
                    .register(registry))
        .increment();
    TableMeters meters = tables.computeIfAbsent(table, this::meters);
    meters.latency().record(elapsedNanos, TimeUnit.NANOSECONDS);
    QueryStatistics stats = response.statistics();
    meters.filesQueried().increment(stats.numSegmentsQueried());
    meters.filesPruned().increment(stats.numSegmentsPrunedByBroker());
    meters.docsScanned().increment(stats.numDocsScanned());
    meters.storageBytes().increment(stats.storageBytesRead());
    meters.storageRequests().increment(stats.storageRequests());
    meters.cacheHits().increment(stats.cacheHits());
    meters.cacheMisses().increment(stats.cacheMisses());
  }

  private static String outcome(QueryError error) {
    return error.code().name().toLowerCase(Locale.ROOT);
  }

  private TableMeters meters(String table) {
    return new TableMeters(
        Timer.builder("shelfmark.query.duration")
            .description("Time from request to complete response, by table")
            .tag("table", table)
            .publishPercentileHistogram()
            .minimumExpectedValue(MIN_EXPECTED)
            .maximumExpectedValue(MAX_EXPECTED)
            .register(registry),
        counter("shelfmark.query.files.queried", "Data files left to query after pruning", table),
        counter(
            "shelfmark.query.files.pruned", "Data files pruned on metadata by the broker", table),
        counter("shelfmark.query.docs.scanned", "Rows that matched queries' filters", table),
        counter(
            "shelfmark.query.storage.bytes",
            "Bytes queries read from object storage (Parquet pages)",
            table),
        counter(
            "shelfmark.query.storage.requests",
            "GET requests queries made to object storage",
            table),
        counter("shelfmark.query.cache.hits", "Page reads queries found in the page cache", table),
        counter(
            "shelfmark.query.cache.misses",
            "Page reads queries fetched past the page cache",
            table));
  }

  private Counter counter(String name, String description, String table) {
    return Counter.builder(name).description(description).tag("table", table).register(registry);
  }
}
