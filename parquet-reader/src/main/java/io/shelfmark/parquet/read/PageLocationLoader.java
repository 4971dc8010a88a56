package io.shelfmark.parquet.read;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.UnsupportedParquetException;
import io.shelfmark.parquet.decode.ColumnChunkDecoder;
import io.shelfmark.parquet.metadata.ColumnChunkPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.PageLocator;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.schema.ColumnSchema;
import io.shelfmark.parquet.schema.ParquetSchema;
import io.shelfmark.storage.coalesce.ByteRange;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the page locations of column chunks with as few requests as possible: the OffsetIndexes of
 * all chunks that have one (written side by side, so they coalesce into one or a few GETs), and for
 * chunks without one, the whole chunk, whose headers are walked once. The chunk bytes read for a
 * walk are kept so the same read can decode its pages from them instead of fetching them again.
 *
 * <p>The index builder calls {@link #load(Location, ParquetFooter)} for a whole file and stores the
 * result in the segment; the reader calls it only for chunks a segment did not cover.
 *
 * <p>Thread safe: holds only its collaborators.
 */
public final class PageLocationLoader {
  private static final Logger log = LoggerFactory.getLogger(PageLocationLoader.class);

  private final ObjectStore store;
  private final Executor executor;
  private final ReaderOptions options;

  public PageLocationLoader(ObjectStore store, Executor executor, ReaderOptions options) {
    this.store = requireNonNull(store, "store is null");
    this.executor = requireNonNull(executor, "executor is null");
    this.options = requireNonNull(options, "options is null");
  }

  /**
   * The page locations of every column chunk of the file. Row groups without rows get no entry:
   * nothing is ever read from them.
   */
  public FilePageLocations load(Location file, ParquetFooter footer) throws IOException {
    ParquetSchema schema = ParquetSchema.from(footer.file(), footer.schema());
    List<Chunk> chunks = new ArrayList<>();
    for (int rowGroup = 0; rowGroup < footer.rowGroupCount(); rowGroup++) {
      for (int column = 0;
          column < footer.columnCount() && footer.rowGroupRowCount(rowGroup) > 0;
          column++) {
        chunks.add(new Chunk(rowGroup, column));
      }
    }
    FilePageLocations none =
        FilePageLocations.builder(footer.rowGroupCount(), footer.columnCount()).build();
    return load(file, footer, schema, chunks, none, new ReadCounters()).locations();
  }

  /** One column chunk: a row group and a leaf column index. */
  record Chunk(int rowGroup, int column) {}

  /** Chunk bytes already in memory, from a header walk. */
  record Preloaded(ByteRange range, ByteBuffer bytes) {}

  /** Page locations, and the chunk bytes read to walk headers (sorted by offset). */
  record Loaded(FilePageLocations locations, List<Preloaded> chunks) {}

  /**
   * Completes {@code known} with the locations of {@code chunks} it lacks.
   *
   * @param counters this read's statistics, which the requests are added to
   */
  Loaded load(
      Location file,
      ParquetFooter footer,
      ParquetSchema schema,
      List<Chunk> chunks,
      FilePageLocations known,
      ReadCounters counters)
      throws IOException {
    List<Chunk> indexed = new ArrayList<>();
    List<ByteRange> indexRanges = new ArrayList<>();
    List<Chunk> walked = new ArrayList<>();
    List<ByteRange> chunkRanges = new ArrayList<>();
    for (Chunk chunk : chunks) {
      if (known.find(chunk.rowGroup(), chunk.column()).isPresent()) {
        continue;
      }
      long offset = PageLocator.offsetIndexOffset(footer, chunk.rowGroup(), chunk.column());
      if (offset >= 0) {
        indexed.add(chunk);
        indexRanges.add(
            new ByteRange(
                offset, PageLocator.offsetIndexLength(footer, chunk.rowGroup(), chunk.column())));
      } else {
        walked.add(chunk);
        chunkRanges.add(chunkRange(footer, chunk));
      }
    }
    FilePageLocations.Builder locations =
        FilePageLocations.builder(footer.rowGroupCount(), footer.columnCount()).addAll(known);
    if (indexed.isEmpty() && walked.isEmpty()) {
      return new Loaded(locations.build(), List.of());
    }
    log.debug(
        "Locating pages of {}: {} offset indexes, {} header walks",
        file,
        indexed.size(),
        walked.size());
    // Both kinds of read start before either is consumed: they overlap in time.
    try (RangeFetch indexes = fetch(file, counters, indexRanges);
        RangeFetch chunkBytes = fetch(file, counters, chunkRanges)) {
      for (int i = 0; i < indexed.size(); i++) {
        Chunk chunk = indexed.get(i);
        locations.add(
            chunk.rowGroup(),
            chunk.column(),
            PageLocator.fromOffsetIndex(
                footer, chunk.rowGroup(), chunk.column(), indexes.await(indexRanges.get(i))));
      }
      List<Preloaded> preloaded = new ArrayList<>(walked.size());
      for (int i = 0; i < walked.size(); i++) {
        Chunk chunk = walked.get(i);
        ByteBuffer bytes = chunkBytes.await(chunkRanges.get(i));
        locations.add(chunk.rowGroup(), chunk.column(), walk(footer, schema, chunk, bytes));
        preloaded.add(new Preloaded(chunkRanges.get(i), bytes));
      }
      preloaded.sort((a, b) -> Long.compare(a.range().offset(), b.range().offset()));
      return new Loaded(locations.build(), List.copyOf(preloaded));
    }
  }

  private RangeFetch fetch(Location file, ReadCounters counters, List<ByteRange> ranges) {
    RangeFetch fetch =
        new RangeFetch(
            store,
            file,
            executor,
            counters,
            Long.MAX_VALUE,
            Coalescing.merge(ranges, options),
            ranges);
    fetch.start();
    return fetch;
  }

  private static ByteRange chunkRange(ParquetFooter footer, Chunk chunk)
      throws UnsupportedParquetException {
    long offset = PageLocator.chunkOffset(footer, chunk.rowGroup(), chunk.column());
    long length = PageLocator.chunkLength(footer, chunk.rowGroup(), chunk.column());
    if (length > Integer.MAX_VALUE - 8) {
      throw new UnsupportedParquetException(
          footer.location(chunk.rowGroup(), chunk.column()),
          "a column chunk of %d bytes without an offset index".formatted(length),
          "rewrite the file with a page index, or with smaller row groups");
    }
    return new ByteRange(offset, length);
  }

  private static ColumnChunkPages walk(
      ParquetFooter footer, ParquetSchema schema, Chunk chunk, ByteBuffer bytes)
      throws IOException {
    ColumnSchema column = schema.column(chunk.column());
    var codec = footer.columnChunk(chunk.rowGroup(), chunk.column()).getCodec();
    return PageLocator.walk(
        footer,
        chunk.rowGroup(),
        chunk.column(),
        bytes,
        column.maxRepetitionLevel(),
        (page, pageBytes) ->
            new ColumnChunkDecoder(column, codec, page.withPage(-1, -1))
                .countRows(page.pageIndex(), page.pageOffset(), pageBytes));
  }
}
