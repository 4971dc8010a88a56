/**
 * The cache's extension point: {@link io.shelfmark.cache.spi.CacheTier}, one level of the tiered
 * cache (memory, disk). Interfaces and values only; implementations live in {@code cache.memory}
 * and {@code cache.disk}.
 */
package io.shelfmark.cache.spi;
