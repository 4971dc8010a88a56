package io.shelfmark.testing.latency;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a {@link LatencyInjectingProxy} counted by itself, independently of Shelfmark's own
 * statistics, so a test can check those statistics against traffic that really crossed the wire.
 *
 * <p>What counts: a request when its head reaches the proxy (by method); request bytes as read from
 * the client's socket (head, body and chunk framing); response bytes as written to it; body bytes
 * separately in each direction (what an S3 client reports as bytes read or written). Every counter
 * is updated before the bytes it describes reach the client, so a test may read {@link #snapshot()}
 * as soon as its client call returned.
 *
 * <p>Thread safety: safe for concurrent use; {@link #reset()} while requests are in flight keeps
 * them in flight (the maximum restarts from the current count).
 */
public final class ProxyCounters {
  private final Map<String, LongAdder> requestsByMethod = new ConcurrentHashMap<>();
  private final LongAdder requestBytes = new LongAdder();
  private final LongAdder responseBytes = new LongAdder();
  private final LongAdder requestBodyBytes = new LongAdder();
  private final LongAdder responseBodyBytes = new LongAdder();
  private final LongAdder connections = new LongAdder();
  private final LongAdder slowDowns = new LongAdder();
  private final LongAdder resets = new LongAdder();
  private final AtomicLong inFlight = new AtomicLong();
  private final AtomicLong maxInFlight = new AtomicLong();

  void recordRequest(String method) {
    requestsByMethod.computeIfAbsent(method, _ -> new LongAdder()).increment();
    long now = inFlight.incrementAndGet();
    maxInFlight.accumulateAndGet(now, Math::max);
  }

  void recordRequestDone() {
    inFlight.decrementAndGet();
  }

  void recordRequestBytes(long bytes) {
    requestBytes.add(bytes);
  }

  void recordResponseBytes(long bytes) {
    responseBytes.add(bytes);
  }

  void recordRequestBodyBytes(long bytes) {
    requestBodyBytes.add(bytes);
  }

  void recordResponseBodyBytes(long bytes) {
    responseBodyBytes.add(bytes);
  }

  void recordSlowDown() {
    slowDowns.increment();
  }

  void recordReset() {
    resets.increment();
  }

  /** Requests the proxy answered 503 SlowDown itself (its fault injection). */
  public long slowDowns() {
    return slowDowns.sum();
  }

  /** Connections the proxy reset at a request (its fault injection). */
  public long resets() {
    return resets.sum();
  }

  void recordConnection() {
    connections.increment();
  }

  /** Zeroes every counter; the in-flight maximum restarts from the requests in flight now. */
  public void reset() {
    requestsByMethod.clear();
    requestBytes.reset();
    responseBytes.reset();
    requestBodyBytes.reset();
    responseBodyBytes.reset();
    connections.reset();
    slowDowns.reset();
    resets.reset();
    maxInFlight.set(inFlight.get());
  }

  /** An immutable reading of the counters. */
  public Snapshot snapshot() {
    Map<String, Long> byMethod = new TreeMap<>();
    requestsByMethod.forEach((method, count) -> byMethod.put(method, count.sum()));
    return new Snapshot(
        byMethod,
        requestBytes.sum(),
        responseBytes.sum(),
        requestBodyBytes.sum(),
        responseBodyBytes.sum(),
        connections.sum(),
        inFlight.get(),
        maxInFlight.get());
  }

  /**
   * An immutable reading of {@link ProxyCounters}.
   *
   * @param requestsByMethod requests by HTTP method, sorted by method
   * @param requestBytes bytes read from clients, headers and framing included
   * @param responseBytes bytes written to clients, headers and framing included
   * @param requestBodyBytes request body bytes only
   * @param responseBodyBytes response body bytes only
   * @param connections client connections accepted
   * @param inFlight requests whose response had not been sent completely at the reading
   * @param maxInFlight the most requests in flight at once since start or reset
   */
  public record Snapshot(
      Map<String, Long> requestsByMethod,
      long requestBytes,
      long responseBytes,
      long requestBodyBytes,
      long responseBodyBytes,
      long connections,
      long inFlight,
      long maxInFlight) {
    public Snapshot {
      requestsByMethod =
          Collections.unmodifiableSortedMap(
              new TreeMap<>(requireNonNull(requestsByMethod, "requestsByMethod is null")));
    }

    /** Requests of every method. */
    public long requests() {
      long total = 0;
      for (long count : requestsByMethod.values()) {
        total += count;
      }
      return total;
    }

    /** Requests of one method, such as {@code GET}; 0 when none was seen. */
    public long requests(String method) {
      return requestsByMethod.getOrDefault(requireNonNull(method, "method is null"), 0L);
    }
  }
}
