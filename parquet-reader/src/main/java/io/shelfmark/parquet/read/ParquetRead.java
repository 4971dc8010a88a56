package io.shelfmark.parquet.read;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.decode.ColumnChunkDecoder;
import io.shelfmark.parquet.decode.DecodedDictionaries;
import io.shelfmark.parquet.decode.DecompressedPage;
import io.shelfmark.parquet.decode.DecompressedPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.PageLocator;
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
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.Type;

/**
 * One started read of one file (from {@link ParquetFileReader#start}): its fetches are in flight;
 * {@link #next()} decodes the selected rows of the next row group that has any, waiting only for
 * the pages it needs.
 *
 * <p>Lifecycle: {@code start} → {@code hasNext}/{@code next} as often as wanted → {@code close}
 * (always; cancels fetches not yet consumed). Not thread safe: one consumer thread, which may hand
 * row groups to other threads with {@link #decodeAhead}.
 */
public final class ParquetRead implements AutoCloseable {
  private final ParquetFooter footer;
  private final List<ColumnSchema> columns;
  private final PagePlan plan;
  private final Loaded loaded;
  private final RangeFetch fetch;
  private final ReadCounters counters;
  private final DecompressedPages keptPages;
  private final DecodedDictionaries dictionaries;
  // Data pages found kept when the read started, by header offset (every planned page was looked up
  // when keptPages is not NONE); built by the reader for this read alone, never changed.
  private final Map<Long, DecompressedPage> keptFound;
  private final long fileSize;
  private final EntrySelector[] selectors;
  private final int[] selectorSources;
  private final ArrayDeque<RowGroupDecode> ahead = new ArrayDeque<>();
  private int nextRowGroup;
  private Executor aheadExecutor; // null: row groups are decoded by the consumer, one by one
  private int aheadRowGroups = 1;
  private volatile boolean closed;

  ParquetRead(
      ParquetFooter footer,
      List<ColumnSchema> columns,
      PagePlan plan,
      Loaded loaded,
      RangeFetch fetch,
      ReadCounters counters,
      DecompressedPages keptPages,
      DecodedDictionaries dictionaries,
      Map<Long, DecompressedPage> keptFound,
      long fileSize) {
    this.footer = requireNonNull(footer, "footer is null");
    this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
    this.plan = requireNonNull(plan, "plan is null");
    this.loaded = requireNonNull(loaded, "loaded is null");
    this.fetch = requireNonNull(fetch, "fetch is null");
    this.counters = requireNonNull(counters, "counters is null");
    this.keptPages = requireNonNull(keptPages, "keptPages is null");
    this.dictionaries = requireNonNull(dictionaries, "dictionaries is null");
    this.keptFound = requireNonNull(keptFound, "keptFound is null");
    this.fileSize = fileSize;
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

  /**
   * From now on, decodes up to {@code rowGroups - 1} row groups after the one {@link #next()} hands
   * out on {@code executor} threads, so a file of several row groups keeps more than one core busy.
   * Batches still come out in file order. A row group no executor thread has started when the
   * consumer reaches it is decoded by the consumer itself, so a busy (or saturated, or rejecting)
   * executor slows the read down but never stalls it. Call before the first {@code next()}.
   */
  public void decodeAhead(Executor executor, int rowGroups) {
    requireNonNull(executor, "executor is null");
    if (rowGroups < 1) {
      throw new IllegalArgumentException(
          "Cannot decode %d row groups at once (at least one)".formatted(rowGroups));
    }
    this.aheadExecutor = executor;
    this.aheadRowGroups = rowGroups;
  }

  /** Whether a row group with selected rows remains. */
  public boolean hasNext() {
    return !ahead.isEmpty() || nextRowGroup < plan.rowGroups().size();
  }

  /** Decodes the selected rows of the next row group that has any. */
  public RowGroupBatch next() throws IOException {
    if (!hasNext()) {
      throw new NoSuchElementException("Cannot read past the last row group of " + footer.file());
    }
    if (aheadExecutor == null) {
      return decodeRowGroup(takeRowGroup());
    }
    while (ahead.size() < aheadRowGroups && nextRowGroup < plan.rowGroups().size()) {
      RowGroupDecode task = new RowGroupDecode(takeRowGroup());
      ahead.add(task);
      if (ahead.size() > 1) {
        try {
          aheadExecutor.execute(task::runIfUnclaimed);
        } catch (RejectedExecutionException e) {
          // The consumer decodes it when it gets there.
        }
      }
    }
    return ahead.poll().result();
  }

  private RowGroupPlan takeRowGroup() {
    RowGroupPlan rowGroup = plan.rowGroups().get(nextRowGroup++);
    skipToReadable();
    return rowGroup;
  }

  private RowGroupBatch decodeRowGroup(RowGroupPlan rowGroup) throws IOException {
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
    closed = true;
    fetch.close();
  }

  /**
   * One row group's decoding, run by whichever comes first: an executor thread or the consumer. The
   * consumer then waits for the result of a decode an executor thread has started.
   */
  private final class RowGroupDecode {
    private final RowGroupPlan rowGroup;
    private final AtomicBoolean claimed = new AtomicBoolean();
    private final CompletableFuture<RowGroupBatch> done = new CompletableFuture<>();

    RowGroupDecode(RowGroupPlan rowGroup) {
      this.rowGroup = rowGroup;
    }

    void runIfUnclaimed() {
      if (!closed && claimed.compareAndSet(false, true)) {
        run();
      }
    }

    private void run() {
      try {
        done.complete(decodeRowGroup(rowGroup));
      } catch (IOException | RuntimeException | Error e) {
        done.completeExceptionally(e);
      }
    }

    RowGroupBatch result() throws IOException {
      if (claimed.compareAndSet(false, true)) {
        run();
      }
      try {
        return done.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        InterruptedIOException interrupted =
            new InterruptedIOException(
                "Interrupted while decoding row group %d of %s"
                    .formatted(rowGroup.rowGroup(), footer.file()));
        interrupted.initCause(e);
        throw interrupted;
      } catch (ExecutionException e) {
        // Rethrown as the consumer would have met it decoding the row group itself.
        switch (e.getCause()) {
          case IOException io -> throw io;
          case RuntimeException runtime -> throw runtime;
          case Error error -> throw error;
          default -> throw new IllegalStateException(e.getCause());
        }
      }
    }
  }

  private void skipToReadable() {
    while (nextRowGroup < plan.rowGroups().size()
        && plan.rowGroups().get(nextRowGroup).access() == RowGroupAccess.SKIP) {
      nextRowGroup++;
    }
  }

  /**
   * Decodes one column chunk of a row group, timing apart the waits for its pages' bytes (fetch)
   * and the rest (decode): two clock reads per page, nothing per row.
   */
  private ColumnBatch decode(
      RowGroupPlan rowGroup, ColumnSchema column, ColumnChunkPlan chunk, boolean[] wanted)
      throws IOException {
    long started = System.nanoTime();
    long[] waited = new long[1];
    try {
      return decodeTimed(rowGroup, column, chunk, wanted, waited);
    } finally {
      counters.recordChunk(waited[0], System.nanoTime() - started - waited[0]);
    }
  }

  private ColumnBatch decodeTimed(
      RowGroupPlan rowGroup,
      ColumnSchema column,
      ColumnChunkPlan chunk,
      boolean[] wanted,
      long[] waited)
      throws IOException {
    ColumnMetaData metadata = footer.columnChunk(rowGroup.rowGroup(), column.index());
    var where = footer.location(rowGroup.rowGroup(), column.index());
    ColumnChunkDecoder decoder = new ColumnChunkDecoder(column, metadata.getCodec(), where);
    decoder.keepDecompressedIn(keptPages, fileSize);
    decoder.keepDictionariesIn(dictionaries, fileSize);
    ColumnBatch.Builder builder = ColumnBatch.builder(column);
    expectSize(builder, metadata, rowGroup, wanted);
    if (wanted != null) {
      builder.decodeOnly(wanted);
    }
    if (chunk.dictionaryPage().isPresent()) {
      ByteRange dictionary = chunk.dictionaryPage().get();
      DecompressedPage kept = keptFound.get(dictionary.offset());
      boolean fetched = kept == null || !kept.isDictionary();
      decoder.readLookedUpDictionaryPage(
          dictionary.offset(), fetched ? bytes(dictionary, waited) : null, fetched ? null : kept);
      counters.recordDictionaryPage();
    } else if (chunk.dictionarySkipped()) {
      decoder.dictionaryNotRead(
          PageLocator.chunkOffset(footer, rowGroup.rowGroup(), column.index()));
    }
    for (PlannedPage page : chunk.pages()) {
      DecompressedPage kept = keptFound.get(page.range().offset());
      boolean fetched = kept == null || !kept.isSelfContained();
      decoder.readLookedUpDataPage(
          page.pageIndex(),
          page.range().offset(),
          fetched ? bytes(page.range(), waited) : null,
          kept,
          page.rows().firstRow(),
          page.rows(),
          builder);
      if (!fetched) {
        counters.recordKeptPage();
      }
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

  /** The bytes of {@code range}, adding the time spent waiting for them to {@code waited[0]}. */
  private ByteBuffer bytes(ByteRange range, long[] waited) throws IOException {
    Optional<ByteBuffer> held = Preloaded.find(loaded.chunks(), range);
    if (held.isPresent()) {
      return held.get();
    }
    long started = System.nanoTime();
    try {
      return fetch.await(range);
    } finally {
      waited[0] += System.nanoTime() - started;
    }
  }
}
