package io.shelfmark.exchange.fragment;

import io.shelfmark.exchange.error.QueryResourceException;

/**
 * How large one query's growing state may become on a server, so that one request answers a clear
 * RESOURCE_EXHAUSTED error instead of taking the heap: the groups of an aggregation, the values of
 * each COUNT(DISTINCT) and the rows a selection keeps (offset + limit). Each bound is named by the
 * cluster config key that sets it, so the error tells the operator what to raise.
 *
 * @param maxGroups groups of one aggregation, per file and merged ({@code query.max-groups})
 * @param maxDistinctValues values of one COUNT(DISTINCT) over all its groups ({@code
 *     query.max-distinct-values})
 * @param maxRows rows a selection keeps, offset + limit ({@code query.max-rows})
 */
public record QueryLimits(long maxGroups, long maxDistinctValues, long maxRows) {
  public static final String MAX_GROUPS_KEY = "query.max-groups";
  public static final String MAX_DISTINCT_VALUES_KEY = "query.max-distinct-values";
  public static final String MAX_ROWS_KEY = "query.max-rows";

  /**
   * About 100 bytes per group key and state on the heap: a million groups are some 100 MB, what a 2
   * GiB node can hold for a few queries at once.
   */
  public static final long DEFAULT_MAX_GROUPS = 1_000_000;

  public static final long DEFAULT_MAX_DISTINCT_VALUES = 1_000_000;
  public static final long DEFAULT_MAX_ROWS = 100_000;

  /** No bound beyond the JVM's: for tests and embedders that bound queries otherwise. */
  public static final QueryLimits NONE =
      new QueryLimits(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE);

  public QueryLimits {
    check(maxGroups, MAX_GROUPS_KEY);
    check(maxDistinctValues, MAX_DISTINCT_VALUES_KEY);
    check(maxRows, MAX_ROWS_KEY);
  }

  public static QueryLimits defaults() {
    return new QueryLimits(DEFAULT_MAX_GROUPS, DEFAULT_MAX_DISTINCT_VALUES, DEFAULT_MAX_ROWS);
  }

  /** Fails with RESOURCE_EXHAUSTED when {@code groups} passes {@link #maxGroups}. */
  public void checkGroups(long groups) {
    if (groups > maxGroups) {
      throw new QueryResourceException(
          "Cannot aggregate: the query has more than %d groups (raise %s or group by fewer values)"
              .formatted(maxGroups, MAX_GROUPS_KEY));
    }
  }

  /** Fails with RESOURCE_EXHAUSTED when one COUNT(DISTINCT) holds more than allowed. */
  public void checkDistinctValues(long values) {
    if (values > maxDistinctValues) {
      throw new QueryResourceException(
          ("Cannot count distinct values: one COUNT(DISTINCT) holds more than %d values (raise %s"
                  + " or use DISTINCTCOUNTHLL)")
              .formatted(maxDistinctValues, MAX_DISTINCT_VALUES_KEY));
    }
  }

  /** Fails with RESOURCE_EXHAUSTED when a selection would keep more rows than allowed. */
  public void checkRows(long rows) {
    if (rows > maxRows) {
      throw new QueryResourceException(
          "Cannot select more than %d rows (raise %s or lower the LIMIT)"
              .formatted(maxRows, MAX_ROWS_KEY));
    }
  }

  private static void check(long value, String key) {
    if (value < 1) {
      throw new IllegalArgumentException(
          "Cannot use %s: %d (expected at least 1)".formatted(key, value));
    }
  }
}
