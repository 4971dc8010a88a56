/**
 * The disk tier: checksummed entry files in a locked directory, bounded by bytes, surviving
 * restarts. The entry format is documented in {@code DiskEntryCodec} and in docs/cache.md.
 */
package io.shelfmark.cache.disk;
