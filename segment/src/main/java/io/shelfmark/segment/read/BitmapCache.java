package io.shelfmark.segment.read;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import io.shelfmark.segment.spi.DecodedBitmaps;
import io.shelfmark.segment.spi.SharedBitmap;
import java.util.function.IntFunction;
import org.roaringbitmap.RoaringBitmap;

/**
 * A bounded memory cache of the bitmaps index readers decode (posting lists), shared by every
 * segment a server opens and weighed by the bitmaps' heap bytes: a dashboard repeating a query
 * would otherwise decode the same posting lists of the same segments on every run.
 *
 * <p>Entries are keyed by the identity of the open segment's {@link Scope} and of the part's view,
 * never by names: a segment closed and another opened at the same location get new scopes, so
 * neither can be served the other's bitmaps. Closing a scope drops its entries. Cached bitmaps are
 * {@link SharedBitmap}s, which no query can modify.
 *
 * <p>Thread safe. Created by whoever opens segments (the server) and passed to {@link
 * Segment#open(io.shelfmark.segment.source.SegmentSource, io.shelfmark.segment.index.IndexService,
 * BitmapCache)}; {@link #disabled()} caches nothing.
 */
public final class BitmapCache {
  /** The default bound: the hot posting lists of a few hundred segments. */
  public static final long DEFAULT_MAX_BYTES = 64L << 20;

  private static final BitmapCache DISABLED = new BitmapCache(null);

  private final Cache<Key, SharedBitmap> cache;

  private BitmapCache(Cache<Key, SharedBitmap> cache) {
    this.cache = cache;
  }

  /** A cache holding at most about {@code maxBytes} of decoded bitmaps; 0 caches nothing. */
  public static BitmapCache bounded(long maxBytes) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException(
          "Cannot bound a bitmap cache to %d bytes (use 0 to disable it)".formatted(maxBytes));
    }
    if (maxBytes == 0) {
      return DISABLED;
    }
    return new BitmapCache(
        Caffeine.newBuilder()
            .maximumWeight(maxBytes)
            .weigher((Key key, SharedBitmap bitmap) -> weight(bitmap))
            .recordStats()
            .build());
  }

  /** Caches nothing: every lookup decodes. */
  public static BitmapCache disabled() {
    return DISABLED;
  }

  private static int weight(SharedBitmap bitmap) {
    return (int) Math.min(Integer.MAX_VALUE, bitmap.sizeInBytes());
  }

  /** A new scope for one open segment, named for messages. */
  Scope open(String segmentName) {
    return new Scope(this, requireNonNull(segmentName, "segmentName is null"));
  }

  /**
   * Hits, misses and evictions so far, and the bytes held now. Runs the cache's pending maintenance
   * first: the cache weighs new entries and evicts on a background thread, so without it a bitmap
   * just cached may not be counted yet.
   */
  public Stats stats() {
    if (cache == null) {
      return new Stats(0, 0, 0, 0);
    }
    cache.cleanUp();
    CacheStats stats = cache.stats();
    long bytes = cache.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
    return new Stats(stats.hitCount(), stats.missCount(), stats.evictionCount(), bytes);
  }

  /**
   * Drops every cached bitmap of every segment (a node's warm-up does, so its first user query
   * decodes its posting lists as a cold node would). Holders of a bitmap keep using it.
   */
  public void invalidateAll() {
    if (cache != null) {
      cache.invalidateAll();
    }
  }

  /** Whether this cache keeps anything. */
  public boolean isEnabled() {
    return cache != null;
  }

  /** The number of bitmaps cached now (an estimate between maintenance runs). */
  long size() {
    return cache == null ? 0 : cache.estimatedSize();
  }

  /**
   * The cache's counters.
   *
   * @param hits lookups answered from the cache
   * @param misses lookups that decoded
   * @param evictions bitmaps dropped to stay within the bound
   * @param bytes the weight of the bitmaps held now
   */
  public record Stats(long hits, long misses, long evictions, long bytes) {}

  /**
   * One open segment's part of the cache: hands out per-part views and drops every entry of the
   * segment on {@link #close()}. Thread safe.
   */
  static final class Scope {
    private final BitmapCache owner;
    private final String segmentName;
    private volatile boolean closed;

    private Scope(BitmapCache owner, String segmentName) {
      this.owner = owner;
      this.segmentName = segmentName;
    }

    /** The view for one index part of this segment. */
    DecodedBitmaps part(String partName) {
      requireNonNull(partName, "partName is null");
      if (owner.cache == null) {
        return DecodedBitmaps.uncached();
      }
      return new PartBitmaps(this, partName);
    }

    /**
     * Drops this segment's entries; later lookups decode without caching. A lookup racing with
     * close may still add one entry after it: keyed by this closed scope, it is never served and
     * ages out under the bound.
     */
    void close() {
      closed = true;
      if (owner.cache != null) {
        owner.cache.asMap().keySet().removeIf(key -> key.part().scope == this);
      }
    }

    @Override
    public String toString() {
      return "BitmapCache.Scope[" + segmentName + (closed ? ", closed" : "") + "]";
    }
  }

  /** One part's view; equality is identity, which makes keys unique to the part and segment. */
  private static final class PartBitmaps implements DecodedBitmaps {
    private final Scope scope;
    private final String partName;

    private PartBitmaps(Scope scope, String partName) {
      this.scope = scope;
      this.partName = partName;
    }

    @Override
    public SharedBitmap get(int id, IntFunction<RoaringBitmap> decoder) {
      requireNonNull(decoder, "decoder is null");
      if (scope.closed) {
        // A query still running on a closed segment must not refill the cache with its entries.
        return SharedBitmap.owning(decoder.apply(id));
      }
      return scope.owner.cache.get(
          new Key(this, id), key -> SharedBitmap.owning(decoder.apply(id)));
    }

    @Override
    public String toString() {
      return "PartBitmaps[" + scope.segmentName + ", " + partName + "]";
    }
  }

  private record Key(PartBitmaps part, int id) {}
}
