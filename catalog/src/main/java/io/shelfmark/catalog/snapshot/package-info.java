/**
 * The live files of a table snapshot ({@link io.shelfmark.catalog.snapshot.TableSnapshot}) and the
 * difference between two ({@link io.shelfmark.catalog.snapshot.SnapshotDiff}), read on sync by the
 * controller, never on the query path.
 */
package io.shelfmark.catalog.snapshot;
