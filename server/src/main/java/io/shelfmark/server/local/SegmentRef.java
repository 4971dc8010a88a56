package io.shelfmark.server.local;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.spi.Location;

/** A ready segment the controller assigned: where it lives and its size. */
public record SegmentRef(Location location, long sizeInBytes) {
  public SegmentRef {
    requireNonNull(location, "location is null");
    if (sizeInBytes < 0) {
      throw new IllegalArgumentException(
          "Negative segment size " + sizeInBytes + " of " + location);
    }
  }
}
