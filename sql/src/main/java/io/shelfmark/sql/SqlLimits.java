package io.shelfmark.sql;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * How large a query the planner accepts. A query beyond a limit is refused with a {@link
 * SqlException} of kind {@link SqlErrorKind#LIMIT} naming the limit, its config key and the
 * position in the SQL, before anything recursive looks at it: these limits are what keeps a 33 KB
 * query of nested operators from overflowing a thread's stack.
 *
 * <p>The broker sets them from {@code broker.sql.*} in the cluster config.
 *
 * @param maxSqlLength the longest SQL text, in characters ({@code broker.sql.max-length})
 * @param maxExpressionDepth how deeply expressions and parentheses may nest; a chain of one AND or
 *     OR ({@code a OR b OR c}) counts as one level, however long ({@code
 *     broker.sql.max-expression-depth})
 * @param maxInListSize the most values in one IN or NOT IN list ({@code
 *     broker.sql.max-in-list-size})
 * @param maxLogicalTerms the most terms in one chain of AND or of OR ({@code
 *     broker.sql.max-logical-terms})
 */
public record SqlLimits(
    int maxSqlLength, int maxExpressionDepth, int maxInListSize, int maxLogicalTerms) {
  public static final int DEFAULT_MAX_SQL_LENGTH = 256 * 1024;
  public static final int DEFAULT_MAX_EXPRESSION_DEPTH = 200;
  public static final int DEFAULT_MAX_IN_LIST_SIZE = 10_000;
  public static final int DEFAULT_MAX_LOGICAL_TERMS = 5_000;

  /**
   * The deepest nesting that may be configured: Calcite's parser and the planner recurse once or
   * more per level, and their frames must fit a default thread stack (measured: 1,000 nested
   * parentheses parse on a 512 KB stack).
   */
  public static final int MAX_MAX_EXPRESSION_DEPTH = 1_000;

  public static final String MAX_SQL_LENGTH_KEY = "broker.sql.max-length";
  public static final String MAX_EXPRESSION_DEPTH_KEY = "broker.sql.max-expression-depth";
  public static final String MAX_IN_LIST_SIZE_KEY = "broker.sql.max-in-list-size";
  public static final String MAX_LOGICAL_TERMS_KEY = "broker.sql.max-logical-terms";

  public SqlLimits {
    checkArgument(
        maxSqlLength > 0,
        "Cannot use %s: %s (expected 1 or more)",
        MAX_SQL_LENGTH_KEY,
        maxSqlLength);
    checkArgument(
        maxExpressionDepth > 0 && maxExpressionDepth <= MAX_MAX_EXPRESSION_DEPTH,
        "Cannot use %s: %s (expected 1 to %s)",
        MAX_EXPRESSION_DEPTH_KEY,
        maxExpressionDepth,
        MAX_MAX_EXPRESSION_DEPTH);
    checkArgument(
        maxInListSize > 0,
        "Cannot use %s: %s (expected 1 or more)",
        MAX_IN_LIST_SIZE_KEY,
        maxInListSize);
    checkArgument(
        maxLogicalTerms > 1,
        "Cannot use %s: %s (expected 2 or more)",
        MAX_LOGICAL_TERMS_KEY,
        maxLogicalTerms);
  }

  /** The defaults: 256 Ki characters, depth 200, 10,000 IN values, 5,000 AND/OR terms. */
  public static SqlLimits defaults() {
    return new SqlLimits(
        DEFAULT_MAX_SQL_LENGTH,
        DEFAULT_MAX_EXPRESSION_DEPTH,
        DEFAULT_MAX_IN_LIST_SIZE,
        DEFAULT_MAX_LOGICAL_TERMS);
  }
}
