package io.shelfmark.server.exec;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.exchange.error.UnsupportedQueryException;
import io.shelfmark.parquet.metadata.ColumnChunkPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.PageEncodings;
import io.shelfmark.parquet.metadata.PageLocation;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.plan.KeptDictionaryPages;
import io.shelfmark.parquet.schema.ParquetSchema;
import io.shelfmark.segment.metadata.ChunkPageLayout;
import io.shelfmark.segment.metadata.DataFileEntry;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.server.column.FileFields;
import io.shelfmark.sql.expression.Expression;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Schema;
import org.roaringbitmap.RoaringBitmap;

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

  /**
   * What every query over one segmented data file reuses, built once per open segment: the file's
   * parsed footer, page locations and Parquet schema; the field mapping for the last table schema
   * seen, the live docs for the last deletes seen and the filter translation of the last filter
   * seen (each replaced when another one comes: a table has one current schema and snapshot, and a
   * dashboard repeats its queries). Parsing and mapping these on every query cost more than
   * evaluating a selective filter.
   *
   * <p>Kept on its open segment ({@link Segment#derived}) until the segment closes. Thread safe:
   * each remembered value is immutable and replaced whole; the live docs are shared by concurrent
   * queries and must never be modified.
   */
  static final class Prepared {
    private final ParquetFooter footer;
    private final FilePageLocations pages;
    private final ParquetSchema schema;
    private final KeptDictionaryPages keptDictionaries;
    private volatile FileFields fields;
    private volatile LiveDocs live;
    private volatile FilterTranslation translation;
    // Leaf column index → its chunks' page statistics, read on the first query that wants them.
    private final java.util.concurrent.ConcurrentHashMap<
            Integer, List<java.util.Optional<io.shelfmark.parquet.metadata.PageStatistics>>>
        pageStatistics = new java.util.concurrent.ConcurrentHashMap<>();

    private Prepared(
        ParquetFooter footer,
        FilePageLocations pages,
        ParquetSchema schema,
        KeptDictionaryPages keptDictionaries) {
      this.footer = footer;
      this.pages = pages;
      this.schema = schema;
      this.keptDictionaries = keptDictionaries;
    }

    /** The file's dictionary pages the segment keeps, which reads of the file do not fetch. */
    KeptDictionaryPages keptDictionaries() {
      return keptDictionaries;
    }

    ParquetFooter footer() {
      return footer;
    }

    FilePageLocations pages() {
      return pages;
    }

    /** The file's fields as columns of {@code tableSchema}. */
    FileFields fields(Schema tableSchema) {
      FileFields known = fields;
      if (known == null || known.tableSchema() != tableSchema) {
        known = new FileFields(footer, schema, tableSchema);
        fields = known;
      }
      return known;
    }

    /** The file's rows minus {@code deleted}: shared, never modify it. */
    RoaringBitmap live(RoaringBitmap deleted, long recordCount) {
      LiveDocs known = live;
      if (known == null || known.deleted() != deleted) {
        known = new LiveDocs(deleted, liveDocs(recordCount, deleted));
        live = known;
      }
      return known.live();
    }

    /** The last filter translation made over this file, if it is the one for these inputs. */
    FilterTranslation translation(Expression filter, FileFields fields) {
      FilterTranslation known = translation;
      return known != null && known.isFor(filter, fields) ? known : null;
    }

    void remember(FilterTranslation translated) {
      translation = translated;
    }

    /**
     * The page statistics (ColumnIndex) of leaf {@code columns}' chunks, those not known yet read
     * through {@code loader} in one batch and kept with the segment (a few hundred bytes per
     * chunk): the index lies beside the footer, which the segment holds but not the index itself.
     * Two queries asking at once may both read it; either result is the same.
     */
    java.util.Map<Integer, List<java.util.Optional<io.shelfmark.parquet.metadata.PageStatistics>>>
        pageStatistics(java.util.Collection<Integer> columns, PageStatisticsReader loader)
            throws IOException {
      List<Integer> missing = new ArrayList<>();
      for (int column : columns) {
        if (!pageStatistics.containsKey(column)) {
          missing.add(column);
        }
      }
      if (!missing.isEmpty()) {
        loader.read(missing).forEach(pageStatistics::putIfAbsent);
      }
      java.util.Map<Integer, List<java.util.Optional<io.shelfmark.parquet.metadata.PageStatistics>>>
          found = new java.util.LinkedHashMap<>();
      for (int column : columns) {
        found.put(column, pageStatistics.get(column));
      }
      return found;
    }

    private record LiveDocs(RoaringBitmap deleted, RoaringBitmap live) {}
  }

  /** Reads leaf columns' page statistics from the data file, per column. */
  @FunctionalInterface
  interface PageStatisticsReader {
    java.util.Map<Integer, List<java.util.Optional<io.shelfmark.parquet.metadata.PageStatistics>>>
        read(List<Integer> columns) throws IOException;
  }

  static Prepared prepare(Segment segment, DataFileInfo file) throws IOException {
    ParquetFooter footer = footer(segment, file);
    return new Prepared(
        footer,
        pageLocations(segment, footer),
        ParquetSchema.from(file.path(), footer.schema()),
        keptDictionaries(segment));
  }

  /**
   * The dictionary pages a pinned segment keeps: views of its mapping, so a query fetches only data
   * pages. A remote segment's are not used: its part would be downloaded whole and held on the heap
   * for as long as the segment is open, for every segment a server serves; its queries fetch
   * dictionary pages with the data pages, as before.
   */
  static KeptDictionaryPages keptDictionaries(Segment segment) throws IOException {
    if (!segment.isMemoryResident()) {
      return KeptDictionaryPages.NONE;
    }
    return KeptDictionaryPages.of(segment.dictionaryPages(0));
  }

  /** Rows {@code 0 .. recordCount - 1} minus {@code deleted}. */
  static RoaringBitmap liveDocs(long recordCount, RoaringBitmap deleted) {
    RoaringBitmap live = new RoaringBitmap();
    live.add(0L, recordCount);
    live.andNot(deleted);
    return live;
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
                  : ColumnChunkPages.Source.HEADER_WALK,
              // Segments written before pages' encodings were recorded: any page may need the
              // dictionary, so it is fetched as before.
              chunk.encodingsKnown()
                  ? PageEncodings.of(chunk.dictionaryEncoded())
                  : PageEncodings.UNKNOWN));
    }
    return builder.build();
  }
}
