package io.shelfmark.server.exec;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.exchange.error.QueryCancelledException;
import io.shelfmark.exchange.error.QueryInternalException;
import io.shelfmark.exchange.error.QueryTimeoutException;
import io.shelfmark.exchange.error.UnsupportedQueryException;
import io.shelfmark.exchange.fragment.QueryLimits;
import io.shelfmark.exchange.result.ExecutionStatistics;
import io.shelfmark.exchange.result.PartialResult;
import io.shelfmark.exchange.result.RowOrdering;
import io.shelfmark.exchange.result.RowSink;
import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.UnsupportedParquetException;
import io.shelfmark.parquet.decode.DecodedDictionaries;
import io.shelfmark.parquet.decode.DecompressedPages;
import io.shelfmark.parquet.read.ParquetFileReader;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.sql.plan.QueryPlan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Executes a plan fragment on a server: every file task in parallel on the context's file executor,
 * each producing a partial result, merged into one. For an aggregated query the partial holds the
 * groups' mergeable states; for a selection at most offset + limit rows in the plan's order. The
 * broker merges servers' partials and finishes them with {@code ResultFinisher}.
 *
 * <p>Unsupported situations fail the whole query with {@link UnsupportedQueryException}, never with
 * a partial answer. The deadline and cancellation are checked between row groups and batches of
 * every file; when one trips, the other files' work is cancelled and their reads closed.
 *
 * <p>Thread safe and stateless: one executor serves every query.
 */
public final class QueryExecutor {
  private final int workers;
  private final DecompressedPages keptPages;
  private final DecodedDictionaries dictionaries;

  /** Runs each query's files on at most as many file-executor threads as there are cores. */
  public QueryExecutor() {
    this(Runtime.getRuntime().availableProcessors(), DecompressedPages.NONE);
  }

  /**
   * @param workers at most this many file-executor threads work on one query's files at once (size
   *     of the file executor, usually the cores)
   * @param keptPages where decompressed data pages are kept across queries ({@link
   *     DecompressedPages#NONE} to decompress every page each time)
   */
  public QueryExecutor(int workers, DecompressedPages keptPages) {
    this(workers, keptPages, DecodedDictionaries.NONE);
  }

  /**
   * As {@link #QueryExecutor(int, DecompressedPages)}, keeping decoded dictionaries across queries
   * in {@code dictionaries}.
   */
  public QueryExecutor(int workers, DecompressedPages keptPages, DecodedDictionaries dictionaries) {
    if (workers < 1) {
      throw new IllegalArgumentException(
          "Cannot run queries on %d workers (at least one)".formatted(workers));
    }
    this.workers = workers;
    this.keptPages = requireNonNull(keptPages, "keptPages is null");
    this.dictionaries = requireNonNull(dictionaries, "dictionaries is null");
  }

  /**
   * @throws UnsupportedQueryException when a file cannot be answered correctly
   * @throws QueryExecutionException when the data makes the query fail (overflow)
   * @throws QueryTimeoutException when the deadline passes
   * @throws QueryCancelledException when the caller cancels
   * @throws QueryInternalException when reading a file or segment fails
   */
  public PartialResult execute(QueryPlan plan, List<FileTask> tasks, ExecutionContext context) {
    requireNonNull(plan, "plan is null");
    requireNonNull(tasks, "tasks is null");
    requireNonNull(context, "context is null");
    ParquetFileReader reader =
        new ParquetFileReader(
            context.dataStore(),
            context.ioExecutor(),
            context.readerOptions(),
            keptPages,
            dictionaries);
    // Once one file fails, the others stop at their next check instead of running to the end.
    AtomicBoolean abandoned = new AtomicBoolean();
    ExecutionContext files =
        context.withCancelled(() -> abandoned.get() || context.cancelled().getAsBoolean());
    // A few workers per query pull the files in turn: one hand-off per worker instead of one per
    // file, which for a count over fifty segments cost more than the counting.
    FileQueue queue = new FileQueue(plan, tasks, files, reader, abandoned);
    int started = Math.min(workers, tasks.size());
    List<CompletableFuture<Void>> futures = new ArrayList<>(started);
    for (int i = 0; i < started; i++) {
      futures.add(CompletableFuture.runAsync(queue::drain, context.fileExecutor()));
    }
    try {
      for (CompletableFuture<Void> future : futures) {
        await(future, context);
      }
    } catch (RuntimeException e) {
      abandoned.set(true);
      for (CompletableFuture<Void> future : futures) {
        future.cancel(true);
      }
      // The file that failed first says why; the others only stopped because it did.
      RuntimeException first = queue.firstFailure();
      throw first != null ? first : e;
    }
    if (plan.aggregated()) {
      // One merge of every file's groups: merging file after file copied the groups (and each
      // COUNT(DISTINCT)'s set) seen so far at every file, quadratic in the files.
      List<PartialResult> partials = new ArrayList<>(tasks.size());
      for (PartialResult partial : queue.results()) {
        if (partial != null) {
          partials.add(partial);
        }
      }
      return PartialResult.mergeAll(partials, context::checkContinue, limits(context));
    }
    PartialResult merged = PartialResult.ofRows(List.of(), ExecutionStatistics.EMPTY);
    // In task order, whichever worker ran each file: a selection without ORDER BY keeps the same
    // rows run after run.
    for (PartialResult partial : queue.results()) {
      if (partial == null) {
        continue; // not run: the files before it already held the rows a LIMIT asks for
      }
      context.checkContinue();
      merged = trim(plan, merged.merge(partial));
      context.limits().checkRows(merged.rows().size());
    }
    return merged;
  }

  /**
   * Executes a selection without ORDER BY and hands its rows to {@code sink} as they are produced,
   * file after file in task order on the calling thread (so the rows come in the order {@link
   * #execute} keeps them, and a sink that blocks stalls the whole query: nothing is read ahead of
   * what the sink took but the current file's row group). Stops once the sink is satisfied.
   *
   * @return the files' statistics, without rows
   * @throws IllegalArgumentException when the plan aggregates or orders its rows
   * @throws QueryTimeoutException when the deadline passes
   * @throws QueryCancelledException when the caller cancels
   */
  public PartialResult stream(
      QueryPlan plan, List<FileTask> tasks, ExecutionContext context, RowSink sink) {
    requireNonNull(plan, "plan is null");
    requireNonNull(tasks, "tasks is null");
    requireNonNull(context, "context is null");
    requireNonNull(sink, "sink is null");
    if (plan.aggregated() || !plan.orderBy().isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot stream the rows of %s: only a selection without ORDER BY streams"
              .formatted(plan));
    }
    ParquetFileReader reader =
        new ParquetFileReader(
            context.dataStore(),
            context.ioExecutor(),
            context.readerOptions(),
            keptPages,
            dictionaries);
    PartialResult merged = PartialResult.ofRows(List.of(), ExecutionStatistics.EMPTY);
    for (FileTask task : tasks) {
      if (sink.isSatisfied()) {
        break;
      }
      context.checkContinue();
      merged = merged.merge(runFile(plan, task, context, reader, Optional.of(sink)));
    }
    return merged;
  }

  /**
   * One query's files, handed out one at a time to whichever worker asks next; each file's partial
   * result is kept at the file's position. The first failure stops every worker at its next file
   * (and, through the abandon flag the files poll, inside the file it is running).
   *
   * <p>A selection with a LIMIT and no ORDER BY stops handing out files once the files before the
   * first unfinished one hold offset + limit rows: the rows kept are those a run over every file
   * keeps (the first ones in file order), so the answer does not depend on which files ran.
   */
  private static final class FileQueue {
    private final QueryPlan plan;
    private final List<FileTask> tasks;
    private final ExecutionContext context;
    private final ParquetFileReader reader;
    private final AtomicBoolean abandoned;
    private final PartialResult[] results;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicReference<RuntimeException> firstFailure = new AtomicReference<>();

    /** Rows a LIMIT without ORDER BY needs; Long.MAX_VALUE when every file must run. */
    private final long wanted;

    /** The files [0, prefixEnd) have finished, holding prefixRows rows. Guarded by this. */
    private int prefixEnd;

    private long prefixRows;
    private volatile boolean enough;

    FileQueue(
        QueryPlan plan,
        List<FileTask> tasks,
        ExecutionContext context,
        ParquetFileReader reader,
        AtomicBoolean abandoned) {
      this.plan = plan;
      this.tasks = tasks;
      this.context = context;
      this.reader = reader;
      this.abandoned = abandoned;
      this.results = new PartialResult[tasks.size()];
      this.wanted =
          plan.aggregated() || !plan.orderBy().isEmpty()
              ? Long.MAX_VALUE
              : RowCollector.wanted(plan);
    }

    void drain() {
      int index;
      while (!abandoned.get() && !enough && (index = next.getAndIncrement()) < tasks.size()) {
        try {
          // Written before the worker's future completes, read after the caller joined it.
          PartialResult result = runFile(plan, tasks.get(index), context, reader);
          results[index] = result;
          if (wanted != Long.MAX_VALUE) {
            finished();
          }
        } catch (RuntimeException e) {
          firstFailure.compareAndSet(null, e);
          abandoned.set(true);
          throw e;
        }
      }
    }

    /** Extends the finished prefix of files; enough once it holds the rows the LIMIT wants. */
    private synchronized void finished() {
      while (prefixEnd < results.length && results[prefixEnd] != null) {
        prefixRows += results[prefixEnd].rows().size();
        prefixEnd++;
      }
      if (prefixRows >= wanted) {
        enough = true;
      }
    }

    /** The failure that made the query stop, if a file failed. */
    RuntimeException firstFailure() {
      return firstFailure.get();
    }

    /**
     * Every file's partial result, in task order, null for files a satisfied LIMIT left unrun; call
     * after every worker finished.
     */
    List<PartialResult> results() {
      return Arrays.asList(results);
    }
  }

  private static void await(CompletableFuture<Void> future, ExecutionContext context) {
    Duration remaining = Duration.between(context.clock().instant(), context.deadline());
    try {
      future.get(Math.max(0, remaining.toNanos()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      context.checkContinue();
      throw new QueryTimeoutException(
          "Cannot finish the query: its deadline %s has passed (raise the timeout or narrow the query)"
              .formatted(context.deadline()),
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueryCancelledException(
          "Cannot finish the query: the server thread was interrupted", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() instanceof CompletionException c ? c.getCause() : e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new QueryInternalException("Cannot execute the query: " + cause, cause);
    }
  }

  private static PartialResult runFile(
      QueryPlan plan, FileTask task, ExecutionContext context, ParquetFileReader reader) {
    return runFile(plan, task, context, reader, Optional.empty());
  }

  private static PartialResult runFile(
      QueryPlan plan,
      FileTask task,
      ExecutionContext context,
      ParquetFileReader reader,
      Optional<RowSink> sink) {
    try {
      // What queries over a segmented file reuse (parsed footer, page locations, field mapping,
      // live docs) is kept on its open segment: parsing a footer's Thrift on every query would
      // cost more than many queries themselves.
      return new FileExecution(plan, task, context, reader, sink).run();
    } catch (UnsupportedParquetException e) {
      throw new UnsupportedQueryException(
          "Cannot read data file %s: %s".formatted(task.file().path(), e.getMessage()), e);
    } catch (CorruptParquetException e) {
      throw new QueryInternalException(e.getMessage(), e);
    } catch (IOException | UncheckedIOException e) {
      throw new QueryInternalException(
          "Cannot read data file %s: %s (check the object store and the file)"
              .formatted(task.file().path(), e.getMessage()),
          e);
    }
  }

  /**
   * Prepares what every query over {@code segment}'s data file reuses (parsed footer, page
   * locations, Parquet schema), kept on the open segment: a server calls it when it opens the
   * segment, so that the first query over the file does not wait for it.
   *
   * @throws UnsupportedQueryException if the segment is not exactly this file's
   * @throws IOException if the segment's footer or page layout cannot be read
   */
  public static void prepare(Segment segment, DataFileInfo file) throws IOException {
    FileExecution.prepare(segment, file);
  }

  /** The merge's bounds, from the query's limits. */
  static PartialResult.MergeLimits limits(ExecutionContext context) {
    QueryLimits limits = context.limits();
    return new PartialResult.MergeLimits(limits::checkGroups, limits::checkDistinctValues);
  }

  /** A selection's rows cut to offset + limit, in the plan's order. */
  private static PartialResult trim(QueryPlan plan, PartialResult partial) {
    long wanted = RowCollector.wanted(plan);
    if (partial.rows().size() <= wanted) {
      return partial;
    }
    List<List<Object>> rows =
        plan.orderBy().isEmpty()
            ? partial.rows().subList(0, (int) wanted)
            : new RowOrdering(plan.orderBy(), plan.outputs().size()).first(partial.rows(), wanted);
    return PartialResult.ofRows(rows, partial.statistics());
  }
}
