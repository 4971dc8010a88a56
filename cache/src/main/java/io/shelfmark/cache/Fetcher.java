package io.shelfmark.cache;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cache.key.CacheKey;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;

/**
 * Loads a range on a cache miss, typically with one ranged GET.
 *
 * <p>Contract: return exactly {@code key.length()} bytes of the object version {@code key} names,
 * or throw. The cache checks the length and refuses (does not cache) anything else. The returned
 * array is handed over to the cache, which may share it with other readers: do not keep or modify
 * it.
 *
 * <p>Thread safety: a fetcher may be called from several threads at once for different keys (never
 * for the same key at once within one cache), and from the cache's executor for asynchronous reads.
 */
@FunctionalInterface
public interface Fetcher {

  /** Loads the bytes of {@code key}'s range. */
  byte[] fetch(CacheKey key) throws IOException;

  /**
   * Reads the range from {@code store} with {@link ObjectStore#readRange}: one ranged GET.
   *
   * <p>Limitation: the GET is not conditional on the key's ETag, because the storage SPI offers no
   * {@code If-Match} read yet. A versioned object rewritten between taking its ETag and this GET
   * would have its new bytes cached under the old ETag. Segments are written once under a fresh
   * name, so the window is only open for objects rewritten in place.
   */
  static Fetcher fromObjectStore(ObjectStore store) {
    requireNonNull(store, "store is null");
    return key -> store.readRange(key.object().location(), key.offset(), key.length());
  }
}
