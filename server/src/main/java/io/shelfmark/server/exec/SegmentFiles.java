package io.shelfmark.server.exec;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.parquet.metadata.ColumnChunkPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.PageLocation;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.segment.metadata.ChunkPageLayout;
import io.shelfmark.segment.metadata.DataFileEntry;
import io.shelfmark.segment.read.Segment;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** What a segment carries about its data file: the footer and page locations, checked. */
final class SegmentFiles {
  private SegmentFiles() {}

  /**
   * Refuses a segment that is not exactly this file's: it must cover one data file, with the same
   * path and size (doc id = row position then holds).
   */
  static void check(Segment segment, DataFileInfo file) {
    List<DataFileEntry> files = segment.metadata().files();
    if (files.size() != 1) {
      throw new UnsupportedQueryException(
          "Cannot use segment %s for data file %s: it covers %d data files (segments of several files are not executed yet; rebuild it per file)"
              .formatted(segment.name(), file.path(), files.size()));
    }
    DataFileEntry entry = files.get(0);
    if (!entry.identity().path().equals(file.path())
        || entry.identity().fileSize() != file.fileSizeInBytes()
        || entry.firstDoc() != 0) {
      throw new UnsupportedQueryException(
          "Cannot use segment %s for data file %s of %d bytes: it indexes %s of %d bytes (the routing table is stale; rebuild or reassign the segment)"
              .formatted(
                  segment.name(),
                  file.path(),
                  file.fileSizeInBytes(),
                  entry.identity().path(),
                  entry.identity().fileSize()));
    }
  }

  static ParquetFooter footer(Segment segment, DataFileInfo file) throws IOException {
    ByteBuffer bytes = segment.footer(0);
    byte[] copy = new byte[bytes.remaining()];
    bytes.get(copy);
    return ParquetFooter.parse(file.path(), file.fileSizeInBytes(), copy);
  }

  static FilePageLocations pageLocations(Segment segment, ParquetFooter footer) throws IOException {
    FilePageLocations.Builder builder =
        FilePageLocations.builder(footer.rowGroupCount(), footer.columnCount());
    for (ChunkPageLayout chunk : segment.pageLayouts(0)) {
      List<PageLocation> pages = new ArrayList<>(chunk.pageCount());
      for (int page = 0; page < chunk.pageCount(); page++) {
        pages.add(
            new PageLocation(chunk.pageOffset(page), chunk.pageSize(page), chunk.firstRow(page)));
      }
      builder.add(
          chunk.rowGroup(),
          chunk.column(),
          new ColumnChunkPages(
              chunk.dictionaryOffset(),
              chunk.dictionarySize(),
              pages,
              chunk.rowCount(),
              chunk.fromOffsetIndex()
                  ? ColumnChunkPages.Source.OFFSET_INDEX
                  : ColumnChunkPages.Source.HEADER_WALK));
    }
    return builder.build();
  }
}
