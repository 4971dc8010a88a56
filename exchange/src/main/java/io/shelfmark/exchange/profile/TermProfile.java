package io.shelfmark.exchange.profile;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What answers one WHERE term (a conjunct of the normalised filter) for a data file.
 *
 * @param term the term as SQL-like text
 * @param indexes the segment index parts that evaluated it, such as {@code inverted[resolution]} or
 *     {@code bloom[dimensions['node']]}; empty when no index did
 * @param check where the term is checked on values read from Parquet
 */
public record TermProfile(String term, List<String> indexes, Check check) {
  public TermProfile {
    requireNonNull(term, "term is null");
    indexes = List.copyOf(requireNonNull(indexes, "indexes is null"));
    requireNonNull(check, "check is null");
  }

  /** Where a term is checked on values after the indexes. */
  public enum Check {
    /** The indexes answer it exactly: never checked on values. */
    NONE,
    /** The indexes left candidate rows (a bloom filter, a column without an exact index). */
    CANDIDATES,
    /** No index answers it: every row in play is checked (the residual). */
    ROWS
  }
}
