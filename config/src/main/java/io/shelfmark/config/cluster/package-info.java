/**
 * The configuration of a Shelfmark process: {@link io.shelfmark.config.cluster.ClusterConfig} and
 * its sections (ports, storage, catalog, cache). Immutable records with builders; defaults are the
 * {@code DEFAULT_*} constants of each record.
 */
package io.shelfmark.config.cluster;
