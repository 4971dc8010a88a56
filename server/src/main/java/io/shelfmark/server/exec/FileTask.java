package io.shelfmark.server.exec;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.segment.read.Segment;
import java.util.Optional;
import org.roaringbitmap.RoaringBitmap;

/**
 * One live data file of the served snapshot, as a query runs over it.
 *
 * @param file the data file (path, size, record count)
 * @param segment its segment, when one is built and loaded (pinned or remote); without one the file
 *     is read directly (footer, row-group pruning on statistics, pages)
 * @param deletedPositions 0-based row positions of the file deleted in this snapshot (position
 *     deletes and deletion vectors); empty when none. Not modified by execution.
 */
public record FileTask(
    DataFileInfo file, Optional<Segment> segment, RoaringBitmap deletedPositions) {
  public FileTask {
    requireNonNull(file, "file is null");
    requireNonNull(segment, "segment is null");
    requireNonNull(deletedPositions, "deletedPositions is null");
    if (!deletedPositions.isEmpty()
        && Integer.toUnsignedLong(deletedPositions.last()) >= file.recordCount()) {
      throw new IllegalArgumentException(
          "Cannot delete row %d of %s: it has %d rows (are the deletes of another file?)"
              .formatted(
                  Integer.toUnsignedLong(deletedPositions.last()),
                  file.path(),
                  file.recordCount()));
    }
  }

  /** A file without deletes. */
  public static FileTask of(DataFileInfo file, Optional<Segment> segment) {
    return new FileTask(file, segment, new RoaringBitmap());
  }
}
