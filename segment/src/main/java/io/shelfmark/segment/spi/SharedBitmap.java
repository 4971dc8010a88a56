package io.shelfmark.segment.spi;

import static java.util.Objects.requireNonNull;

import org.roaringbitmap.RoaringBitmap;

/**
 * A decoded bitmap that many queries share (a cached posting list), immutable by construction: the
 * bitmap inside is never handed out, and every operation reads it only as an argument of a
 * RoaringBitmap operation whose result is a new bitmap or whose receiver is the caller's own
 * bitmap. RoaringBitmap copies the containers it takes from an argument, so no result shares
 * storage with this one, and a caller modifying a result cannot reach the cached bitmap.
 *
 * <p>Thread safe: only read after construction.
 */
public final class SharedBitmap {
  // Rough heap cost of the object, its RoaringArray and a cache entry beside the containers.
  private static final long OVERHEAD_BYTES = 96;

  private final RoaringBitmap bitmap;
  private final long sizeInBytes;

  private SharedBitmap(RoaringBitmap bitmap) {
    this.bitmap = bitmap;
    this.sizeInBytes = bitmap.getLongSizeInBytes() + OVERHEAD_BYTES;
  }

  /**
   * Takes ownership of a freshly decoded bitmap: the caller must drop its own reference (decoders
   * pass the bitmap they just built and keep nothing).
   */
  public static SharedBitmap owning(RoaringBitmap freshlyDecoded) {
    return new SharedBitmap(requireNonNull(freshlyDecoded, "freshlyDecoded is null"));
  }

  /** The docs both here and in {@code other}, as a new bitmap ({@code other} is not modified). */
  public RoaringBitmap and(RoaringBitmap other) {
    return RoaringBitmap.and(bitmap, requireNonNull(other, "other is null"));
  }

  /** Adds these docs to {@code target}, which the caller owns. */
  public void orInto(RoaringBitmap target) {
    // The target cannot be this bitmap: it never leaves this object.
    requireNonNull(target, "target is null").or(bitmap);
  }

  /** How many docs are both here and in {@code other}, without building the intersection. */
  public long andCardinality(RoaringBitmap other) {
    return RoaringBitmap.andCardinality(bitmap, requireNonNull(other, "other is null"));
  }

  /** A modifiable copy. */
  public RoaringBitmap copy() {
    return bitmap.clone();
  }

  public long cardinality() {
    return bitmap.getLongCardinality();
  }

  public boolean isEmpty() {
    return bitmap.isEmpty();
  }

  /** The approximate heap bytes this bitmap holds, for weighing it in a cache. */
  public long sizeInBytes() {
    return sizeInBytes;
  }

  @Override
  public String toString() {
    return "SharedBitmap[" + bitmap.getLongCardinality() + " docs, " + sizeInBytes + " bytes]";
  }
}
