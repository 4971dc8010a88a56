package io.shelfmark.cli.bench.lake;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.testing.latency.LatencyInjectingProxy;
import io.shelfmark.testing.latency.ProxyCounters;
import io.shelfmark.testing.latency.RequestLog;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The benchmark's lake: a {@link LocalLake} (embedded S3 server, SQLite Iceberg catalog) whose S3
 * endpoint Shelfmark reaches only through a {@link LatencyInjectingProxy}, so every request it
 * makes to the data files or the segment store waits the injected latency and is counted by the
 * proxy, independently of Shelfmark's own statistics.
 *
 * <pre>
 * generator, catalog FileIO ──────────────────────────► embedded S3 (direct: not measured)
 * Shelfmark data + segment store ──► latency proxy ──► embedded S3 (measured, delayed)
 * </pre>
 *
 * <p>The catalog talks to S3 directly so that snapshot refreshes never land in a query's counters.
 * Lifecycle: {@link #start}, use, {@link #close}. Thread safe as its parts are.
 */
public final class ProxiedLake implements Closeable {
  private final LocalLake lake;
  private final LatencyInjectingProxy proxy;
  private final StorageConfig proxiedStorage;
  private final ObjectStore proxiedStore;

  private ProxiedLake(
      LocalLake lake,
      LatencyInjectingProxy proxy,
      StorageConfig proxiedStorage,
      ObjectStore proxiedStore) {
    this.lake = lake;
    this.proxy = proxy;
    this.proxiedStorage = proxiedStorage;
    this.proxiedStore = proxiedStore;
  }

  /**
   * Starts the lake in {@code directory} and the proxy in front of its S3 server.
   *
   * @param latency time to first byte of every proxied response
   * @param bandwidth bytes per second per connection, or empty for no cap
   */
  public static ProxiedLake start(Path directory, Duration latency, OptionalLong bandwidth)
      throws IOException {
    requireNonNull(directory, "directory is null");
    requireNonNull(latency, "latency is null");
    requireNonNull(bandwidth, "bandwidth is null");
    LocalLake lake = LocalLake.start(directory, 0);
    LatencyInjectingProxy proxy = null;
    try {
      LatencyInjectingProxy.Builder builder =
          LatencyInjectingProxy.builder().backend(lake.s3().endpoint()).latency(latency);
      bandwidth.ifPresent(builder::bandwidth);
      proxy = builder.build();
      proxy.start();
      StorageConfig direct = lake.storageConfig();
      StorageConfig proxied = proxiedStorage(direct, proxy);
      return new ProxiedLake(lake, proxy, proxied, ObjectStores.open(proxied));
    } catch (IOException | RuntimeException e) {
      if (proxy != null) {
        proxy.close();
      }
      lake.close();
      throw e;
    }
  }

  /** The lake's storage settings with the endpoint replaced by the proxy's. */
  static StorageConfig proxiedStorage(StorageConfig direct, LatencyInjectingProxy proxy) {
    return withEndpoint(direct, proxy.endpoint());
  }

  /**
   * {@code storage} with its endpoint replaced by {@code endpoint}, every other setting kept: how a
   * node reaches the same bucket directly or through the proxy.
   */
  public static StorageConfig withEndpoint(StorageConfig storage, URI endpoint) {
    requireNonNull(storage, "storage is null");
    requireNonNull(endpoint, "endpoint is null");
    return new StorageConfig(
        storage.type(),
        Optional.of(endpoint),
        storage.region(),
        storage.pathStyleAccess(),
        storage.credentials(),
        storage.root(),
        storage.maxConnections(),
        storage.requestTimeout(),
        storage.maxRetries());
  }

  public LocalLake lake() {
    return lake;
  }

  public LatencyInjectingProxy proxy() {
    return proxy;
  }

  /** Storage settings that reach the lake through the proxy (for Shelfmark's nodes). */
  public StorageConfig proxiedStorage() {
    return proxiedStorage;
  }

  /** A store that reaches the lake through the proxy. */
  public ObjectStore proxiedStore() {
    return proxiedStore;
  }

  /** The directory the S3 server keeps objects in ({@code <dir>/<bucket>/<key>}). */
  public Path objectDirectory() {
    return lake.s3().baseDirectory();
  }

  /** Zeroes the proxy's counters and log: call right before a measured query. */
  public void resetCounters() {
    proxy.reset();
  }

  /**
   * Waits until no request crosses the proxy for {@code window} (none started, none in flight), so
   * that a node's background work after it reports ready (segments still being opened, say) cannot
   * land in the next query's counters. Resets the counters.
   *
   * @return whether the proxy went quiet before {@code timeout}
   */
  public boolean awaitQuiet(Duration window, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      resetCounters();
      Thread.sleep(window);
      ProxyCounters.Snapshot seen = counters();
      if (seen.requests() == 0 && seen.inFlight() == 0) {
        return true;
      }
      if (System.nanoTime() > deadline) {
        return false;
      }
    }
  }

  /** What crossed the proxy since the last {@link #resetCounters()}. */
  public ProxyCounters.Snapshot counters() {
    return proxy.counters().snapshot();
  }

  /** The requests completed since the last {@link #resetCounters()}. */
  public RequestLog requestLog() {
    return proxy.requestLog();
  }

  @Override
  public void close() throws IOException {
    try (lake;
        proxy;
        proxiedStore) {
      // closed in reverse order: store, proxy, lake
    }
  }
}
