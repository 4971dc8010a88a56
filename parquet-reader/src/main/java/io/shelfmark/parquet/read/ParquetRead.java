package io.shelfmark.parquet.read;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.decode.ColumnChunkDecoder;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.plan.ColumnChunkPlan;
import io.shelfmark.parquet.plan.PagePlan;
import io.shelfmark.parquet.plan.PlannedPage;
import io.shelfmark.parquet.plan.RowGroupAccess;
import io.shelfmark.parquet.plan.RowGroupPlan;
import io.shelfmark.parquet.read.PageLocationLoader.Loaded;
import io.shelfmark.parquet.schema.ColumnSchema;
import io.shelfmark.storage.coalesce.ByteRange;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.Type;

/**
 * One started read of one file (from {@link ParquetFileReader#start}): its fetches are in flight;
 * {@link #next()} decodes the selected rows of the next row group that has any, waiting only for
 * the pages it needs.
 *
 * <p>Lifecycle: {@code start} → {@code hasNext}/{@code next} as often as wanted → {@code close}
 * (always; cancels fetches not yet consumed). Not thread safe: one consumer thread.
 */
public final class ParquetRead implements AutoCloseable {
  private final ParquetFooter footer;
  private final List<ColumnSchema> columns;
  private final PagePlan plan;
  private final Loaded loaded;
  private final RangeFetch fetch;
  private final ReadCounters counters;
  private final EntrySelector[] selectors;
  private final int[] selectorSources;
  private int nextRowGroup;

  ParquetRead(
      ParquetFooter footer,
      List<ColumnSchema> columns,
      PagePlan plan,
      Loaded loaded,
      RangeFetch fetch,
      ReadCounters counters) {
    this.footer = requireNonNull(footer, "footer is null");
    this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
    this.plan = requireNonNull(plan, "plan is null");
    this.loaded = requireNonNull(loaded, "loaded is null");
    this.fetch = requireNonNull(fetch, "fetch is null");
    this.counters = requireNonNull(counters, "counters is null");
    this.selectors = new EntrySelector[this.columns.size()];
    this.selectorSources = new int[this.columns.size()];
    skipToReadable();
  }

  /**
   * From now on, decodes only the entries of column {@code target} (an index into {@link
   * #columns()}) that {@code selector} picks from the batch of column {@code source}, which is
   * decoded first; the other entries of {@code target} are passed over and hold unspecified values
   * (see {@link ColumnBatch.Builder#decodeOnly}). For callers that read only some entries, such as
   * the values of a map under the keys they want.
   */
  public void selectEntries(int target, int source, EntrySelector selector) {
    requireNonNull(selector, "selector is null");
    if (source < 0 || source >= target || target >= columns.size()) {
      throw new IllegalArgumentException(
          "Cannot select entries of column %d by column %d: the source must be read before the target, among %d columns"
              .formatted(target, source, columns.size()));
    }
    selectors[target] = selector;
    selectorSources[target] = source;
  }

  /** The file's footer (read by this read, or the one handed in). */
  public ParquetFooter footer() {
    return footer;
  }

  /** The leaf columns read, in the order of each batch's columns. */
  public List<ColumnSchema> columns() {
    return columns;
  }

  /** The plan being executed. */
  public PagePlan plan() {
    return plan;
  }

  /**
   * Page locations of every chunk this read touched: the ones handed in plus the ones it found, so
   * a caller can keep them and skip the OffsetIndex read or header walk next time.
   */
  public FilePageLocations pageLocations() {
    return loaded.locations();
  }

  /** Whether a row group with selected rows remains. */
  public boolean hasNext() {
    return nextRowGroup < plan.rowGroups().size();
  }

  /** Decodes the selected rows of the next row group that has any. */
  public RowGroupBatch next() throws IOException {
    if (!hasNext()) {
      throw new NoSuchElementException("Cannot read past the last row group of " + footer.file());
    }
    RowGroupPlan rowGroup = plan.rowGroups().get(nextRowGroup++);
    skipToReadable();
    List<ColumnBatch> batches = new ArrayList<>(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      boolean[] wanted =
          selectors[i] == null ? null : selectors[i].select(batches.get(selectorSources[i]));
      batches.add(decode(rowGroup, columns.get(i), rowGroup.columns().get(i), wanted));
    }
    return new RowGroupBatch(rowGroup.rowGroup(), rowGroup.firstRow(), rowGroup.rows(), batches);
  }

  /** Decodes every remaining row group. */
  public List<RowGroupBatch> readAll() throws IOException {
    List<RowGroupBatch> batches = new ArrayList<>();
    while (hasNext()) {
      batches.add(next());
    }
    return batches;
  }

  /** This read's statistics so far. */
  public ReadStats stats() {
    return counters.snapshot(
        plan.dataPageCount(), plan.dictionaryPageCount(), plan.lowerBoundBytes());
  }

  /** The merged reads issued (or to be issued) for pages, for tests and diagnostics. */
  List<ByteRange> pageReads() {
    return fetch.reads();
  }

  /** Whether the fetch of the page at {@code range} has started (for prefetch tests). */
  boolean isFetchStarted(ByteRange range) {
    return fetch.isStarted(range);
  }

  @Override
  public void close() {
    fetch.close();
  }

  private void skipToReadable() {
    while (nextRowGroup < plan.rowGroups().size()
        && plan.rowGroups().get(nextRowGroup).access() == RowGroupAccess.SKIP) {
      nextRowGroup++;
    }
  }

  private ColumnBatch decode(
      RowGroupPlan rowGroup, ColumnSchema column, ColumnChunkPlan chunk, boolean[] wanted)
      throws IOException {
    ColumnMetaData metadata = footer.columnChunk(rowGroup.rowGroup(), column.index());
    var where = footer.location(rowGroup.rowGroup(), column.index());
    ColumnChunkDecoder decoder = new ColumnChunkDecoder(column, metadata.getCodec(), where);
    ColumnBatch.Builder builder = ColumnBatch.builder(column);
    expectSize(builder, metadata, rowGroup, wanted);
    if (wanted != null) {
      builder.decodeOnly(wanted);
    }
    if (chunk.dictionaryPage().isPresent()) {
      ByteRange dictionary = chunk.dictionaryPage().get();
      decoder.readDictionaryPage(dictionary.offset(), bytes(dictionary));
      counters.recordDictionaryPage();
    }
    for (PlannedPage page : chunk.pages()) {
      decoder.readDataPage(
          page.pageIndex(),
          page.range().offset(),
          bytes(page.range()),
          page.rows().firstRow(),
          page.rows(),
          builder);
      counters.recordPage();
    }
    int expected = rowGroup.rows().size();
    if (builder.rowCount() != expected) {
      throw new CorruptParquetException(
          where,
          "decoded %d rows but the plan selected %d (row counts in the pages and the page locations disagree)"
              .formatted(builder.rowCount(), expected));
    }
    return builder.build();
  }

  /**
   * Sizes the batch from the chunk's metadata, scaled by the share of rows (and wanted entries)
   * read: its value count, and for binary columns its uncompressed size, an upper bound of the
   * values' bytes in PLAIN pages. Untrusted numbers, so only a hint, capped by the bytes of pages.
   */
  private void expectSize(
      ColumnBatch.Builder builder,
      ColumnMetaData metadata,
      RowGroupPlan rowGroup,
      boolean[] wanted) {
    long rows = footer.rowGroupRowCount(rowGroup.rowGroup());
    if (rows <= 0 || metadata.getNum_values() <= 0) {
      return;
    }
    double share = Math.min(1.0, rowGroup.rows().size() / (double) rows);
    long entries = (long) (metadata.getNum_values() * share);
    long bytes = 0;
    if (builder.column().physicalType() == Type.BYTE_ARRAY) {
      double wantedShare = wanted == null ? 1.0 : share(wanted);
      bytes =
          (long) (Math.min(metadata.getTotal_uncompressed_size(), 1L << 30) * share * wantedShare);
    }
    builder.expect(rowGroup.rows().size(), (int) Math.min(entries, Integer.MAX_VALUE), bytes);
  }

  private static double share(boolean[] wanted) {
    int count = 0;
    for (boolean w : wanted) {
      if (w) {
        count++;
      }
    }
    return wanted.length == 0 ? 1.0 : count / (double) wanted.length;
  }

  private ByteBuffer bytes(ByteRange range) throws IOException {
    Optional<ByteBuffer> held = Preloaded.find(loaded.chunks(), range);
    return held.isPresent() ? held.get() : fetch.await(range);
  }
}
