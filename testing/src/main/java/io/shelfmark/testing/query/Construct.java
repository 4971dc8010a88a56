package io.shelfmark.testing.query;

/** The SQL constructs a {@link GeneratedQuery} uses, recorded so tests can check coverage. */
public enum Construct {
  EQUAL,
  NOT_EQUAL,
  LESS_THAN,
  LESS_THAN_OR_EQUAL,
  GREATER_THAN,
  GREATER_THAN_OR_EQUAL,
  BETWEEN,
  IN,
  NOT_IN,
  IS_NULL,
  IS_NOT_NULL,
  LIKE,
  AND,
  OR,
  NOT,
  /** A predicate on {@code map['key']}. */
  MAP_KEY_FILTER,
  /** An aggregation without GROUP BY. */
  GLOBAL_AGGREGATION,
  GROUP_BY_COLUMN,
  GROUP_BY_MAP_KEY,
  GROUP_BY_DATE_TRUNC,
  /** Two grouping keys. */
  GROUP_BY_TWO_KEYS,
  COUNT_STAR,
  COUNT_COLUMN,
  SUM,
  AVG,
  MIN,
  MAX,
  COUNT_DISTINCT,
  /** Shelfmark's {@code DISTINCTCOUNTHLL}, compared against an exact count with a tolerance. */
  DISTINCT_COUNT_HLL,
  HAVING,
  ORDER_BY_ASC,
  ORDER_BY_DESC,
  NULLS_FIRST,
  NULLS_LAST,
  LIMIT,
  OFFSET,
  /** {@code SELECT col, ... WHERE ... ORDER BY ... LIMIT} without aggregation. */
  PLAIN_SELECT,
  /** {@code SELECT DISTINCT col, ... ORDER BY ... LIMIT}: a dashboard's variable or drop-down. */
  SELECT_DISTINCT,
  /** {@code SELECT 1 AS c0, 'x' AS c1}: literals without FROM (a client's connection check). */
  SELECT_WITHOUT_FROM,
  /**
   * Superset's time grain {@code CAST(DATE_TRUNC('unit', CAST(col AS TIMESTAMP)) AS TIMESTAMP)}.
   */
  GROUP_BY_SUPERSET_TIME_GRAIN,
  /** Superset's N-minute grain {@code CAST(ROUND(DATE_TRUNC('minute', ...), ms) AS TIMESTAMP)}. */
  GROUP_BY_SUPERSET_ROUND_GRAIN,
  /** Pinot's {@code DATETIMECONVERT(millis, ..., 'N:UNIT')} (Grafana's time series). */
  GROUP_BY_DATETIMECONVERT,
  /** An explicit {@code CAST} of a column in a select list. */
  CAST,
  /** Pinot's {@code FromDateTime}/{@code ToDateTime} of literals (folded while planning). */
  DATE_TIME_TEXT,
  /**
   * Pinot's {@code ToEpochMinutes(ms)}, {@code ...Rounded}, {@code ...Bucket}, {@code FromEpoch*}.
   */
  EPOCH_FUNCTION
}
