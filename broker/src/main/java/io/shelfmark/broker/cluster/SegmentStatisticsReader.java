package io.shelfmark.broker.cluster;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.segment.metadata.SegmentStatistics;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.source.ObjectStoreSegmentSource;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;

/**
 * Reads the statistics a broker prunes on from segments in the segment store: one ranged read of a
 * segment's tail per segment, kept by location (a segment never changes once written, and a new
 * build gets a new location). A broker of the distributed mode holds no segment; this is all it
 * reads of them. Thread safe.
 */
public final class SegmentStatisticsReader {
  /** Statistics kept: a few KiB each, for about this many segments. */
  static final long MAX_SEGMENTS = 200_000;

  private final ObjectStore store;
  private final IndexService indexes;
  private final Cache<String, SegmentStatistics> statistics =
      Caffeine.newBuilder().maximumSize(MAX_SEGMENTS).build();

  public SegmentStatisticsReader(ObjectStore store, IndexService indexes) {
    this.store = requireNonNull(store, "store is null");
    this.indexes = requireNonNull(indexes, "indexes is null");
  }

  /** The statistics of the segment at {@code location}, of {@code size} bytes. */
  public SegmentStatistics statistics(String location, long size) throws IOException {
    SegmentStatistics known = statistics.getIfPresent(location);
    if (known != null) {
      return known;
    }
    try (Segment segment =
        Segment.open(
            new ObjectStoreSegmentSource(store, Location.parse(location), size), indexes)) {
      SegmentStatistics read = segment.statistics();
      statistics.put(location, read);
      return read;
    }
  }
}
