package io.shelfmark.exchange.profile;

/** What a server records of a query's execution, per data file: for EXPLAIN and EXPLAIN ANALYZE. */
public enum ProfileMode {
  /** A plain query: nothing recorded. */
  OFF,
  /**
   * EXPLAIN: the indexes are evaluated and the Parquet pages planned, but no page is read and no
   * row aggregated; each file's {@link FileProfile} says what running it would read.
   */
  PLAN,
  /** EXPLAIN ANALYZE: the query runs as usual, and each file's profile adds what it did. */
  ANALYZE
}
