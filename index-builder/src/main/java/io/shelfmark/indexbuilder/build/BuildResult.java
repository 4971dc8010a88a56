package io.shelfmark.indexbuilder.build;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import io.shelfmark.storage.spi.Location;
import java.time.Duration;
import java.util.Map;

/**
 * A segment built and stored.
 *
 * @param dataFile the data file's path
 * @param segment where the segment was written
 * @param segmentBytes the segment's size
 * @param dataFileBytes the data file's size
 * @param rows the data file's rows (the segment's docs)
 * @param wallTime the whole build, from the first GET to the end of the upload
 * @param timings the wall time by phase
 * @param bytesByPart the segment's bytes by part kind ({@code inverted}, {@code dictionary}, {@code
 *     footer}, …), without the container's header, table of contents and padding
 * @param requests GET requests made to the data file's store
 * @param bytesRead bytes those requests returned
 */
public record BuildResult(
    String dataFile,
    Location segment,
    long segmentBytes,
    long dataFileBytes,
    long rows,
    Duration wallTime,
    BuildTimings timings,
    Map<String, Long> bytesByPart,
    long requests,
    long bytesRead) {
  public BuildResult {
    requireNonNull(dataFile, "dataFile is null");
    requireNonNull(segment, "segment is null");
    requireNonNull(wallTime, "wallTime is null");
    requireNonNull(timings, "timings is null");
    bytesByPart = ImmutableSortedMap.copyOf(requireNonNull(bytesByPart, "bytesByPart is null"));
  }

  /** Segment bytes over data file bytes. */
  public double ratio() {
    return dataFileBytes == 0 ? 0 : (double) segmentBytes / dataFileBytes;
  }

  @Override
  public String toString() {
    return "BuildResult[%s → %s: %d rows, %d → %d bytes (%.1f%%), %d ms]"
        .formatted(
            dataFile,
            segment,
            rows,
            dataFileBytes,
            segmentBytes,
            100 * ratio(),
            wallTime.toMillis());
  }
}
