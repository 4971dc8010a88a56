package io.shelfmark.parquet.read;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.coalesce.ByteRange;
import io.shelfmark.storage.spi.CountedAtEnd;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.storage.spi.RangeBuffers;
import io.shelfmark.storage.spi.StorageException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;

/**
 * The ranged GETs of one stage of one read, started in parallel on an executor ahead of the
 * consumer and handed out as slices.
 *
 * <p>Built from the ranges the consumer will ask for (in the order it will ask) and the merged
 * reads that cover them (from the range coalescer). Reads start in the order of their first use, as
 * long as the bytes fetched but not yet consumed stay under the prefetch budget; the read the
 * consumer waits for is always started, so the budget slows a read down but never stalls it. A
 * merged read's buffer is dropped once every range inside it has been handed out.
 *
 * <p>A range is handed out as soon as its bytes have arrived, not when its whole read has: the
 * store reports a GET's body as it streams in ({@link ObjectStore.RangeProgress}), so the first
 * pages of a read are decoded while its last ones are still on the way. Where the store reports
 * only whole reads (a cache, the local filesystem), a range waits for its read as before.
 *
 * <p>A read's body lands in one array per range inside it ({@link RangeBuffers}), so a range is
 * handed out without a copy and no array is as large as a merged read of a few MiB: the collector
 * allocates arrays of half a region or more outside the young generation, and one per GET kept
 * restarting its concurrent cycles (docs/performance.md, "GC: humongous allocations"). The bytes
 * read through between ranges go to arrays of at most {@link #MAX_GAP_PIECE} bytes.
 *
 * <p>Thread safety: {@link #await} is called by one consumer thread; completions arrive on executor
 * threads; bookkeeping is guarded by this object's monitor.
 */
final class RangeFetch implements AutoCloseable {
  /** The largest array for bytes between ranges (read through to save a request, then dropped). */
  static final int MAX_GAP_PIECE = 256 << 10;

  private final ObjectStore store;
  private final Location file;
  private final Executor executor;
  private final ReadCounters counters;
  private final long prefetchBudget;
  private final ByteRange[] reads; // sorted by offset, disjoint
  private final int[] launchOrder; // read indexes by first use
  private final int[] usesLeft; // per read: ranges inside it not yet handed out
  private final int[][] pieceLengths; // per read: its ranges and the gaps between them
  private final CompletableFuture<RangeBuffers>[] futures;
  private final RangeBuffers[] buffers; // per read: what its GET fills, once it runs
  private final int[] filled; // per read: how many leading bytes of its buffer have arrived
  private int nextLaunch;
  private long bytesInFlight;
  private boolean closed;

  @SuppressWarnings({"unchecked", "rawtypes"})
  RangeFetch(
      ObjectStore store,
      Location file,
      Executor executor,
      ReadCounters counters,
      long prefetchBudget,
      List<ByteRange> mergedReads,
      List<ByteRange> uses) {
    this.store = requireNonNull(store, "store is null");
    this.file = requireNonNull(file, "file is null");
    this.executor = requireNonNull(executor, "executor is null");
    this.counters = requireNonNull(counters, "counters is null");
    this.prefetchBudget = prefetchBudget;
    this.reads = mergedReads.toArray(ByteRange[]::new);
    Arrays.sort(reads, Comparator.comparingLong(ByteRange::offset));
    this.usesLeft = new int[reads.length];
    this.futures = new CompletableFuture[reads.length];
    this.buffers = new RangeBuffers[reads.length];
    this.pieceLengths = new int[reads.length][];
    for (int read = 0; read < reads.length; read++) {
      pieceLengths[read] = pieceLengths(reads[read], uses);
    }
    this.filled = new int[reads.length];
    int[] firstUse = new int[reads.length];
    Arrays.fill(firstUse, Integer.MAX_VALUE);
    for (int use = 0; use < uses.size(); use++) {
      ByteRange range = uses.get(use);
      for (int read = firstOverlapping(range); read < reads.length; read++) {
        if (reads[read].offset() >= end(range)) {
          break;
        }
        usesLeft[read]++;
        firstUse[read] = Math.min(firstUse[read], use);
      }
    }
    Integer[] order = new Integer[reads.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingInt((Integer read) -> firstUse[read]));
    this.launchOrder = new int[reads.length];
    for (int i = 0; i < order.length; i++) {
      launchOrder[i] = order[i];
    }
  }

  /** Starts reads in order of first use while the prefetch budget allows, and at least one. */
  synchronized void start() {
    launchWithinBudget();
  }

  /** The number of merged reads this fetch issues. */
  int readCount() {
    return reads.length;
  }

  /** The merged reads, sorted by offset. */
  List<ByteRange> reads() {
    return List.of(reads);
  }

  /** Whether the read covering {@code range}'s first byte has been started (for tests). */
  synchronized boolean isStarted(ByteRange range) {
    int read = firstOverlapping(range);
    return read < reads.length && futures[read] != null;
  }

  /**
   * Waits for the bytes of {@code range} (one of the uses given at construction) and returns them
   * as a buffer positioned at 0. A range inside one read is a view of that read's buffer; a range
   * spanning reads (a large range the coalescer split) is copied together.
   */
  ByteBuffer await(ByteRange range) throws IOException {
    int first = firstOverlapping(range);
    int last = first;
    while (last + 1 < reads.length && reads[last + 1].offset() < end(range)) {
      last++;
    }
    if (first >= reads.length
        || reads[first].offset() > range.offset()
        || end(reads[last]) < end(range)) {
      throw new IllegalStateException(
          "Cannot find %s among the reads of %s".formatted(range, file));
    }
    if (first == last) {
      RangeBuffers bytes = awaitBytes(first, (int) (end(range) - reads[first].offset()));
      release(first);
      int from = (int) (range.offset() - reads[first].offset());
      if (length(range) == 0) {
        return ByteBuffer.allocate(0);
      }
      int piece = bytes.pieceAt(from);
      int inPiece = from - bytes.pieceStart(piece);
      if (inPiece + length(range) <= bytes.piece(piece).length) {
        return ByteBuffer.wrap(bytes.piece(piece), inPiece, length(range)).slice();
      }
      // A range cut by another one that overlaps it: put its pieces together.
      byte[] copy = new byte[length(range)];
      bytes.copyTo(from, copy, 0, length(range));
      return ByteBuffer.wrap(copy);
    }
    byte[] copy = new byte[length(range)];
    for (int read = first; read <= last; read++) {
      long from = Math.max(range.offset(), reads[read].offset());
      long to = Math.min(end(range), end(reads[read]));
      RangeBuffers bytes = awaitBytes(read, (int) (to - reads[read].offset()));
      bytes.copyTo(
          (int) (from - reads[read].offset()),
          copy,
          (int) (from - range.offset()),
          (int) (to - from));
      release(read);
    }
    return ByteBuffer.wrap(copy);
  }

  /**
   * The pieces a read's body goes to: cut at every edge of a range inside it, so each range that no
   * other range overlaps gets an array of its own; bytes between ranges in pieces of at most {@link
   * #MAX_GAP_PIECE}.
   */
  static int[] pieceLengths(ByteRange read, List<ByteRange> uses) {
    long start = read.offset();
    long end = end(read);
    long[] cuts = new long[2 * uses.size() + 2];
    int count = 0;
    cuts[count++] = start;
    cuts[count++] = end;
    for (ByteRange use : uses) {
      if (use.offset() < end && end(use) > start) {
        cuts[count++] = Math.max(start, use.offset());
        cuts[count++] = Math.min(end, end(use));
      }
    }
    Arrays.sort(cuts, 0, count);
    int[] lengths = new int[count + Math.toIntExact(length(read) / MAX_GAP_PIECE)];
    int pieces = 0;
    for (int i = 1; i < count; i++) {
      long from = cuts[i - 1];
      long to = cuts[i];
      if (to == from) {
        continue;
      }
      long step = to - from <= MAX_GAP_PIECE || isRange(from, to, uses) ? to - from : MAX_GAP_PIECE;
      for (long at = from; at < to; at += step) {
        lengths[pieces++] = Math.toIntExact(Math.min(step, to - at));
      }
    }
    return Arrays.copyOf(lengths, pieces);
  }

  private static boolean isRange(long from, long to, List<ByteRange> uses) {
    for (ByteRange use : uses) {
      if (use.offset() == from && end(use) == to) {
        return true;
      }
    }
    return false;
  }

  /**
   * Waits until the first {@code needed} bytes of read {@code read} have arrived (starting it if
   * the budget held it back) and returns its buffer; if the read ends without them, its failure.
   */
  private RangeBuffers awaitBytes(int read, int needed) throws IOException {
    CompletableFuture<RangeBuffers> future;
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("Cannot read from " + file + ": the read is closed");
      }
      if (futures[read] == null) {
        launch(read);
      }
      future = futures[read];
      try {
        while (filled[read] < needed && !future.isDone()) {
          wait();
        }
      } catch (InterruptedException e) {
        throw interrupted(read, e);
      }
      if (filled[read] >= needed) {
        return buffers[read];
      }
    }
    // Done without the bytes: it failed or was cancelled (or its store never reported progress).
    return join(read, future);
  }

  private synchronized void filling(int read, RangeBuffers into) {
    buffers[read] = into;
  }

  /** Progress of read {@code read}'s GET, on the reading thread: wakes the consumer. */
  private synchronized void arrived(int read, int count) {
    if (count > filled[read]) {
      filled[read] = count;
      notifyAll();
    }
  }

  private synchronized void readEnded() {
    notifyAll();
  }

  private InterruptedIOException interrupted(int read, InterruptedException e) {
    Thread.currentThread().interrupt();
    InterruptedIOException interrupted =
        new InterruptedIOException("Interrupted while reading " + reads[read] + " of " + file);
    interrupted.initCause(e);
    return interrupted;
  }

  private RangeBuffers join(int read, CompletableFuture<RangeBuffers> future) throws IOException {
    try {
      return future.get();
    } catch (InterruptedException e) {
      throw interrupted(read, e);
    } catch (CancellationException e) {
      throw new StorageException("Cannot read " + reads[read] + " of " + file + ": cancelled", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof UncheckedIOException unchecked) {
        cause = unchecked.getCause();
      }
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new StorageException(
          "Cannot read %s of %s: %s".formatted(reads[read], file, cause), cause);
    }
  }

  private synchronized void release(int read) {
    if (--usesLeft[read] == 0 && futures[read] != null) {
      // Keep the completed future (so a late duplicate use still works) but account the bytes as
      // consumed: the decoder copies what it keeps.
      bytesInFlight -= length(reads[read]);
      launchWithinBudget();
    }
  }

  private void launchWithinBudget() {
    while (nextLaunch < launchOrder.length) {
      int read = launchOrder[nextLaunch];
      if (futures[read] != null) {
        nextLaunch++;
        continue;
      }
      if (bytesInFlight > 0 && bytesInFlight + length(reads[read]) > prefetchBudget) {
        return;
      }
      launch(read);
      nextLaunch++;
    }
  }

  private void launch(int read) {
    ByteRange range = reads[read];
    bytesInFlight += length(range);
    CompletableFuture<RangeBuffers> future =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                // Allocated here, not by the launching thread: the consumer's start() launches.
                RangeBuffers into = RangeBuffers.pieces(pieceLengths[read]);
                filling(read, into);
                // Counted before the last bytes are handed out: a consumer that has every byte
                // also sees the request in the read's statistics.
                CountedAtEnd counting =
                    new CountedAtEnd(
                        counters::recordRequest, into.length(), count -> arrived(read, count));
                store.readRange(file, range.offset(), into, counting);
                counting.settle();
                return into;
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            },
            executor);
    futures[read] = future;
    // A consumer waiting for bytes that will not come (failed, cancelled) must wake up.
    future.whenComplete((bytes, failure) -> readEnded());
  }

  @Override
  public synchronized void close() {
    closed = true;
    for (CompletableFuture<RangeBuffers> future : futures) {
      if (future != null) {
        future.cancel(false);
      }
    }
  }

  private int firstOverlapping(ByteRange range) {
    // The last read starting at or before the range's offset, else the first read after it.
    int low = 0;
    int high = reads.length - 1;
    int found = 0;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (reads[mid].offset() <= range.offset()) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    if (found < reads.length && end(reads[found]) <= range.offset()) {
      found++;
    }
    return found;
  }

  private static long end(ByteRange range) {
    return range.offset() + range.length();
  }

  private static int length(ByteRange range) {
    return Math.toIntExact(range.length());
  }
}
