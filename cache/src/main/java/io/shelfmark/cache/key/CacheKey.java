package io.shelfmark.cache.key;

import static java.util.Objects.requireNonNull;

/**
 * One cached byte range of one object version: the unit every tier stores and looks up.
 *
 * <p>Keys are exact: a range is found only under the same identity, offset and length it was stored
 * with. Callers that coalesce ranges should key the coalesced range, so the same plan finds it
 * again.
 *
 * @param object the object version the bytes come from
 * @param offset the first byte's position in the object
 * @param length how many bytes, at least one; the range lies inside the object
 */
public record CacheKey(ObjectIdentity object, long offset, int length) {
  public CacheKey {
    requireNonNull(object, "object is null");
    if (offset < 0) {
      throw new IllegalArgumentException(
          "Cannot cache range of " + object + ": offset is negative: " + offset);
    }
    if (length <= 0) {
      throw new IllegalArgumentException(
          "Cannot cache range of " + object + ": length must be positive but is " + length);
    }
    // offset <= size - length cannot overflow: both sides are in [-2^31, 2^63).
    if (offset > object.size() - length) {
      throw new IllegalArgumentException(
          "Cannot cache range [%d, %d) of %s: it ends past the object's end (re-read the object's size)"
              .formatted(offset, offset + length, object));
    }
  }

  /** The range {@code [offset, offset + length)} of {@code object}. */
  public static CacheKey of(ObjectIdentity object, long offset, int length) {
    return new CacheKey(object, offset, length);
  }

  /** The whole object as one range; it must be between 1 byte and 2 GiB - 1. */
  public static CacheKey wholeObject(ObjectIdentity object) {
    requireNonNull(object, "object is null");
    if (object.size() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "Cannot cache whole object "
              + object
              + ": larger than "
              + Integer.MAX_VALUE
              + " bytes (cache it in ranges)");
    }
    return new CacheKey(object, 0, (int) object.size());
  }

  @Override
  public String toString() {
    return object + "[" + offset + ", " + (offset + length) + ")";
  }
}
