package io.shelfmark.parquet.read;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.decode.DecodedDictionaries;
import io.shelfmark.parquet.decode.DecompressedPage;
import io.shelfmark.parquet.decode.DecompressedPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.FooterReader;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.plan.KeptDictionaryPages;
import io.shelfmark.parquet.plan.PagePlan;
import io.shelfmark.parquet.plan.PagePlanner;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.read.PageLocationLoader.Chunk;
import io.shelfmark.parquet.read.PageLocationLoader.Loaded;
import io.shelfmark.parquet.schema.ColumnSchema;
import io.shelfmark.parquet.schema.ParquetSchema;
import io.shelfmark.storage.coalesce.ByteRange;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;

/**
 * Shelfmark's page-level Parquet reader: reads from object storage only the pages holding the
 * selected rows of the requested columns, and decodes only those rows.
 *
 * <pre>{@code
 * ParquetFileReader reader = new ParquetFileReader(store, ioExecutor, ReaderOptions.defaults());
 * try (ParquetRead read = reader.start(ReadRequest.of(file, footer, pages, columns, rows))) {
 *   // fetches are already in flight: plan more work here if there is any
 *   while (read.hasNext()) {
 *     RowGroupBatch batch = read.next();
 *     ...
 *   }
 *   ReadStats stats = read.stats();
 * }
 * }</pre>
 *
 * <p>{@link #start} does, in order: read the footer unless given (one speculative tail GET); locate
 * the pages of the chunks to read unless given (OffsetIndexes in one coalesced GET, else a header
 * walk of the chunk); find the pages to read ({@link PagePlanner#ranges}); coalesce them; start the
 * merged GETs on the executor, ahead of the decoder up to {@link ReaderOptions#maxPrefetchBytes()};
 * then, while they are on the way, {@link PagePlanner#plan plan} each page's selected rows. It
 * returns once the plan is made; decoding happens on the caller's thread in {@link
 * ParquetRead#next()}.
 *
 * <p>Thread safe: one reader serves many concurrent reads; each {@link ParquetRead} belongs to one
 * thread.
 */
public final class ParquetFileReader {
  private final ObjectStore store;
  private final Executor executor;
  private final ReaderOptions options;
  private final FooterReader footerReader;
  private final PageLocationLoader locationLoader;
  private final DecompressedPages keptPages;
  private final DecodedDictionaries dictionaries;

  /**
   * @param store where data files are read from
   * @param executor runs the ranged GETs (an I/O pool: GETs block)
   * @param options coalescing, prefetch and footer settings
   */
  public ParquetFileReader(ObjectStore store, Executor executor, ReaderOptions options) {
    this(store, executor, options, DecompressedPages.NONE);
  }

  /**
   * As {@link #ParquetFileReader(ObjectStore, Executor, ReaderOptions)}, keeping decompressed data
   * pages in {@code keptPages} and looking there before decompressing one.
   */
  public ParquetFileReader(
      ObjectStore store, Executor executor, ReaderOptions options, DecompressedPages keptPages) {
    this(store, executor, options, keptPages, DecodedDictionaries.NONE);
  }

  /**
   * As {@link #ParquetFileReader(ObjectStore, Executor, ReaderOptions, DecompressedPages)}, keeping
   * decoded dictionaries in {@code dictionaries} and looking there before decoding a dictionary
   * page.
   */
  public ParquetFileReader(
      ObjectStore store,
      Executor executor,
      ReaderOptions options,
      DecompressedPages keptPages,
      DecodedDictionaries dictionaries) {
    this.keptPages = requireNonNull(keptPages, "keptPages is null");
    this.dictionaries = requireNonNull(dictionaries, "dictionaries is null");
    this.store = requireNonNull(store, "store is null");
    this.executor = requireNonNull(executor, "executor is null");
    this.options = requireNonNull(options, "options is null");
    this.footerReader = new FooterReader((int) options.footerTailSize().bytes());
    this.locationLoader = new PageLocationLoader(store, executor, options);
  }

  /**
   * Plans the read and starts fetching its pages; the returned read decodes them on demand. The
   * caller must close it (which cancels fetches not yet consumed).
   *
   * @throws io.shelfmark.parquet.CorruptParquetException when the footer or page locations are
   *     corrupt or contradict each other
   * @throws io.shelfmark.parquet.UnsupportedParquetException for encrypted files
   * @throws IllegalArgumentException for an unknown column or rows past the end of the file
   */
  public ParquetRead start(ReadRequest request) throws IOException {
    requireNonNull(request, "request is null");
    ReadCounters counters = new ReadCounters();
    ParquetFooter footer;
    List<Preloaded> held;
    if (request.footer().isPresent()) {
      footer = request.footer().get();
      held = List.of();
    } else {
      // Keep the tail: it usually holds the page indexes, and all of a small file.
      FooterReader.Tail tail =
          footerReader.readTail(store, request.file(), request.fileSize(), counters::recordRequest);
      footer = tail.footer();
      held =
          List.of(
              new Preloaded(
                  new ByteRange(tail.offset(), tail.bytes().length),
                  ByteBuffer.wrap(tail.bytes())));
    }
    ParquetSchema schema = ParquetSchema.from(footer.file(), footer.schema());
    List<ColumnSchema> columns = resolve(schema, request.columns(), footer.file());
    RowSelection rows = request.rows();
    rows.checkWithin(footer.rowCount(), footer.file());
    List<Integer> indexes = new ArrayList<>(columns.size());
    for (ColumnSchema column : columns) {
      indexes.add(column.index());
    }
    FilePageLocations known =
        request
            .pageLocations()
            .orElseGet(
                () ->
                    FilePageLocations.builder(footer.rowGroupCount(), footer.columnCount())
                        .build());
    known.checkShape(footer);
    Loaded loaded =
        locationLoader.load(
            request.file(),
            footer,
            schema,
            chunksToRead(footer, rows, indexes),
            known,
            held,
            counters);
    KeptDictionaryPages keptDictionaries = request.keptDictionaryPages();
    loaded = withKeptDictionaries(loaded, keptDictionaries);
    // The GETs start from the pages alone; each page's selected rows are listed while they run.
    List<PagePlanner.PlannedRange> ranges =
        PagePlanner.ranges(footer, loaded.locations(), indexes, rows, keptDictionaries);
    Map<Long, DecompressedPage> kept = lookUpKeptPages(footer, ranges, request.fileSize());
    List<ByteRange> toFetch = new ArrayList<>();
    boolean[] fetched = new boolean[ranges.size()];
    for (int i = 0; i < ranges.size(); i++) {
      ByteRange range = ranges.get(i).range();
      DecompressedPage found = kept.get(range.offset());
      boolean decodesFromKept = found != null && found.isSelfContained();
      if (!decodesFromKept && Preloaded.find(loaded.chunks(), range).isEmpty()) {
        toFetch.add(range);
        fetched[i] = true;
      }
    }
    // Partly selected chunks the cost model reads whole: their spans join the ranges to coalesce,
    // so the reads cover them in one piece; the pages inside are handed out as before.
    ChunkReadChoice.Choice choice = ChunkReadChoice.choose(ranges, fetched, options);
    List<ByteRange> spans = choice.spans();
    counters.recordChunkReads(choice.figures());
    List<ByteRange> toRead = toFetch;
    if (!spans.isEmpty()) {
      toRead = new ArrayList<>(toFetch);
      toRead.addAll(spans);
    }
    RangeFetch fetch =
        new RangeFetch(
            store,
            request.file(),
            executor,
            counters,
            options.maxPrefetchBytes().bytes(),
            spans.isEmpty()
                ? Coalescing.merge(toFetch, options)
                : Coalescing.readsHolding(Coalescing.merge(toRead, options), toFetch),
            toFetch);
    fetch.start();
    PagePlan plan;
    try {
      plan = PagePlanner.plan(footer, loaded.locations(), indexes, rows, keptDictionaries);
      if (!plan.ranges().equals(ranges.stream().map(PagePlanner.PlannedRange::range).toList())) {
        throw new IllegalStateException(
            "Cannot read %s: the plan's pages differ from the pages being fetched (a bug in PagePlanner)"
                .formatted(footer.file()));
      }
    } catch (CorruptParquetException | RuntimeException e) {
      fetch.close();
      throw e;
    }
    return new ParquetRead(
        footer,
        columns,
        plan,
        loaded,
        fetch,
        counters,
        keptPages,
        dictionaries,
        kept,
        request.fileSize());
  }

  /**
   * {@code loaded} holding the kept dictionary pages too, so the decoder finds their bytes where it
   * finds every other held byte. A kept page inside bytes already held (a walked chunk, a small
   * file's tail) is served from those instead: held ranges must not lie inside one another.
   */
  private static Loaded withKeptDictionaries(Loaded loaded, KeptDictionaryPages kept) {
    if (kept.pageCount() == 0) {
      return loaded;
    }
    List<Preloaded> pages = new ArrayList<>(kept.pageCount());
    for (Map.Entry<ByteRange, ByteBuffer> page : kept.pages().entrySet()) {
      if (Preloaded.find(loaded.chunks(), page.getKey()).isEmpty()) {
        pages.add(new Preloaded(page.getKey(), page.getValue()));
      }
    }
    return new Loaded(loaded.locations(), Preloaded.merge(loaded.chunks(), pages));
  }

  /**
   * The planned pages found among the kept decompressed pages, by header offset; each looked up
   * once. The read holds on to them, so a page evicted meanwhile still decodes from what was found.
   * A kept v1 data page or dictionary page is not fetched at all: its decompressed body holds all
   * it needs. Dictionary pages are kept too so that a repeated read fetches nothing: fetching only
   * them would coalesce them into reads of other ranges than the first read's, which a page cache
   * keyed by range never finds.
   */
  private Map<Long, DecompressedPage> lookUpKeptPages(
      ParquetFooter footer, List<PagePlanner.PlannedRange> ranges, long fileSize) {
    if (keptPages == DecompressedPages.NONE) {
      return Map.of();
    }
    Map<Long, DecompressedPage> found = new HashMap<>();
    for (PagePlanner.PlannedRange planned : ranges) {
      long offset = planned.range().offset();
      DecompressedPage kept = keptPages.find(footer.file(), fileSize, offset);
      if (kept != null) {
        found.put(offset, kept);
      }
    }
    return found;
  }

  /** The chunks of the requested columns in row groups holding a selected row. */
  private static List<Chunk> chunksToRead(
      ParquetFooter footer, RowSelection rows, List<Integer> columns) {
    List<Chunk> chunks = new ArrayList<>();
    for (int rowGroup = 0; rowGroup < footer.rowGroupCount(); rowGroup++) {
      if (rows.intersects(footer.rowGroupFirstRow(rowGroup), footer.rowGroupRowCount(rowGroup))) {
        for (int column : columns) {
          chunks.add(new Chunk(rowGroup, column));
        }
      }
    }
    return chunks;
  }

  /**
   * Leaf columns for the requested names: a leaf's dotted path, or a field path standing for all
   * its leaves (a map's key and value). Duplicates are read once, in first-mention order.
   */
  static List<ColumnSchema> resolve(ParquetSchema schema, List<String> names, String file) {
    Set<ColumnSchema> found = new LinkedHashSet<>();
    for (String name : names) {
      Optional<ColumnSchema> leaf = schema.findColumn(name);
      if (leaf.isPresent()) {
        found.add(leaf.get());
        continue;
      }
      List<ColumnSchema> leaves = schema.columnsOfField(name);
      if (leaves.isEmpty()) {
        List<String> known = new ArrayList<>();
        for (ColumnSchema column : schema.columns()) {
          known.add(column.dottedPath());
        }
        throw new IllegalArgumentException(
            "Cannot read column %s of %s: no such column (the file's leaf columns are %s)"
                .formatted(name, file, known));
      }
      found.addAll(leaves);
    }
    return List.copyOf(found);
  }
}
