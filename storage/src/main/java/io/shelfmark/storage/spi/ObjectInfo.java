package io.shelfmark.storage.spi;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * What a store knows about one object.
 *
 * @param location where it lives
 * @param size its length in bytes
 * @param etag the store's version tag when it has one: S3's ETag without its quotes; for the local
 *     filesystem a tag made of the modification time and size, which changes when the file is
 *     replaced; empty when the store reports none
 */
public record ObjectInfo(Location location, long size, Optional<String> etag) {
  public ObjectInfo {
    requireNonNull(location, "location is null");
    requireNonNull(etag, "etag is null");
    if (size < 0) {
      throw new IllegalArgumentException("size is negative: " + size + " for " + location);
    }
  }
}
