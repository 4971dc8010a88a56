package io.shelfmark.cli.node;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.shelfmark.broker.http.MetricsEndpoint;
import io.shelfmark.broker.table.TableStatus;
import io.shelfmark.cache.TieredCache;
import io.shelfmark.cache.stats.CacheStats;
import io.shelfmark.cache.stats.TierStats;
import io.shelfmark.controller.table.ServedTable;
import io.shelfmark.controller.table.TableRegistry;
import io.shelfmark.storage.spi.StorageStats;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The node's Prometheus registry and the meters that read the node's own state at scrape time:
 * tables (segments by state, rows, snapshot lag), the tiered cache, object storage, the JVM. Query
 * meters are added by the broker ({@code MicrometerQueryMetrics}). docs/operations.md lists every
 * metric.
 *
 * <p>Lifecycle: create, use {@link #registry()} and {@link #endpoint()}, {@link #close()}.
 */
final class NodeMetrics implements AutoCloseable {
  private static final String OPEN_METRICS = "application/openmetrics-text";

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final JvmGcMetrics gc = new JvmGcMetrics();
  private final Clock clock;
  private volatile TableRegistry tables;
  private volatile Function<ServedTable, TableStatus> status;
  private final MultiGauge segments;
  private final MultiGauge records;
  private final MultiGauge indexBytes;
  private final MultiGauge snapshotLag;

  /**
   * @param cache the node's tiered cache; null when it has none
   * @param storage the object store's request counters (queries and builds)
   */
  /** The metrics of a node without a cache (a broker or controller of the distributed mode). */
  NodeMetrics(StorageStats storage, Clock clock) {
    this(null, storage, clock);
  }

  NodeMetrics(TieredCache cache, StorageStats storage, Clock clock) {
    this.clock = requireNonNull(clock, "clock is null");
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    if (cache != null) {
      bindCache(cache);
    }
    bindStorage(requireNonNull(storage, "storage is null"));
    segments =
        MultiGauge.builder("shelfmark.table.segments")
            .description("Segments of the served snapshot, by state (ready, pending, failed)")
            .register(registry);
    records =
        MultiGauge.builder("shelfmark.table.records")
            .description("Rows of the served snapshot (total) and of its indexed files (indexed)")
            .register(registry);
    indexBytes =
        MultiGauge.builder("shelfmark.table.index.bytes")
            .description("Bytes of the served snapshot's ready segments")
            .baseUnit("bytes")
            .register(registry);
    snapshotLag =
        MultiGauge.builder("shelfmark.table.snapshot.lag")
            .description("Now minus the commit time of the snapshot being served")
            .baseUnit("seconds")
            .register(registry);
  }

  /**
   * Reports the served tables from now on.
   *
   * @param tables the controller's served tables
   * @param status a table's status as the HTTP API reports it (the server's view included)
   */
  void bindTables(TableRegistry tables, Function<ServedTable, TableStatus> status) {
    this.status = requireNonNull(status, "status is null");
    this.tables = requireNonNull(tables, "tables is null");
  }

  /** Where queries' own meters are registered. */
  PrometheusMeterRegistry registry() {
    return registry;
  }

  /** What {@code GET /metrics} answers: tables are read afresh at each scrape. */
  MetricsEndpoint endpoint() {
    return accept -> {
      refreshTables();
      String contentType =
          accept.contains(OPEN_METRICS)
              ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
              : "text/plain; version=0.0.4; charset=utf-8";
      return new MetricsEndpoint.Scrape(contentType, registry.scrape(contentType));
    };
  }

  private void refreshTables() {
    TableRegistry tables = this.tables;
    if (tables == null) {
      return;
    }
    List<MultiGauge.Row<?>> segmentRows = new ArrayList<>();
    List<MultiGauge.Row<?>> recordRows = new ArrayList<>();
    List<MultiGauge.Row<?>> indexRows = new ArrayList<>();
    List<MultiGauge.Row<?>> lagRows = new ArrayList<>();
    for (ServedTable table : tables.tables()) {
      TableStatus current = status.apply(table);
      Tags name = Tags.of("table", table.sqlName());
      segmentRows.add(MultiGauge.Row.of(name.and("state", "ready"), current.segmentsReady()));
      segmentRows.add(MultiGauge.Row.of(name.and("state", "pending"), current.segmentsPending()));
      segmentRows.add(MultiGauge.Row.of(name.and("state", "failed"), current.segmentsFailed()));
      recordRows.add(MultiGauge.Row.of(name.and("kind", "total"), current.records()));
      recordRows.add(MultiGauge.Row.of(name.and("kind", "indexed"), current.recordsIndexed()));
      indexRows.add(MultiGauge.Row.of(name, current.indexBytes()));
      table
          .snapshot()
          .committedAt()
          .ifPresent(
              committed ->
                  lagRows.add(
                      MultiGauge.Row.of(
                          name, Duration.between(committed, clock.instant()).toMillis() / 1000.0)));
    }
    // overwrite: a dropped table's rows go away instead of reporting their last values for ever.
    segments.register(segmentRows, true);
    records.register(recordRows, true);
    indexBytes.register(indexRows, true);
    snapshotLag.register(lagRows, true);
  }

  private void bindCache(TieredCache cache) {
    for (String tier : List.of("memory", "disk")) {
      Function<TieredCache, TierStats> stats =
          c -> tier.equals("memory") ? c.stats().memory() : c.stats().disk();
      cacheCounter(
          cache, tier, "shelfmark.cache.hits", "Reads the tier served", stats, s -> s.hitCount());
      cacheCounter(
          cache,
          tier,
          "shelfmark.cache.misses",
          "Reads the tier could not serve",
          stats,
          s -> s.missCount());
      cacheCounter(
          cache,
          tier,
          "shelfmark.cache.evictions",
          "Entries the tier evicted",
          stats,
          s -> s.evictionCount());
      cacheCounter(
          cache,
          tier,
          "shelfmark.cache.corruptions",
          "Entries the tier found damaged and dropped",
          stats,
          s -> s.corruptionCount());
      Gauge.builder("shelfmark.cache.size", cache, c -> stats.apply(c).weightedSize())
          .description("Bytes the tier holds")
          .baseUnit("bytes")
          .tag("tier", tier)
          .register(registry);
      Gauge.builder("shelfmark.cache.max.size", cache, c -> stats.apply(c).maximumWeight())
          .description("The tier's bound (0: disabled)")
          .baseUnit("bytes")
          .tag("tier", tier)
          .register(registry);
    }
  }

  private void cacheCounter(
      TieredCache cache,
      String tier,
      String name,
      String description,
      Function<TieredCache, TierStats> stats,
      ToDoubleFunction<CacheStats> value) {
    FunctionCounter.builder(name, cache, c -> value.applyAsDouble(stats.apply(c).stats()))
        .description(description)
        .tag("tier", tier)
        .register(registry);
  }

  private void bindStorage(StorageStats storage) {
    FunctionCounter.builder("shelfmark.storage.requests", storage, s -> s.snapshot().getRequests())
        .description("Requests to object storage (queries, builds, segment downloads), by method")
        .tag("method", "get")
        .register(registry);
    FunctionCounter.builder("shelfmark.storage.requests", storage, s -> s.snapshot().headRequests())
        .description("Requests to object storage (queries, builds, segment downloads), by method")
        .tag("method", "head")
        .register(registry);
    FunctionCounter.builder("shelfmark.storage.requests", storage, s -> s.snapshot().putRequests())
        .description("Requests to object storage (queries, builds, segment downloads), by method")
        .tag("method", "put")
        .register(registry);
    FunctionCounter.builder("shelfmark.storage.read", storage, s -> s.snapshot().bytesRead())
        .description("Bytes read from object storage")
        .baseUnit("bytes")
        .register(registry);
    FunctionCounter.builder(
            "shelfmark.storage.failures", storage, s -> s.snapshot().failedRequests())
        .description("Object storage requests that failed after their retries")
        .register(registry);
    FunctionCounter.builder("shelfmark.storage.retries", storage, s -> s.snapshot().retries())
        .description("Object storage requests retried")
        .register(registry);
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }
}
