package io.shelfmark.benchmarks.parquet;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.metadata.FooterReader;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.read.ParquetFileReader;
import io.shelfmark.parquet.read.ParquetRead;
import io.shelfmark.parquet.read.ReadRequest;
import io.shelfmark.parquet.read.ReaderOptions;
import io.shelfmark.parquet.read.RowGroupBatch;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads the one column of a benchmark file with Shelfmark's reader the way a server does once a
 * segment gave it the footer and page locations: {@link ParquetFileReader#start} with both known,
 * every row selected, fetches run on the calling thread from a local store, then {@link
 * ParquetRead#next()} decodes the single row group. Not thread safe.
 */
final class ShelfmarkColumnReader implements AutoCloseable {
  private final ObjectStore store;
  private final ParquetFileReader reader;
  private final ReadRequest request;

  private ShelfmarkColumnReader(ObjectStore store, ParquetFileReader reader, ReadRequest request) {
    this.store = requireNonNull(store, "store is null");
    this.reader = requireNonNull(reader, "reader is null");
    this.request = requireNonNull(request, "request is null");
  }

  /**
   * Opens {@code path}: reads its footer and locates its pages once (a first full read), so the
   * timed reads start where a server's do.
   */
  static ShelfmarkColumnReader open(Path path) throws IOException {
    ObjectStore store = ObjectStores.local();
    // Runnable::run: the ranged reads happen on the caller's thread, so a benchmark thread does
    // all the work it is timed for and no pool's hand-off is measured.
    ParquetFileReader reader =
        new ParquetFileReader(store, Runnable::run, ReaderOptions.defaults());
    Location location = Location.parse(path.toAbsolutePath().toString());
    long size = Files.size(path);
    ParquetFooter footer = FooterReader.withDefaults().read(store, location, size);
    List<String> columns = List.of(DecodingCase.COLUMN);
    try (ParquetRead first =
        reader.start(ReadRequest.of(location, size, columns, RowSelection.all()))) {
      first.readAll();
      return new ShelfmarkColumnReader(
          store,
          reader,
          ReadRequest.of(location, footer, first.pageLocations(), columns, RowSelection.all()));
    }
  }

  /** Reads and decodes the column's only row group. */
  ColumnBatch read() throws IOException {
    try (ParquetRead read = reader.start(request)) {
      RowGroupBatch batch = read.next();
      if (read.hasNext()) {
        throw new IllegalStateException(
            "Cannot benchmark %s: it has more than one row group".formatted(request.file()));
      }
      return batch.columns().getFirst();
    }
  }

  @Override
  public void close() throws IOException {
    store.close();
  }
}
