package io.shelfmark.server.exec;

import static java.util.Objects.requireNonNull;

import io.shelfmark.exchange.error.QueryCancelledException;
import io.shelfmark.exchange.error.QueryInternalException;
import io.shelfmark.exchange.result.ExecutionStatistics;
import io.shelfmark.exchange.result.PartialResult;
import io.shelfmark.parquet.plan.RowGroupAccess;
import io.shelfmark.parquet.plan.RowGroupPlan;
import io.shelfmark.parquet.read.ParquetRead;
import io.shelfmark.parquet.read.RowGroupBatch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * One file's aggregation with its row groups consumed on two threads: the query's own and, when one
 * is free, a file-executor thread. Each row group goes into its own aggregation, and those partials
 * merge in row-group order, so the groups come out in the order one thread would give.
 *
 * <p>Why: the two row groups of a benchmark file arrive together (one GET each) and decode in
 * parallel, but one thread then grouped them one after the other; Q3's 3,600 one-second buckets
 * over 50,000 rows took about 5 ms per row group. A helper that never starts (a busy executor)
 * costs nothing: the query's thread takes every row group, and waits only for row groups a helper
 * has claimed.
 *
 * <p>Used for 2 to {@link #MAX_ROW_GROUPS} row groups: each row group's partial costs a merge of
 * its groups. Not thread safe for callers: {@link #run} once.
 */
final class RowGroupAggregation {
  /** More row groups than this are consumed on one thread, as one aggregation. */
  static final int MAX_ROW_GROUPS = 8;

  private final ParquetRead read;
  private final Supplier<RowBatches> newBatches;
  private final ExecutionContext context;
  private final RowBatches[] consumed;
  private int claimed;
  private int finished;
  private Throwable failure;

  /**
   * @param newBatches a fresh {@link RowBatches} over its own {@link AggregateConsumer} per call
   */
  RowGroupAggregation(
      ParquetRead read, int rowGroups, Supplier<RowBatches> newBatches, ExecutionContext context) {
    this.read = requireNonNull(read, "read is null");
    this.newBatches = requireNonNull(newBatches, "newBatches is null");
    this.context = requireNonNull(context, "context is null");
    this.consumed = new RowBatches[rowGroups];
  }

  /** The row groups {@code read} will hand out, or 0 when they are too many to split. */
  static int rowGroupsToSplit(ParquetRead read) {
    int rowGroups = 0;
    for (RowGroupPlan rowGroup : read.plan().rowGroups()) {
      if (rowGroup.access() != RowGroupAccess.SKIP) {
        rowGroups++;
      }
    }
    return rowGroups >= 2 && rowGroups <= MAX_ROW_GROUPS ? rowGroups : 0;
  }

  /** What the row groups gave: their merged groups (empty statistics) and the docs scanned. */
  record Result(PartialResult groups, long docsScanned) {}

  /**
   * Consumes every row group of the read, with a helper on {@code executor} if one starts in time.
   *
   * @throws IOException when reading or decoding a row group fails
   */
  Result run(Executor executor) throws IOException {
    try {
      // The first row group's next() hands the second's decoding to the executor: only then the
      // helper, so that on a bounded executor it queues behind that decoding, not ahead of it.
      Claimed first = claim();
      try {
        executor.execute(this::help);
      } catch (RejectedExecutionException e) {
        // This thread takes every row group.
      }
      if (first != null) {
        consume(first);
      }
      drain();
    } catch (RuntimeException | IOException e) {
      fail(e);
      throw e;
    }
    awaitClaimed();
    List<PartialResult> partials = new ArrayList<>(consumed.length);
    long docs = 0;
    for (RowBatches batches : consumed) {
      partials.add(batches.result(ExecutionStatistics.EMPTY));
      docs += batches.docsScanned();
    }
    return new Result(
        PartialResult.mergeAll(partials, context::checkContinue, QueryExecutor.limits(context)),
        docs);
  }

  private void help() {
    try {
      drain();
    } catch (RuntimeException | IOException e) {
      fail(e);
    }
  }

  /** A row group taken by one thread, decoded, to be consumed by the same. */
  private record Claimed(int index, RowGroupBatch batch) {}

  /** Takes row groups in file order until none is left or one failed. */
  private void drain() throws IOException {
    for (Claimed claimed = claim(); claimed != null; claimed = claim()) {
      consume(claimed);
    }
  }

  /** The next row group, decoded; null when none is left or a thread failed. */
  private synchronized Claimed claim() throws IOException {
    if (failure != null || claimed == consumed.length || !read.hasNext()) {
      return null;
    }
    context.checkContinue();
    int index = claimed++;
    try {
      return new Claimed(index, read.next());
    } catch (RuntimeException | IOException e) {
      finished++; // claimed, never to be consumed: the waiter must not wait for it
      throw e;
    }
  }

  private void consume(Claimed claimed) {
    RowBatches batches = newBatches.get();
    try {
      batches.fromParquet(claimed.batch());
    } finally {
      synchronized (this) {
        consumed[claimed.index()] = batches;
        finished++;
        notifyAll();
      }
    }
  }

  private synchronized void fail(Throwable e) {
    if (failure == null) {
      failure = e;
    }
    notifyAll();
  }

  /** Waits for the row groups a helper claimed; rethrows the helper's failure. */
  private synchronized void awaitClaimed() throws IOException {
    while (finished < claimed && failure == null) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new QueryCancelledException(
            "Cannot finish the query: the server thread was interrupted", e);
      }
    }
    switch (failure) {
      case null -> {}
      case IOException io -> throw io;
      case RuntimeException runtime -> throw runtime;
      default -> throw new QueryInternalException("Cannot aggregate: " + failure, failure);
    }
    if (claimed < consumed.length) {
      throw new IllegalStateException(
          "Cannot aggregate: %d of %d row groups were read".formatted(claimed, consumed.length));
    }
  }
}
