package io.shelfmark.exchange.result;

import java.util.List;

/**
 * Where a streamed selection's rows go as the engine produces them, instead of into a partial
 * result: a selection without ORDER BY, whose rows need no merge, sort or count before the first
 * one can leave. The engine calls it from one thread, file after file in task order and each file's
 * rows in doc order, so the rows arrive in the order a materialised answer holds them.
 *
 * <p>Back-pressure: {@link #accept} may block until the reader downstream takes more (a client
 * reading slowly stalls production, nothing piles up). It throws the query's exception (a timeout,
 * a cancel) to stop the query; the engine lets it through unchanged.
 *
 * <p>Not thread safe: one query, one producing thread.
 */
public interface RowSink {
  /**
   * Takes the next rows: each row's values are the plan's outputs in order, as the engine holds
   * them (not rendered; binary values as read-only {@code ByteBuffer}s). The list and its rows are
   * the sink's to keep or drop.
   */
  void accept(List<List<Object>> rows);

  /** Whether the sink wants no more rows (the statement's OFFSET + LIMIT are reached). */
  boolean isSatisfied();
}
