package io.shelfmark.cache;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cache.key.ObjectIdentity;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tells a {@link CachingObjectStore} which version of an object a location names, so cached bytes
 * are never served for another version. Thread safe.
 */
@FunctionalInterface
public interface IdentityResolver {
  ObjectIdentity identify(Location location) throws IOException;

  /**
   * For immutable objects whose sizes are already known, such as an Iceberg snapshot's data files:
   * no request at all. A location without a known size is refused, never guessed.
   */
  static IdentityResolver immutable(Map<Location, Long> sizes) {
    Map<Location, Long> known = Map.copyOf(requireNonNull(sizes, "sizes is null"));
    return location -> {
      Long size = known.get(location);
      if (size == null) {
        throw new IOException(
            "Cannot cache reads of "
                + location
                + ": its size is not known (it is not a file of the snapshot being read)");
      }
      return ObjectIdentity.immutable(location, size);
    };
  }

  /**
   * For objects that can change, such as segments: one HEAD per object for this resolver's life,
   * and the ETag it returns is part of every key.
   */
  static IdentityResolver versionedByStat(ObjectStore store) {
    requireNonNull(store, "store is null");
    Map<Location, ObjectIdentity> seen = new ConcurrentHashMap<>();
    return location -> {
      ObjectIdentity identity = seen.get(location);
      if (identity == null) {
        identity = ObjectIdentity.versioned(store.stat(location));
        seen.putIfAbsent(location, identity);
      }
      return identity;
    };
  }
}
