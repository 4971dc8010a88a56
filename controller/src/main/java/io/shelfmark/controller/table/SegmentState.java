package io.shelfmark.controller.table;

import static java.util.Objects.requireNonNull;

import io.shelfmark.indexbuilder.build.BuildFailure;
import io.shelfmark.storage.spi.Location;

/** Where the segment of one live data file stands. */
public sealed interface SegmentState {
  /** Not built yet: queries read the data file directly. */
  record Pending() implements SegmentState {}

  /** Built and in the segment store. */
  record Ready(Location location, long sizeInBytes) implements SegmentState {
    public Ready {
      requireNonNull(location, "location is null");
    }
  }

  /** Its build failed: queries read the data file directly; the reason is reported. */
  record Failed(BuildFailure failure) implements SegmentState {
    public Failed {
      requireNonNull(failure, "failure is null");
    }
  }

  SegmentState PENDING = new Pending();
}
