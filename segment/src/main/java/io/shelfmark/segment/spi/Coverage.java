package io.shelfmark.segment.spi;

/** How completely an index reader answers a predicate. */
public enum Coverage {
  /** The reader cannot answer it: the predicate stays residual. */
  NONE,
  /** The reader narrows the docs to candidates that a scan of the column must check. */
  CANDIDATES,
  /** The reader answers exactly: what a scan would answer, nulls included. */
  EXACT
}
