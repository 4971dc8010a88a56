package io.shelfmark.generator;

/** What {@link MetricsTableGenerator} does when the target table already exists. */
public enum ExistingTablePolicy {
  /**
   * Drop the table (purging its files) and generate it anew, whatever it holds. Use with care on a
   * table the generator did not write.
   */
  REPLACE,

  /**
   * Keep the table untouched when the generator wrote it with the same row count, seed and
   * generator version (recorded in its properties); regenerate it when the generator wrote it with
   * other parameters; refuse a table the generator did not write.
   */
  REUSE,
}
