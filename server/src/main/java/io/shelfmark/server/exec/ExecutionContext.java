package io.shelfmark.server.exec;

import static java.util.Objects.requireNonNull;

import io.shelfmark.exchange.error.QueryCancelledException;
import io.shelfmark.exchange.error.QueryTimeoutException;
import io.shelfmark.exchange.error.UnsupportedQueryException;
import io.shelfmark.exchange.fragment.EngineOption;
import io.shelfmark.exchange.fragment.QueryLimits;
import io.shelfmark.parquet.read.ReaderOptions;
import io.shelfmark.storage.spi.ObjectStore;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.Schema;

/**
 * Everything one query's execution on a server needs besides the plan and the files.
 *
 * <p>Two executors, because file work waits on I/O: {@code fileExecutor} runs one task per data
 * file (decoding and aggregation, between waits for pages: virtual threads, or a pool sized to the
 * cores, which a wait then holds), {@code ioExecutor} runs the Parquet reader's ranged GETs (they
 * block; size it for the requests in flight). If the same bounded pool served both, files waiting
 * for their pages could occupy every thread and starve the GETs they wait for.
 *
 * @param dataStore where Parquet data files are read: a plain store, or a {@code
 *     CachingObjectStore} for the "page cache" mode
 * @param fileExecutor runs per-file work
 * @param ioExecutor runs ranged GETs
 * @param tableSchema the table's current Iceberg schema (the one the plan was bound against): it
 *     maps columns to Parquet fields by field id
 * @param deadline when the query times out; checked between row groups and batches
 * @param cancelled polled with the deadline; true once the caller cancels
 * @param clock the time source for the deadline
 * @param readerOptions coalescing and prefetch settings for Parquet reads
 * @param limits how large the query's groups, distinct sets and kept rows may grow
 * @param profiles where each file's profile goes (EXPLAIN, EXPLAIN ANALYZE); {@link
 *     FileProfiles#off()} for a plain query
 * @param useStarTrees whether files may be answered from their segments' star-trees (the query
 *     option {@code useStarTree=false} turns it off, to compare)
 * @param usePageStatistics whether MIN/MAX may take the Parquet page statistics of pages whose rows
 *     all match instead of reading them ({@link PageExtremes}; the query option {@code
 *     usePageStatistics=false} turns it off, to compare)
 */
public record ExecutionContext(
    ObjectStore dataStore,
    Executor fileExecutor,
    Executor ioExecutor,
    Schema tableSchema,
    Instant deadline,
    BooleanSupplier cancelled,
    Clock clock,
    ReaderOptions readerOptions,
    QueryLimits limits,
    FileProfiles profiles,
    boolean useStarTrees,
    boolean usePageStatistics) {
  /** The query option that turns star-tree answers off ({@code useStarTree=false}), as Pinot's. */
  public static final String USE_STAR_TREE_OPTION = EngineOption.USE_STAR_TREE.optionName();

  /** The query option that turns MIN/MAX from page statistics off. */
  public static final String USE_PAGE_STATISTICS_OPTION =
      EngineOption.USE_PAGE_STATISTICS.optionName();

  public ExecutionContext {
    requireNonNull(dataStore, "dataStore is null");
    requireNonNull(fileExecutor, "fileExecutor is null");
    requireNonNull(ioExecutor, "ioExecutor is null");
    requireNonNull(tableSchema, "tableSchema is null");
    requireNonNull(deadline, "deadline is null");
    requireNonNull(cancelled, "cancelled is null");
    requireNonNull(clock, "clock is null");
    requireNonNull(readerOptions, "readerOptions is null");
    requireNonNull(limits, "limits is null");
    requireNonNull(profiles, "profiles is null");
  }

  /** A context that records profiles under {@code profiles} and uses star-trees. */
  public ExecutionContext(
      ObjectStore dataStore,
      Executor fileExecutor,
      Executor ioExecutor,
      Schema tableSchema,
      Instant deadline,
      BooleanSupplier cancelled,
      Clock clock,
      ReaderOptions readerOptions,
      QueryLimits limits,
      FileProfiles profiles) {
    this(
        dataStore,
        fileExecutor,
        ioExecutor,
        tableSchema,
        deadline,
        cancelled,
        clock,
        readerOptions,
        limits,
        profiles,
        true,
        true);
  }

  /**
   * Whether {@code options} (a fragment's, by name) leave star-trees on: all but {@code
   * useStarTree=false} do.
   *
   * @throws UnsupportedQueryException when the value is neither true nor false
   */
  public static boolean useStarTrees(java.util.Map<String, String> options) {
    return engineOption(EngineOption.USE_STAR_TREE, options).equals("true");
  }

  /**
   * Whether {@code options} leave MIN/MAX from page statistics on: all but {@code
   * usePageStatistics=false} do.
   *
   * @throws UnsupportedQueryException when the value is neither true nor false
   */
  public static boolean usePageStatistics(java.util.Map<String, String> options) {
    return engineOption(EngineOption.USE_PAGE_STATISTICS, options).equals("true");
  }

  /**
   * The query option that forces how partly selected column chunks are fetched: {@code cost} (the
   * default: the reader's cost model), {@code pages} or {@code whole}, to compare.
   */
  public static final String CHUNK_READS_OPTION = EngineOption.CHUNK_READS.optionName();

  /**
   * {@code base} with the chunk reads {@code options} ask for ({@link #CHUNK_READS_OPTION}); {@code
   * base} itself when they ask for none.
   *
   * @throws UnsupportedQueryException for a value other than cost, pages or whole
   */
  public static ReaderOptions readerOptions(
      ReaderOptions base, java.util.Map<String, String> options) {
    if (!options.containsKey(CHUNK_READS_OPTION)) {
      return base;
    }
    return switch (engineOption(EngineOption.CHUNK_READS, options)) {
      case "pages" -> base.withChunkReads(ReaderOptions.ChunkReads.PAGES);
      case "whole" -> base.withChunkReads(ReaderOptions.ChunkReads.WHOLE);
      default -> base.withChunkReads(ReaderOptions.ChunkReads.COST);
    };
  }

  /**
   * The value of {@code option} in {@code options}. The broker refuses a bad value before sending
   * the fragment; this check is for fragments from elsewhere, which must not fall back to the
   * default silently either.
   */
  private static String engineOption(EngineOption option, java.util.Map<String, String> options) {
    try {
      return option.value(options);
    } catch (IllegalArgumentException e) {
      throw new UnsupportedQueryException(e.getMessage());
    }
  }

  /** This context with MIN/MAX from page statistics on or off. */
  public ExecutionContext withPageStatistics(boolean use) {
    return new ExecutionContext(
        dataStore,
        fileExecutor,
        ioExecutor,
        tableSchema,
        deadline,
        cancelled,
        clock,
        readerOptions,
        limits,
        profiles,
        useStarTrees,
        use);
  }

  /** This context reading Parquet with {@code options}. */
  public ExecutionContext withReaderOptions(ReaderOptions options) {
    return new ExecutionContext(
        dataStore,
        fileExecutor,
        ioExecutor,
        tableSchema,
        deadline,
        cancelled,
        clock,
        options,
        limits,
        profiles,
        useStarTrees,
        usePageStatistics);
  }

  /** This context with star-tree answers on or off. */
  public ExecutionContext withStarTrees(boolean use) {
    return new ExecutionContext(
        dataStore,
        fileExecutor,
        ioExecutor,
        tableSchema,
        deadline,
        cancelled,
        clock,
        readerOptions,
        limits,
        profiles,
        use,
        usePageStatistics);
  }

  /** A context that records no profile and uses star-trees. */
  public ExecutionContext(
      ObjectStore dataStore,
      Executor fileExecutor,
      Executor ioExecutor,
      Schema tableSchema,
      Instant deadline,
      BooleanSupplier cancelled,
      Clock clock,
      ReaderOptions readerOptions,
      QueryLimits limits) {
    this(
        dataStore,
        fileExecutor,
        ioExecutor,
        tableSchema,
        deadline,
        cancelled,
        clock,
        readerOptions,
        limits,
        FileProfiles.off());
  }

  /** A context with the default {@link QueryLimits}. */
  public ExecutionContext(
      ObjectStore dataStore,
      Executor fileExecutor,
      Executor ioExecutor,
      Schema tableSchema,
      Instant deadline,
      BooleanSupplier cancelled,
      Clock clock,
      ReaderOptions readerOptions) {
    this(
        dataStore,
        fileExecutor,
        ioExecutor,
        tableSchema,
        deadline,
        cancelled,
        clock,
        readerOptions,
        QueryLimits.defaults());
  }

  /** This context recording its files' profiles under {@code profiles}. */
  ExecutionContext withProfiles(FileProfiles profiles) {
    return new ExecutionContext(
        dataStore,
        fileExecutor,
        ioExecutor,
        tableSchema,
        deadline,
        cancelled,
        clock,
        readerOptions,
        limits,
        profiles,
        useStarTrees,
        usePageStatistics);
  }

  /** This context with {@code cancelled} in place of its own. */
  ExecutionContext withCancelled(BooleanSupplier cancelled) {
    return new ExecutionContext(
        dataStore,
        fileExecutor,
        ioExecutor,
        tableSchema,
        deadline,
        cancelled,
        clock,
        readerOptions,
        limits,
        profiles,
        useStarTrees,
        usePageStatistics);
  }

  /** A context that is never cancelled, with default reader options and the system UTC clock. */
  public static ExecutionContext of(
      ObjectStore dataStore,
      Executor fileExecutor,
      Executor ioExecutor,
      Schema tableSchema,
      Instant deadline) {
    return new ExecutionContext(
        dataStore,
        fileExecutor,
        ioExecutor,
        tableSchema,
        deadline,
        () -> false,
        Clock.systemUTC(),
        ReaderOptions.defaults());
  }

  /**
   * Throws when the query must stop: cancelled by the caller, or past its deadline.
   *
   * @throws QueryCancelledException when cancelled
   * @throws QueryTimeoutException when the deadline has passed
   */
  public void checkContinue() {
    if (cancelled.getAsBoolean()) {
      throw new QueryCancelledException("Cannot finish the query: it was cancelled");
    }
    if (clock.instant().isAfter(deadline)) {
      throw new QueryTimeoutException(
          "Cannot finish the query: its deadline %s has passed (raise the timeout or narrow the query)"
              .formatted(deadline));
    }
  }
}
