package io.shelfmark.cache.key;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectInfo;
import java.util.Optional;

/**
 * Which version of which object a cached range belongs to.
 *
 * <p>Two kinds, chosen by the caller from what it knows about the object:
 *
 * <ul>
 *   <li>{@link #immutable(Location, long)}: path and size only. For Iceberg data and delete files,
 *       which are never rewritten in place (a new snapshot writes new files), so the manifest's
 *       path and size identify the bytes and the query path needs no HEAD request.
 *   <li>{@link #versioned(Location, long, String)}: path, size and the store's ETag. For objects
 *       that can be rewritten under the same name (segments, non-Iceberg files): a rewritten object
 *       gets a new ETag, hence a different key, so stale bytes can never be served for it.
 * </ul>
 *
 * <p>An immutable identity never equals a versioned one, even for the same path and size.
 *
 * @param location where the object lives
 * @param size its length in bytes
 * @param etag the store's version tag; empty for immutable objects
 */
public record ObjectIdentity(Location location, long size, Optional<String> etag) {
  public ObjectIdentity {
    requireNonNull(location, "location is null");
    requireNonNull(etag, "etag is null");
    if (size < 0) {
      throw new IllegalArgumentException(
          "Cannot identify object " + location + ": size is negative: " + size);
    }
    if (etag.isPresent() && etag.get().isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot identify object "
              + location
              + ": etag is empty (use immutable() for objects"
              + " without a version tag)");
    }
  }

  /** An object that is never rewritten in place (Iceberg data, delete and metadata files). */
  public static ObjectIdentity immutable(Location location, long size) {
    return new ObjectIdentity(location, size, Optional.empty());
  }

  /** An object that may be rewritten under the same location, pinned to one version by its ETag. */
  public static ObjectIdentity versioned(Location location, long size, String etag) {
    requireNonNull(etag, "etag is null");
    return new ObjectIdentity(location, size, Optional.of(etag));
  }

  /**
   * The versioned identity of an object as its store described it.
   *
   * @throws IllegalArgumentException when the store reported no ETag, since a mutable object cannot
   *     be cached safely without one
   */
  public static ObjectIdentity versioned(ObjectInfo info) {
    requireNonNull(info, "info is null");
    if (info.etag().isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot identify mutable object "
              + info.location()
              + ": the store reported no ETag (cache it as immutable only if it is never"
              + " rewritten)");
    }
    return new ObjectIdentity(info.location(), info.size(), info.etag());
  }

  @Override
  public String toString() {
    return etag.map(tag -> location + "@" + tag).orElse(location.toString())
        + " ("
        + size
        + " bytes)";
  }
}
