package io.shelfmark.config.table;

/**
 * An index a table config can ask for on a column. {@link #configName()} is what config files say;
 * it is stable and never derived from the enum constant's name.
 */
public enum IndexKind {
  /** Dictionary id to a bitmap of doc ids: equality and IN on low to mid cardinality columns. */
  INVERTED("inverted"),
  /** A range bitmap over numeric or time values: range predicates. */
  RANGE("range"),
  /** Value to a contiguous doc range, for columns the data file is sorted on. */
  SORTED("sorted"),
  /** A bloom filter: equality on high-cardinality columns, candidates only. */
  BLOOM("bloom"),
  /** A dictionary-encoded forward index: GROUP BY without reading Parquet. */
  FORWARD("forward");

  private final String configName;

  IndexKind(String configName) {
    this.configName = configName;
  }

  /** The name used in config files, such as {@code inverted}. */
  public String configName() {
    return configName;
  }
}
