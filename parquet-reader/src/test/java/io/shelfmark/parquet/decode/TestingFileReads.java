package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.metadata.FooterReader;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.read.ParquetFileReader;
import io.shelfmark.parquet.read.ParquetRead;
import io.shelfmark.parquet.read.ReadRequest;
import io.shelfmark.parquet.read.ReaderOptions;
import io.shelfmark.parquet.read.RowGroupBatch;
import io.shelfmark.parquet.schema.ColumnSchema;
import io.shelfmark.parquet.schema.ParquetSchema;
import io.shelfmark.storage.local.LocalObjectStore;
import io.shelfmark.storage.spi.Location;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads local files through the whole reader ({@link ParquetFileReader} over a {@link
 * LocalObjectStore}, fetches run on the calling thread): footer, page locations, planning,
 * coalesced range reads, then this package's decoder.
 */
final class TestingFileReads {
  private static final LocalObjectStore STORE = LocalObjectStore.unconfined();
  private static final ParquetFileReader READER =
      new ParquetFileReader(STORE, Runnable::run, ReaderOptions.defaults());

  private TestingFileReads() {}

  static Location location(Path file) {
    return Location.parse(file.toAbsolutePath().toString());
  }

  static ParquetFooter footer(Path file) throws IOException {
    return FooterReader.withDefaults().read(STORE, location(file), Files.size(file));
  }

  /** Every leaf column of the file, the selected rows, one batch per row group read. */
  static List<RowGroupBatch> read(Path file, RowSelection rows) throws IOException {
    ParquetFooter footer = footer(file);
    List<String> columns = new ArrayList<>();
    for (ColumnSchema column : ParquetSchema.from(footer.file(), footer.schema()).columns()) {
      columns.add(column.dottedPath());
    }
    try (ParquetRead read =
        READER.start(ReadRequest.of(location(file), Files.size(file), columns, rows))) {
      return read.readAll();
    }
  }
}
