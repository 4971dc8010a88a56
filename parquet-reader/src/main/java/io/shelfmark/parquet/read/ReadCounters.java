package io.shelfmark.parquet.read;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** The live counters behind {@link ReadStats}; updated from fetch threads and the decoder. */
final class ReadCounters {
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicInteger pagesRead = new AtomicInteger();
  private final AtomicInteger dictionaryPagesRead = new AtomicInteger();
  private final AtomicInteger keptPagesRead = new AtomicInteger();
  private final AtomicLong fetchNanos = new AtomicLong();
  private final AtomicLong decodeNanos = new AtomicLong();
  private final AtomicInteger chunksReadWhole = new AtomicInteger();

  private volatile ChunkReadFigures chunkReads;

  /** The whole-chunk choice of the read, made once when it starts. */
  void recordChunkReads(ChunkReadFigures figures) {
    chunkReads = figures;
    chunksReadWhole.addAndGet(figures.chunksReadWhole());
  }

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

  /** One column chunk's decoding: how long it waited for bytes, and the rest of its time. */
  void recordChunk(long waitedNanos, long decodingNanos) {
    fetchNanos.addAndGet(waitedNanos);
    decodeNanos.addAndGet(decodingNanos);
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
        keptPagesRead.get(),
        fetchNanos.get(),
        decodeNanos.get(),
        chunksReadWhole.get(),
        Optional.ofNullable(chunkReads));
  }
}
