/**
 * The tiered byte-range cache between readers and object storage: {@link
 * io.shelfmark.cache.TieredCache} (memory over disk over the store, single-flight fetches), the
 * per-call {@link io.shelfmark.cache.CachePolicy} and the {@link io.shelfmark.cache.Fetcher} that
 * loads a miss. See docs/cache.md.
 */
package io.shelfmark.cache;
