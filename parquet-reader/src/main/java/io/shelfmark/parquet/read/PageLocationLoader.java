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
    return load(file, footer, schema, chunks, none, List.of(), new ReadCounters()).locations();
  }

  /** One column chunk: a row group and a leaf column index. */
  record Chunk(int rowGroup, int column) {}

  /**
   * Page locations, and every byte held in memory: the ones handed in plus the chunks read to walk
   * headers (sorted by offset, for {@link Preloaded#find}).
   */
  record Loaded(FilePageLocations locations, List<Preloaded> chunks) {}

  /**
   * Completes {@code known} with the locations of {@code chunks} it lacks.
   *
   * @param held bytes already in memory (the footer's tail), sorted by offset: ranges inside them
   *     are not fetched
   * @param counters this read's statistics, which the requests are added to
   */
  Loaded load(
      Location file,
      ParquetFooter footer,
      ParquetSchema schema,
      List<Chunk> chunks,
      FilePageLocations known,
      List<Preloaded> held,
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
    List<ByteRange> toFetch = new ArrayList<>();
    for (ByteRange range : indexRanges) {
      if (Preloaded.find(held, range).isEmpty()) {
        toFetch.add(range);
      }
    }
    for (ByteRange range : chunkRanges) {
      if (Preloaded.find(held, range).isEmpty()) {
        toFetch.add(range);
      }
    }
    FilePageLocations.Builder locations =
        FilePageLocations.builder(footer.rowGroupCount(), footer.columnCount()).addAll(known);
    if (indexed.isEmpty() && walked.isEmpty()) {
      return new Loaded(locations.build(), held);
    }
    log.debug(
        "Locating pages of {}: {} offset indexes, {} header walks",
        file,
        indexed.size(),
        walked.size());
    // Offset indexes and walked chunks are fetched together: one coalesced, parallel batch.
    try (RangeFetch fetch = fetch(file, counters, toFetch)) {
      for (int i = 0; i < indexed.size(); i++) {
        Chunk chunk = indexed.get(i);
        locations.add(
            chunk.rowGroup(),
            chunk.column(),
            PageLocator.fromOffsetIndex(
                footer, chunk.rowGroup(), chunk.column(), bytes(held, fetch, indexRanges.get(i))));
      }
      List<Preloaded> preloaded = new ArrayList<>(walked.size());
      for (int i = 0; i < walked.size(); i++) {
        Chunk chunk = walked.get(i);
        ByteBuffer bytes = bytes(held, fetch, chunkRanges.get(i));
        locations.add(chunk.rowGroup(), chunk.column(), walk(footer, schema, chunk, bytes));
        // A chunk found inside held bytes is not held twice, so no held range lies inside another.
        if (Preloaded.find(held, chunkRanges.get(i)).isEmpty()) {
          preloaded.add(new Preloaded(chunkRanges.get(i), bytes));
        }
      }
      return new Loaded(locations.build(), Preloaded.merge(held, preloaded));
    }
  }

  private static ByteBuffer bytes(List<Preloaded> held, RangeFetch fetch, ByteRange range)
      throws IOException {
    var inMemory = Preloaded.find(held, range);
    return inMemory.isPresent() ? inMemory.get() : fetch.await(range);
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
