package io.shelfmark.broker.query;

/**
 * Which admission lane a query waits in, by its estimated cost ({@link QueryCost}). Each lane has
 * its own slots and queue, so heavy queries can fill theirs without delaying cheap ones; a
 * dispatcher may also run the lanes' work on different threads.
 */
public enum QueryLane {
  /** Index-only or small: milliseconds of work. */
  CHEAP,
  /** Everything else: scans, GROUP BY over many rows, COUNT(DISTINCT), sorts. */
  HEAVY
}
