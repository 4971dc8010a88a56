/** The memory tier: Caffeine, bounded by bytes. */
package io.shelfmark.cache.memory;
