package io.shelfmark.config.cluster;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * How large a query the broker plans ({@code broker.sql.*}); a larger one is refused with the
 * position in the SQL and the key to raise. The values mirror {@code io.shelfmark.sql.SqlLimits},
 * which the planner enforces (this module does not depend on the SQL module).
 *
 * @param maxLength the longest SQL text in characters ({@code broker.sql.max-length})
 * @param maxExpressionDepth how deeply expressions and parentheses nest; one chain of AND or of OR
 *     counts once ({@code broker.sql.max-expression-depth})
 * @param maxInListSize the most values in one IN list ({@code broker.sql.max-in-list-size})
 * @param maxLogicalTerms the most terms in one AND or OR chain ({@code
 *     broker.sql.max-logical-terms})
 */
public record SqlLimitsConfig(
    int maxLength, int maxExpressionDepth, int maxInListSize, int maxLogicalTerms) {
  public static final int DEFAULT_MAX_LENGTH = 256 * 1024;
  public static final int DEFAULT_MAX_EXPRESSION_DEPTH = 200;
  public static final int DEFAULT_MAX_IN_LIST_SIZE = 10_000;
  public static final int DEFAULT_MAX_LOGICAL_TERMS = 5_000;

  /** The HTTP body limit (1 MiB) bounds SQL text anyway. */
  public static final int MAX_MAX_LENGTH = 1024 * 1024;

  /** Deeper nesting risks the planner's stack; see {@code SqlLimits}. */
  public static final int MAX_MAX_EXPRESSION_DEPTH = 1_000;

  public static final int MAX_MAX_IN_LIST_SIZE = 1_000_000;
  public static final int MAX_MAX_LOGICAL_TERMS = 1_000_000;

  public SqlLimitsConfig {
    checkArgument(
        maxLength >= 1 && maxLength <= MAX_MAX_LENGTH,
        "Cannot use broker.sql.max-length: %s (expected 1 to %s)",
        maxLength,
        MAX_MAX_LENGTH);
    checkArgument(
        maxExpressionDepth >= 1 && maxExpressionDepth <= MAX_MAX_EXPRESSION_DEPTH,
        "Cannot use broker.sql.max-expression-depth: %s (expected 1 to %s)",
        maxExpressionDepth,
        MAX_MAX_EXPRESSION_DEPTH);
    checkArgument(
        maxInListSize >= 1 && maxInListSize <= MAX_MAX_IN_LIST_SIZE,
        "Cannot use broker.sql.max-in-list-size: %s (expected 1 to %s)",
        maxInListSize,
        MAX_MAX_IN_LIST_SIZE);
    checkArgument(
        maxLogicalTerms >= 2 && maxLogicalTerms <= MAX_MAX_LOGICAL_TERMS,
        "Cannot use broker.sql.max-logical-terms: %s (expected 2 to %s)",
        maxLogicalTerms,
        MAX_MAX_LOGICAL_TERMS);
  }

  public static SqlLimitsConfig defaults() {
    return new SqlLimitsConfig(
        DEFAULT_MAX_LENGTH,
        DEFAULT_MAX_EXPRESSION_DEPTH,
        DEFAULT_MAX_IN_LIST_SIZE,
        DEFAULT_MAX_LOGICAL_TERMS);
  }
}
