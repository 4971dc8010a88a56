package io.shelfmark.broker.prune;

/**
 * What metadata says about the rows of a file, segment or row group for a filter, in three values:
 * the rows cannot match (skip it), might match (read it), or all match (every row passes the
 * filter, so an answer such as COUNT(*) could come from the row count alone). Deleted rows are
 * ignored: a delete only removes rows, so CANNOT_MATCH stays true and ALL_MATCH holds for the rows
 * left.
 */
public enum PruneResult {
  CANNOT_MATCH,
  MIGHT_MATCH,
  ALL_MATCH;

  /** The result for {@code this AND other}. */
  public PruneResult and(PruneResult other) {
    if (this == CANNOT_MATCH || other == CANNOT_MATCH) {
      return CANNOT_MATCH;
    }
    return this == ALL_MATCH && other == ALL_MATCH ? ALL_MATCH : MIGHT_MATCH;
  }

  /** The result for {@code this OR other}. */
  public PruneResult or(PruneResult other) {
    if (this == ALL_MATCH || other == ALL_MATCH) {
      return ALL_MATCH;
    }
    return this == CANNOT_MATCH && other == CANNOT_MATCH ? CANNOT_MATCH : MIGHT_MATCH;
  }

  /** Whether the rows must be read (or counted): anything but CANNOT_MATCH. */
  public boolean mightMatch() {
    return this != CANNOT_MATCH;
  }
}
