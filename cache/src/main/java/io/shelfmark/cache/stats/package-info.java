/**
 * Cache statistics: the {@link io.shelfmark.cache.stats.StatsCounter} events interface (with a
 * disabled implementation) and immutable snapshots for query statistics and the metrics endpoint.
 */
package io.shelfmark.cache.stats;
