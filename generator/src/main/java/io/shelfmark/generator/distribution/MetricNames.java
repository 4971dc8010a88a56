package io.shelfmark.generator.distribution;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The 500 metric names of {@code obs.metrics}. Index 0 is {@link #TK_CACHE}, the metric the
 * benchmark's queries select; a few dozen realistic names follow in rough order of how common such
 * metrics are, and {@code metric_NNN} names fill the rest. Immutable.
 */
public final class MetricNames {
  /** The metric queries Q2–Q4 select. */
  public static final String TK_CACHE = "tk_cache";

  public static final int COUNT = 500;

  private static final String[] NAMED = {
    TK_CACHE,
    "cpu_user",
    "cpu_system",
    "mem_rss",
    "mem_heap_used",
    "http_requests",
    "http_errors",
    "http_latency_p50",
    "http_latency_p99",
    "disk_read_bytes",
    "disk_write_bytes",
    "net_rx_bytes",
    "net_tx_bytes",
    "gc_pause_ms",
    "gc_count",
    "thread_count",
    "open_fds",
    "queue_depth",
    "queue_lag_ms",
    "db_query_ms",
    "db_connections",
    "cache_hits",
    "cache_misses",
    "cache_evictions",
    "kafka_consumer_lag",
    "kafka_bytes_in",
    "grpc_calls",
    "grpc_errors",
    "jvm_classes_loaded",
    "container_restarts",
    "pod_cpu_throttled",
    "pod_mem_limit",
    "load_avg_1m",
    "load_avg_5m",
    "tcp_retransmits",
    "dns_lookup_ms",
    "tls_handshake_ms",
    "s3_get_ms",
    "s3_put_ms",
    "lambda_invocations",
  };

  private static final String[] NAMES = build();

  private MetricNames() {}

  /** The name at {@code index}, {@code 0 <= index < COUNT}. */
  public static String name(int index) {
    return NAMES[index];
  }

  /** All names in index order. */
  public static List<String> all() {
    return List.of(NAMES);
  }

  private static String[] build() {
    List<String> names = new ArrayList<>(List.of(NAMED));
    for (int i = names.size(); i < COUNT; i++) {
      names.add(String.format(Locale.ROOT, "metric_%03d", i));
    }
    return names.toArray(String[]::new);
  }
}
