package io.shelfmark.broker.routing;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.metadata.SegmentStatistics;

/**
 * A ready segment of one data file: where it lives and the statistics the broker prunes on.
 *
 * @param location the segment's location in the segment store
 * @param sizeInBytes the segment's size
 * @param statistics per-file and per-row-group column statistics, from the segment
 */
public record SegmentRoute(String location, long sizeInBytes, SegmentStatistics statistics) {
  public SegmentRoute {
    requireNonNull(location, "location is null");
    requireNonNull(statistics, "statistics is null");
  }
}
