package io.shelfmark.storage.spi;

import java.util.concurrent.atomic.LongAdder;

/**
 * Request and byte counters of one store. Counting is cheap ({@link LongAdder}) and always on;
 * {@link #snapshot()} gives an immutable view for reports and the metrics endpoint.
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

  public Snapshot snapshot() {
    return new Snapshot(
        getRequests.sum(),
        headRequests.sum(),
        putRequests.sum(),
        listRequests.sum(),
        deleteRequests.sum(),
        bytesRead.sum(),
        bytesWritten.sum(),
        failedRequests.sum());
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
      long failedRequests) {

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
          failedRequests - earlier.failedRequests);
    }
  }
}
