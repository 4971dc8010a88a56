package io.shelfmark.storage.spi;

import java.util.concurrent.atomic.LongAdder;

/**
 * Request and byte counters of one store. Counting is cheap ({@link LongAdder}) and always on;
 * {@link #snapshot()} gives an immutable view for reports and the metrics endpoint.
 *
 * <p>What counts: one request per call that reaches the store (a ranged GET, a HEAD, one PUT per
 * part of a multipart upload plus its start and completion, one LIST per page), counted whether it
 * succeeds or fails; a failed call also counts in {@code failedRequests}. A retry of the same call
 * by the client's retry policy counts in {@code retries}, not as another request. Bytes read are
 * counted as the caller receives (or skips over) them, so a stream closed early counts only what
 * was read; the bytes of an attempt that broke off mid-way count too, as they crossed the network.
 * An aborted multipart upload counts its abort as a delete.
 *
 * <p>Thread safety: safe for concurrent use; stores sharing one instance (see {@code
 * RoutingObjectStore}) add into the same counters.
 */
public final class StorageStats {
  private final LongAdder getRequests = new LongAdder();
  private final LongAdder headRequests = new LongAdder();
  private final LongAdder putRequests = new LongAdder();
  private final LongAdder listRequests = new LongAdder();
  private final LongAdder deleteRequests = new LongAdder();
  private final LongAdder bytesRead = new LongAdder();
  private final LongAdder bytesWritten = new LongAdder();
  private final LongAdder failedRequests = new LongAdder();
  private final LongAdder retries = new LongAdder();

  public void recordGet() {
    getRequests.increment();
  }

  public void recordHead() {
    headRequests.increment();
  }

  public void recordPut(long bytes) {
    putRequests.increment();
    bytesWritten.add(bytes);
  }

  public void recordList() {
    listRequests.increment();
  }

  public void recordDelete() {
    deleteRequests.increment();
  }

  public void recordBytesRead(long bytes) {
    bytesRead.add(bytes);
  }

  public void recordFailure() {
    failedRequests.increment();
  }

  /** One more attempt of a request that failed transiently (503 SlowDown, 500, a dropped link). */
  public void recordRetry() {
    retries.increment();
  }

  /**
   * The stats that retries made on this thread are attributed to besides the store's own: the
   * counting views ({@code CountingObjectStore}) whose calls are in progress here, innermost first.
   * A store's client retries inside the call, out of the views' sight; this is how a query learns
   * of the retries its own reads needed.
   */
  private static final ThreadLocal<Attribution> ATTRIBUTED = new ThreadLocal<>();

  private record Attribution(StorageStats stats, Attribution outer) {}

  /** A storage call that may throw. */
  @FunctionalInterface
  public interface Call<T> {
    T run() throws java.io.IOException;
  }

  /**
   * Runs {@code call}, counting in these stats as well the retries the store's client makes on this
   * thread meanwhile ({@link #recordRetryOfCurrentCalls}).
   */
  public <T> T attributing(Call<T> call) throws java.io.IOException {
    Attribution outer = ATTRIBUTED.get();
    ATTRIBUTED.set(new Attribution(this, outer));
    try {
      return call.run();
    } finally {
      if (outer == null) {
        ATTRIBUTED.remove();
      } else {
        ATTRIBUTED.set(outer);
      }
    }
  }

  /**
   * Counts one retry in the stats of every call in progress on this thread ({@link #attributing}).
   */
  public static void recordRetryOfCurrentCalls() {
    for (Attribution at = ATTRIBUTED.get(); at != null; at = at.outer()) {
      at.stats().recordRetry();
    }
  }

  public Snapshot snapshot() {
    return new Snapshot(
        getRequests.sum(),
        headRequests.sum(),
        putRequests.sum(),
        listRequests.sum(),
        deleteRequests.sum(),
        bytesRead.sum(),
        bytesWritten.sum(),
        failedRequests.sum(),
        retries.sum());
  }

  /** An immutable reading of the counters; {@link #minus} gives the difference between two. */
  public record Snapshot(
      long getRequests,
      long headRequests,
      long putRequests,
      long listRequests,
      long deleteRequests,
      long bytesRead,
      long bytesWritten,
      long failedRequests,
      long retries) {

    /** A reading without retries (the shape before {@code retries} was counted). */
    public Snapshot(
        long getRequests,
        long headRequests,
        long putRequests,
        long listRequests,
        long deleteRequests,
        long bytesRead,
        long bytesWritten,
        long failedRequests) {
      this(
          getRequests,
          headRequests,
          putRequests,
          listRequests,
          deleteRequests,
          bytesRead,
          bytesWritten,
          failedRequests,
          0);
    }

    public long requests() {
      return getRequests + headRequests + putRequests + listRequests + deleteRequests;
    }

    public Snapshot minus(Snapshot earlier) {
      return new Snapshot(
          getRequests - earlier.getRequests,
          headRequests - earlier.headRequests,
          putRequests - earlier.putRequests,
          listRequests - earlier.listRequests,
          deleteRequests - earlier.deleteRequests,
          bytesRead - earlier.bytesRead,
          bytesWritten - earlier.bytesWritten,
          failedRequests - earlier.failedRequests,
          retries - earlier.retries);
    }
  }
}
