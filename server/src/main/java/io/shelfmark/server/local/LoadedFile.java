package io.shelfmark.server.local;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.storage.spi.Location;
import java.util.Optional;
import org.roaringbitmap.RoaringBitmap;

/**
 * One live data file as a server holds it for a snapshot: its open segment, if it has a usable one,
 * and its deleted rows — or why its deletes cannot be applied, which makes every query over the
 * file fail rather than answer without them.
 */
record LoadedFile(
    DataFileInfo file,
    Optional<Segment> segment,
    Optional<Location> segmentLocation,
    RoaringBitmap deletedPositions,
    Optional<String> deletesRefusal) {
  LoadedFile {
    requireNonNull(file, "file is null");
    requireNonNull(segment, "segment is null");
    requireNonNull(segmentLocation, "segmentLocation is null");
    requireNonNull(deletedPositions, "deletedPositions is null");
    requireNonNull(deletesRefusal, "deletesRefusal is null");
  }
}
