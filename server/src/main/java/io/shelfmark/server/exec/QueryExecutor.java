package io.shelfmark.server.exec;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.UnsupportedParquetException;
import io.shelfmark.parquet.read.ParquetFileReader;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.server.result.ExecutionStatistics;
import io.shelfmark.server.result.PartialResult;
import io.shelfmark.server.result.RowOrdering;
import io.shelfmark.sql.plan.QueryPlan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

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
  // Parsed footers and page locations of segmented files, kept while their segment is open (weak
  // keys): parsing a footer's Thrift on every query would cost more than many queries themselves.
  private final Cache<Segment, SegmentFiles.Metadata> metadata =
      Caffeine.newBuilder().weakKeys().maximumSize(100_000).build();

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
        new ParquetFileReader(context.dataStore(), context.ioExecutor(), context.readerOptions());
    // Once one file fails, the others stop at their next check instead of running to the end.
    AtomicBoolean abandoned = new AtomicBoolean();
    ExecutionContext files =
        new ExecutionContext(
            context.dataStore(),
            context.fileExecutor(),
            context.ioExecutor(),
            context.tableSchema(),
            context.deadline(),
            () -> abandoned.get() || context.cancelled().getAsBoolean(),
            context.clock(),
            context.readerOptions());
    List<CompletableFuture<PartialResult>> futures = new ArrayList<>(tasks.size());
    for (FileTask task : tasks) {
      futures.add(
          CompletableFuture.supplyAsync(
              () -> runFile(plan, task, files, reader, metadata), context.fileExecutor()));
    }
    PartialResult merged =
        plan.aggregated()
            ? PartialResult.ofGroups(List.of(), ExecutionStatistics.EMPTY)
            : PartialResult.ofRows(List.of(), ExecutionStatistics.EMPTY);
    try {
      for (CompletableFuture<PartialResult> future : futures) {
        merged = merged.merge(await(future, context));
        if (!plan.aggregated()) {
          merged = trim(plan, merged);
        }
      }
    } catch (RuntimeException e) {
      abandoned.set(true);
      for (CompletableFuture<PartialResult> future : futures) {
        future.cancel(true);
      }
      throw e;
    }
    return merged;
  }

  private static PartialResult await(
      CompletableFuture<PartialResult> future, ExecutionContext context) {
    Duration remaining = Duration.between(context.clock().instant(), context.deadline());
    try {
      return future.get(Math.max(0, remaining.toNanos()), TimeUnit.NANOSECONDS);
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
      QueryPlan plan,
      FileTask task,
      ExecutionContext context,
      ParquetFileReader reader,
      Cache<Segment, SegmentFiles.Metadata> metadata) {
    try {
      return new FileExecution(plan, task, context, reader, metadata).run();
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
