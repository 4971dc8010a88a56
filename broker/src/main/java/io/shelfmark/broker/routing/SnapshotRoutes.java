package io.shelfmark.broker.routing;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.snapshot.SnapshotSelector;
import io.shelfmark.exchange.error.UnsupportedQueryException;

/**
 * Routes of snapshots other than the served one (time travel): the files of the snapshot a query
 * asks for, with the deletes of that snapshot, each file with its segment when one still exists
 * (segments are kept per data file, so a file still live today has its segment) and read directly
 * otherwise.
 *
 * <p>One implementation per kind of node: an all-in-one node reads the snapshot from the catalog
 * and serves it from its own server; a node that cannot answer past snapshots refuses ({@link
 * #servedOnly}). Implementations are thread safe and never answer a snapshot partially: what they
 * cannot serve whole they refuse with a message naming the table, the snapshot and why.
 */
@FunctionalInterface
public interface SnapshotRoutes {
  /**
   * The route of the snapshot {@code selector} names of {@code current}'s table; {@code current}
   * itself when that is the served snapshot.
   *
   * @throws io.shelfmark.sql.SqlException (kind {@code INVALID}) when the table has no such
   *     snapshot, naming those it keeps
   * @throws UnsupportedQueryException when this node cannot answer that snapshot
   */
  TableRoute route(TableRoute current, SnapshotSelector selector);

  /**
   * Answers only the served snapshot asked for by id; refuses every other request saying {@code
   * why}.
   */
  static SnapshotRoutes servedOnly(String why) {
    requireNonNull(why, "why is null");
    return (current, selector) -> {
      if (selector instanceof SnapshotSelector.Id id && id.snapshotId() == current.snapshotId()) {
        return current;
      }
      throw new UnsupportedQueryException(
          "Cannot query %s %s: %s (this node answers the served snapshot %d; leave out %s and %s)"
              .formatted(
                  current.table().name(),
                  selector,
                  why,
                  current.snapshotId(),
                  SnapshotSelector.SNAPSHOT_ID,
                  SnapshotSelector.AS_OF_TIMESTAMP));
    };
  }
}
