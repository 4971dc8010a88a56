package io.shelfmark.parquet.decode;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.shelfmark.config.unit.DataSize;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@link DecompressedPages} on the heap, bounded by the bodies' bytes (Caffeine's size-based
 * eviction, which keeps frequently read pages over recently read ones). Thread safe.
 */
public final class MemoryDecompressedPages implements DecompressedPages {
  private static final int HEADER_BYTES = 256;

  private final Cache<PageKey, DecompressedPage> bodies;
  private final long maxBytes;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();

  private record PageKey(String file, long fileSize, long pageOffset) {}

  public MemoryDecompressedPages(DataSize maxSize) {
    requireNonNull(maxSize, "maxSize is null");
    this.maxBytes = maxSize.bytes();
    this.bodies =
        Caffeine.newBuilder()
            .maximumWeight(maxBytes)
            // The body, plus about what a parsed header and the entry take.
            .weigher((PageKey key, DecompressedPage page) -> page.body().length + HEADER_BYTES)
            .build();
  }

  @Override
  public DecompressedPage find(String file, long fileSize, long pageOffset) {
    DecompressedPage page = bodies.getIfPresent(new PageKey(file, fileSize, pageOffset));
    (page == null ? misses : hits).increment();
    return page;
  }

  @Override
  public void keep(String file, long fileSize, long pageOffset, DecompressedPage page) {
    requireNonNull(page, "page is null");
    // A body larger than the whole bound would only evict everything else on its way out.
    if (page.body().length + HEADER_BYTES <= maxBytes) {
      bodies.put(new PageKey(file, fileSize, pageOffset), page);
    }
  }

  @Override
  public void invalidateAll() {
    bodies.invalidateAll();
  }

  /** Lookups that found a body. */
  public long hits() {
    return hits.sum();
  }

  /** Lookups that found none. */
  public long misses() {
    return misses.sum();
  }

  /** The bytes of the bodies kept now (after pending evictions). */
  public long keptBytes() {
    bodies.cleanUp();
    return bodies.policy().eviction().orElseThrow().weightedSize().orElse(0);
  }

  @Override
  public String toString() {
    return "MemoryDecompressedPages[max " + DataSize.ofBytes(maxBytes) + "]";
  }
}
