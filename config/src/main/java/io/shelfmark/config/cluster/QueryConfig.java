package io.shelfmark.config.cluster;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.config.unit.DataSize;
import java.time.Duration;

/**
 * How many queries a node runs at once and how large one may grow ({@code query.*}).
 *
 * <p>Queries are admitted to one of two lanes by their estimated cost: <em>cheap</em> ones (a
 * COUNT(*) without GROUP BY over files that all have segments, answered from the indexes, or a
 * query whose files hold few rows) and <em>heavy</em> ones (everything else). Each lane runs at
 * most {@code max-running} queries and queues at most {@code max-queued} more; beyond that a query
 * is refused at once with TOO_MANY_QUERIES (HTTP 429). Time spent queued counts against the query's
 * timeout. Heavy queries cannot occupy the cheap lane, so a dashboard's index-only counts are not
 * starved by a few scans.
 *
 * @param heavyMaxRunning heavy queries running at once ({@code query.heavy.max-running})
 * @param heavyMaxQueued heavy queries waiting for a slot ({@code query.heavy.max-queued})
 * @param cheapMaxRunning cheap queries running at once ({@code query.cheap.max-running})
 * @param cheapMaxQueued cheap queries waiting for a slot ({@code query.cheap.max-queued})
 * @param cheapMaxRows a query over files holding at most this many rows is cheap whatever it asks
 *     ({@code query.cheap.max-rows})
 * @param maxGroups groups of one aggregation ({@code query.max-groups})
 * @param maxDistinctValues values of one COUNT(DISTINCT) ({@code query.max-distinct-values})
 * @param maxRows rows a selection keeps, offset + limit ({@code query.max-rows})
 * @param maxInListItems items of one IN list ({@code query.max-in-list-items})
 * @param slowThreshold a query at least this slow is logged as slow, at WARN ({@code
 *     query.slow-threshold})
 * @param slowProfile whether a slow query's log line carries its EXPLAIN ANALYZE ({@code
 *     query.slow-profile}): every query then records its files' profiles as it runs (a cost
 *     docs/operations.md measures), and only a slow one has them turned into the report
 * @param readRequestCost what one more ranged GET of Parquet bytes is worth, in bytes ({@code
 *     query.read-request-cost}): a server fetches a partly selected column chunk's whole span in
 *     one request when the requests its pages need cost more than the bytes they skip
 *     (docs/query-execution.md, "Whole chunks or pages")
 */
public record QueryConfig(
    int heavyMaxRunning,
    int heavyMaxQueued,
    int cheapMaxRunning,
    int cheapMaxQueued,
    long cheapMaxRows,
    long maxGroups,
    long maxDistinctValues,
    long maxRows,
    int maxInListItems,
    Duration slowThreshold,
    boolean slowProfile,
    DataSize readRequestCost) {
  /**
   * Heavy queries are CPU bound and each spreads over the cores: half the cores' worth of them
   * keeps the node busy and leaves the rest to cheap queries and HTTP; more only make each one
   * slower, so that all of them time out together.
   */
  public static final int DEFAULT_HEAVY_MAX_RUNNING =
      Math.max(1, Runtime.getRuntime().availableProcessors() / 2);

  public static final int DEFAULT_HEAVY_MAX_QUEUED = 64;

  /** Cheap queries take milliseconds: many may run, their work fits between heavy slices. */
  public static final int DEFAULT_CHEAP_MAX_RUNNING =
      Math.max(8, 4 * Runtime.getRuntime().availableProcessors());

  public static final int DEFAULT_CHEAP_MAX_QUEUED = 512;
  public static final long DEFAULT_CHEAP_MAX_ROWS = 100_000;
  public static final long DEFAULT_MAX_GROUPS = 1_000_000;
  public static final long DEFAULT_MAX_DISTINCT_VALUES = 1_000_000;
  public static final long DEFAULT_MAX_ROWS = 100_000;
  public static final int DEFAULT_MAX_IN_LIST_ITEMS = 100_000;
  public static final int MAX_QUEUED = 100_000;
  public static final Duration DEFAULT_SLOW_THRESHOLD = Duration.ofSeconds(1);
  public static final Duration MIN_SLOW_THRESHOLD = Duration.ofMillis(1);

  /**
   * Off: recording every query's profiles has a cost no benchmark run on a quiet machine has
   * measured yet (docs/operations.md), so an operator turns it on knowingly.
   */
  public static final boolean DEFAULT_SLOW_PROFILE = false;

  /**
   * 1 MiB: in the ~20 ms an S3 request takes to its first byte one connection streams 1-2 MB, and
   * each request costs a charge and CPU on both ends that bytes read through do not.
   */
  public static final DataSize DEFAULT_READ_REQUEST_COST = DataSize.of(1, DataSize.Unit.MEBIBYTE);

  public QueryConfig {
    checkArgument(
        heavyMaxRunning >= 1,
        "Cannot use query.heavy.max-running: %s (expected at least 1)",
        heavyMaxRunning);
    checkArgument(
        heavyMaxQueued >= 0 && heavyMaxQueued <= MAX_QUEUED,
        "Cannot use query.heavy.max-queued: %s (expected 0 to %s)",
        heavyMaxQueued,
        MAX_QUEUED);
    checkArgument(
        cheapMaxRunning >= 1,
        "Cannot use query.cheap.max-running: %s (expected at least 1)",
        cheapMaxRunning);
    checkArgument(
        cheapMaxQueued >= 0 && cheapMaxQueued <= MAX_QUEUED,
        "Cannot use query.cheap.max-queued: %s (expected 0 to %s)",
        cheapMaxQueued,
        MAX_QUEUED);
    checkArgument(
        cheapMaxRows >= 0,
        "Cannot use query.cheap.max-rows: %s (expected at least 0)",
        cheapMaxRows);
    checkArgument(
        maxGroups >= 1, "Cannot use query.max-groups: %s (expected at least 1)", maxGroups);
    checkArgument(
        maxDistinctValues >= 1,
        "Cannot use query.max-distinct-values: %s (expected at least 1)",
        maxDistinctValues);
    checkArgument(maxRows >= 1, "Cannot use query.max-rows: %s (expected at least 1)", maxRows);
    checkArgument(
        maxInListItems >= 1,
        "Cannot use query.max-in-list-items: %s (expected at least 1)",
        maxInListItems);
    requireNonNull(slowThreshold, "slowThreshold is null");
    checkArgument(
        slowThreshold.compareTo(MIN_SLOW_THRESHOLD) >= 0,
        "Cannot use query.slow-threshold: %s (expected at least 1ms)",
        slowThreshold);
    requireNonNull(readRequestCost, "readRequestCost is null");
  }

  /** A config with the default read request cost. */
  public QueryConfig(
      int heavyMaxRunning,
      int heavyMaxQueued,
      int cheapMaxRunning,
      int cheapMaxQueued,
      long cheapMaxRows,
      long maxGroups,
      long maxDistinctValues,
      long maxRows,
      int maxInListItems,
      Duration slowThreshold,
      boolean slowProfile) {
    this(
        heavyMaxRunning,
        heavyMaxQueued,
        cheapMaxRunning,
        cheapMaxQueued,
        cheapMaxRows,
        maxGroups,
        maxDistinctValues,
        maxRows,
        maxInListItems,
        slowThreshold,
        slowProfile,
        DEFAULT_READ_REQUEST_COST);
  }

  /** A config with the query log's defaults. */
  public QueryConfig(
      int heavyMaxRunning,
      int heavyMaxQueued,
      int cheapMaxRunning,
      int cheapMaxQueued,
      long cheapMaxRows,
      long maxGroups,
      long maxDistinctValues,
      long maxRows,
      int maxInListItems) {
    this(
        heavyMaxRunning,
        heavyMaxQueued,
        cheapMaxRunning,
        cheapMaxQueued,
        cheapMaxRows,
        maxGroups,
        maxDistinctValues,
        maxRows,
        maxInListItems,
        DEFAULT_SLOW_THRESHOLD,
        DEFAULT_SLOW_PROFILE);
  }

  public static QueryConfig defaults() {
    return new QueryConfig(
        DEFAULT_HEAVY_MAX_RUNNING,
        DEFAULT_HEAVY_MAX_QUEUED,
        DEFAULT_CHEAP_MAX_RUNNING,
        DEFAULT_CHEAP_MAX_QUEUED,
        DEFAULT_CHEAP_MAX_ROWS,
        DEFAULT_MAX_GROUPS,
        DEFAULT_MAX_DISTINCT_VALUES,
        DEFAULT_MAX_ROWS,
        DEFAULT_MAX_IN_LIST_ITEMS);
  }
}
