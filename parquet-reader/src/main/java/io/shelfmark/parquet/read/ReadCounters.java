package io.shelfmark.parquet.read;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** The live counters behind {@link ReadStats}; updated from fetch threads and the decoder. */
final class ReadCounters {
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicInteger pagesRead = new AtomicInteger();
  private final AtomicInteger dictionaryPagesRead = new AtomicInteger();
  private final AtomicInteger keptPagesRead = new AtomicInteger();

  void recordRequest(long bytesRead) {
    requests.incrementAndGet();
    bytes.addAndGet(bytesRead);
  }

  void recordPage() {
    pagesRead.incrementAndGet();
  }

  void recordKeptPage() {
    keptPagesRead.incrementAndGet();
  }

  void recordDictionaryPage() {
    dictionaryPagesRead.incrementAndGet();
  }

  ReadStats snapshot(int pagesPlanned, int dictionaryPagesPlanned, long lowerBoundBytes) {
    return new ReadStats(
        pagesPlanned,
        dictionaryPagesPlanned,
        pagesRead.get(),
        dictionaryPagesRead.get(),
        requests.get(),
        bytes.get(),
        lowerBoundBytes,
        keptPagesRead.get());
  }
}
