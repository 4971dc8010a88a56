package io.shelfmark.indexbuilder.build;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Ticker;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.indexbuilder.spec.SegmentSpec;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.storage.spi.Location;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the segments of many data files in parallel — typically every live file of a table
 * snapshot — skipping files whose segment the store already holds for the same spec.
 *
 * <p>{@code parallelism} workers pull files from a shared queue, largest file first (so a big file
 * does not start last and stretch the batch), and build each with the {@link SegmentFileBuilder}. A
 * file's failure is recorded as its outcome and never stops the others. The existing segments are
 * found with one listing of the spec's directory; if the listing fails, each file is checked with a
 * HEAD instead.
 *
 * <p>Thread safe: concurrent {@link #index} calls are independent.
 */
public final class SnapshotIndexer {
  private static final Logger log = LoggerFactory.getLogger(SnapshotIndexer.class);

  private final SegmentFileBuilder builder;
  private final SegmentStore store;
  private final Optional<Executor> executor;
  private final int parallelism;
  private final Ticker ticker;

  /**
   * Builds on a pool of {@code parallelism} threads created for each batch.
   *
   * @param parallelism files built at once; the machine's processor count is the usual choice
   */
  public SnapshotIndexer(SegmentFileBuilder builder, SegmentStore store, int parallelism) {
    this(builder, store, Optional.empty(), parallelism, Ticker.systemTicker());
  }

  /**
   * Builds on {@code executor}, with at most {@code parallelism} of its threads at once. The
   * executor is not shut down.
   */
  public SnapshotIndexer(
      SegmentFileBuilder builder, SegmentStore store, Executor executor, int parallelism) {
    this(builder, store, Optional.of(executor), parallelism, Ticker.systemTicker());
  }

  SnapshotIndexer(
      SegmentFileBuilder builder,
      SegmentStore store,
      Optional<Executor> executor,
      int parallelism,
      Ticker ticker) {
    this.builder = requireNonNull(builder, "builder is null");
    this.store = requireNonNull(store, "store is null");
    this.executor = requireNonNull(executor, "executor is null");
    this.ticker = requireNonNull(ticker, "ticker is null");
    if (parallelism < 1) {
      throw new IllegalArgumentException(
          "Cannot build segments with parallelism " + parallelism + " (need at least 1)");
    }
    this.parallelism = parallelism;
  }

  /**
   * The default parallelism: one build more than available processors. A build waits on its page
   * reads and on writing its staged segment, and with one build per core those waits leave a core
   * idle: on 2 cores, 3 builds took the warm 20M-row benchmark build from 915,277 to 1,034,119
   * rows/s reading local files (docs/index-builder.md).
   */
  public static int defaultParallelism() {
    return Math.max(1, Runtime.getRuntime().availableProcessors()) + 1;
  }

  /** Builds the segments of every live data file of {@code snapshot}. */
  public IndexingReport index(
      SegmentSpec spec, TableSnapshot snapshot, int formatVersion, IndexingListener listener)
      throws InterruptedException {
    requireNonNull(snapshot, "snapshot is null");
    List<DataFileSource> files = new ArrayList<>();
    for (DataFileInfo file : snapshot.dataFiles()) {
      files.add(DataFileSource.of(file, formatVersion));
    }
    return index(spec, files, listener);
  }

  /**
   * Builds the segments of {@code files} (reusing those already stored) and returns one outcome per
   * file, in the order given.
   *
   * @throws InterruptedException when interrupted while waiting; builds in flight finish, files not
   *     started are left
   */
  public IndexingReport index(
      SegmentSpec spec, List<DataFileSource> files, IndexingListener listener)
      throws InterruptedException {
    requireNonNull(spec, "spec is null");
    requireNonNull(files, "files is null");
    requireNonNull(listener, "listener is null");
    Batch batch = new Batch(spec, List.copyOf(files), listener, existing(spec));
    int workers = Math.min(parallelism, Math.max(1, files.size()));
    ExecutorService own = null;
    Executor runner;
    if (executor.isPresent()) {
      runner = executor.get();
    } else {
      own =
          Executors.newFixedThreadPool(
              workers, Thread.ofPlatform().name("segment-build-", 0).daemon(true).factory());
      runner = own;
    }
    try {
      CountDownLatch finished = new CountDownLatch(workers);
      for (int i = 0; i < workers; i++) {
        try {
          runner.execute(
              () -> {
                try {
                  batch.drain();
                } finally {
                  finished.countDown();
                }
              });
        } catch (RejectedExecutionException e) {
          log.warn("Segment build worker rejected by {}: the remaining workers build", runner, e);
          finished.countDown();
        }
      }
      finished.await();
      batch.drain(); // only finds work when every worker was rejected
    } finally {
      if (own != null) {
        own.shutdownNow();
      }
    }
    return new IndexingReport(batch.outcomes(), batch.elapsed(), workers);
  }

  /** The segments already stored for {@code spec}; empty when the listing fails (HEAD per file). */
  private Optional<Map<Location, Long>> existing(SegmentSpec spec) {
    try {
      return Optional.of(store.list(spec));
    } catch (IOException e) {
      log.warn(
          "Cannot list the segments of {} in {}: checking each file instead",
          spec.table(),
          store,
          e);
      return Optional.empty();
    }
  }

  /** One batch's shared state: the queue, the outcomes, the progress. */
  private final class Batch {
    private final SegmentSpec spec;
    private final List<DataFileSource> files;
    private final IndexingListener listener;
    private final Optional<Map<Location, Long>> existing;
    private final int[] order;
    private final FileOutcome[] outcomes;
    private final AtomicInteger next = new AtomicInteger();
    private final long start = ticker.read();
    private int done;
    private long rowsDone;

    Batch(
        SegmentSpec spec,
        List<DataFileSource> files,
        IndexingListener listener,
        Optional<Map<Location, Long>> existing) {
      this.spec = spec;
      this.files = files;
      this.listener = listener;
      this.existing = existing;
      this.outcomes = new FileOutcome[files.size()];
      Integer[] bySize = new Integer[files.size()];
      for (int i = 0; i < bySize.length; i++) {
        bySize[i] = i;
      }
      Arrays.sort(
          bySize,
          Comparator.comparingLong((Integer i) -> files.get(i).fileSize())
              .reversed()
              .thenComparing(i -> i));
      this.order = Arrays.stream(bySize).mapToInt(Integer::intValue).toArray();
    }

    void drain() {
      for (int taken = next.getAndIncrement();
          taken < order.length;
          taken = next.getAndIncrement()) {
        int index = order[taken];
        FileOutcome outcome = buildOne(files.get(index));
        finish(index, outcome);
      }
    }

    private FileOutcome buildOne(DataFileSource file) {
      try {
        Location location = store.locationOf(spec, file.path(), file.fileSize());
        Optional<Long> stored = stored(location);
        if (stored.isPresent() && stored.get() > 0) {
          return new FileOutcome.Reused(file.path(), location, stored.get(), file.fileSize());
        }
        return builder.build(file, spec, store, location);
      } catch (IOException e) {
        return new FileOutcome.Failed(
            new BuildFailure(file.path(), BuildFailure.Kind.STORAGE, e.getMessage()));
      } catch (RuntimeException e) {
        log.warn("Cannot build the segment of {}", file.path(), e);
        return new FileOutcome.Failed(
            new BuildFailure(file.path(), BuildFailure.Kind.INTERNAL, e.toString()));
      }
    }

    private Optional<Long> stored(Location location) throws IOException {
      if (existing.isPresent()) {
        return Optional.ofNullable(existing.get().get(location));
      }
      return store.find(location).map(info -> info.size());
    }

    private synchronized void finish(int index, FileOutcome outcome) {
      outcomes[index] = outcome;
      done++;
      if (outcome instanceof FileOutcome.Built built) {
        rowsDone += built.result().rows();
      }
      try {
        listener.fileDone(outcome, new IndexingProgress(done, files.size(), rowsDone, elapsed()));
      } catch (RuntimeException e) {
        log.warn("Indexing listener failed on {}; ignored", outcome.dataFile(), e);
      }
    }

    synchronized List<FileOutcome> outcomes() {
      List<FileOutcome> result = new ArrayList<>(outcomes.length);
      for (int i = 0; i < outcomes.length; i++) {
        result.add(
            outcomes[i] != null
                ? outcomes[i]
                : new FileOutcome.Failed(
                    new BuildFailure(
                        files.get(i).path(),
                        BuildFailure.Kind.INTERNAL,
                        "the build was never run (interrupted)")));
      }
      return result;
    }

    Duration elapsed() {
      return Duration.ofNanos(ticker.read() - start);
    }
  }
}
