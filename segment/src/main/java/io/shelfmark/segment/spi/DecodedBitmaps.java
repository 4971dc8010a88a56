package io.shelfmark.segment.spi;

import static java.util.Objects.requireNonNull;

import java.util.function.IntFunction;
import org.roaringbitmap.RoaringBitmap;

/**
 * Where an index reader keeps the bitmaps it decodes from its part, by a number of its choosing (a
 * dictionary id): a view of a bounded cache shared by every segment of a server, scoped to one part
 * of one open segment, so that no other part or segment (another segment opened later at the same
 * location included) can ever be served these bitmaps.
 *
 * <p>Thread safety: implementations are safe for concurrent use; {@code decoder} may run more than
 * once for one id when threads race, and must then give equal bitmaps. Lifecycle: the segment gives
 * each reader its view when it opens the reader; after the segment closes, the view's entries are
 * dropped and it decodes without caching.
 */
public interface DecodedBitmaps {
  /**
   * The bitmap number {@code id}, decoded with {@code decoder} when not cached. The decoder returns
   * a fresh bitmap and keeps no reference to it; it reports corrupt bytes by throwing an unchecked
   * exception, which reaches the caller.
   */
  SharedBitmap get(int id, IntFunction<RoaringBitmap> decoder);

  /** Decodes on every call and keeps nothing: for segments opened without a cache. */
  static DecodedBitmaps uncached() {
    return (id, decoder) ->
        SharedBitmap.owning(requireNonNull(decoder, "decoder is null").apply(id));
  }
}
