package io.shelfmark.cache.disk;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A disk cache entry failed a structure or checksum check. Never escapes the disk tier: the entry
 * is dropped, counted and reported as a miss, so the range is fetched again.
 */
final class CorruptCacheEntryException extends IOException {
  CorruptCacheEntryException(Path file, String problem) {
    super("Cannot use disk cache entry " + file + ": " + problem + " (the entry is dropped)");
  }
}
