package io.shelfmark.server.delete;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.PrimitiveValues;
import io.shelfmark.parquet.metadata.FooterReader;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.read.ParquetFileReader;
import io.shelfmark.parquet.read.ParquetRead;
import io.shelfmark.parquet.read.ReadRequest;
import io.shelfmark.parquet.read.RowGroupBatch;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.Statistics;
import org.roaringbitmap.RoaringBitmap;

/**
 * Reads the positions an Iceberg position-delete file in Parquet deletes from a given set of data
 * files: its {@code file_path} (string) and {@code pos} (long) columns; other columns (the optional
 * deleted {@code row}) are never read.
 *
 * <p>A delete file may hold deletes for many data files, sorted by {@code file_path} then {@code
 * pos}, so a row group whose {@code file_path} statistics ({@code min_value}/{@code max_value},
 * compared as unsigned bytes, which for UTF-8 is code-point order) rule out every wanted path is
 * skipped without being read. Statistics that are absent (or only in the deprecated signed-order
 * fields) mean the row group is read. Thread safe: stateless apart from the injected reader.
 */
final class PositionDeleteFileReader {
  static final String FILE_PATH = "file_path";
  static final String POS = "pos";

  private final ObjectStore store;
  private final ParquetFileReader reader;
  private final FooterReader footerReader = FooterReader.withDefaults();

  PositionDeleteFileReader(ObjectStore store, ParquetFileReader reader) {
    this.store = requireNonNull(store, "store is null");
    this.reader = requireNonNull(reader, "reader is null");
  }

  /** What one read found: positions per wanted data file, and what it read. */
  record Result(Map<String, RoaringBitmap> positions, int rowGroupsRead, int rowGroupsSkipped) {}

  /**
   * @param deleteFile the delete file's location
   * @param fileSize its size in bytes
   * @param dataFiles the data file paths whose positions are wanted; rows of other paths are
   *     ignored
   * @return per wanted data file, its deleted positions (empty bitmaps for files without any)
   */
  Result read(String deleteFile, long fileSize, Set<String> dataFiles) throws IOException {
    Location location = Location.parse(deleteFile);
    ParquetFooter footer = footerReader.read(store, location, fileSize);
    Map<String, RoaringBitmap> positions = new HashMap<>();
    for (String dataFile : dataFiles) {
      positions.put(dataFile, new RoaringBitmap());
    }
    if (footer.rowGroupCount() == 0) {
      return new Result(positions, 0, 0);
    }
    int pathColumn = column(footer, FILE_PATH, deleteFile);
    int posColumn = column(footer, POS, deleteFile);
    byte[][] wanted = new byte[dataFiles.size()][];
    String[] names = dataFiles.stream().sorted().toArray(String[]::new);
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < names.length; i++) {
      wanted[i] = names[i].getBytes(StandardCharsets.UTF_8);
      index.put(names[i], i);
    }
    RoaringBitmap rows = new RoaringBitmap();
    int skipped = 0;
    for (int rowGroup = 0; rowGroup < footer.rowGroupCount(); rowGroup++) {
      long first = footer.rowGroupFirstRow(rowGroup);
      int count = footer.rowGroupRowCount(rowGroup);
      if (count == 0) {
        continue;
      }
      if (mightHold(footer.columnChunk(rowGroup, pathColumn), wanted)) {
        rows.add(first, first + count);
      } else {
        skipped++;
      }
    }
    int read = footer.rowGroupCount() - skipped;
    if (!rows.isEmpty()) {
      ReadRequest request =
          new ReadRequest(
              location,
              fileSize,
              Optional.of(footer),
              Optional.empty(),
              List.of(FILE_PATH, POS),
              RowSelection.of(rows));
      try (ParquetRead parquet = reader.start(request)) {
        while (parquet.hasNext()) {
          collect(deleteFile, parquet.next(), index, names, positions);
        }
      }
    }
    return new Result(positions, read, skipped);
  }

  private static void collect(
      String deleteFile,
      RowGroupBatch batch,
      Map<String, Integer> wanted,
      String[] names,
      Map<String, RoaringBitmap> positions)
      throws IOException {
    ColumnBatch paths = batch.column(FILE_PATH);
    ColumnBatch pos = batch.column(POS);
    if (paths.hasNulls() || pos.hasNulls()) {
      throw new CorruptDeletesException(
          deleteFile,
          "Cannot read position deletes of %s: row group %d has a null file_path or pos"
              .formatted(deleteFile, batch.rowGroup()));
    }
    long[] values = pos.values().longs();
    RoaringBitmap[] targets = new RoaringBitmap[names.length];
    for (int i = 0; i < names.length; i++) {
      targets[i] = positions.get(names[i]);
    }
    int rows = paths.rowCount();
    if (paths.isDictionaryEncoded()) {
      // Match each dictionary entry once; rows then only look up their entry's target.
      PrimitiveValues dictionary = paths.dictionary();
      int[] targetOf = new int[dictionary.size()];
      for (int id = 0; id < targetOf.length; id++) {
        targetOf[id] = wanted.getOrDefault(dictionary.string(id), -1);
      }
      int[] ids = paths.dictionaryIds();
      for (int row = 0; row < rows; row++) {
        int target = targetOf[ids[row]];
        if (target >= 0) {
          add(deleteFile, targets[target], values[row], names[target]);
        }
      }
      return;
    }
    // Rows are sorted by path: look a path up only when it differs from the previous row's.
    PrimitiveValues text = paths.values();
    byte[] data = text.binaryData();
    int[] offsets = text.binaryOffsets();
    int target = -1;
    for (int row = 0; row < rows; row++) {
      int start = offsets[row];
      int end = offsets[row + 1];
      if (row == 0 || !Arrays.equals(data, start, end, data, offsets[row - 1], offsets[row])) {
        target = wanted.getOrDefault(text.string(row), -1);
      }
      if (target >= 0) {
        add(deleteFile, targets[target], values[row], names[target]);
      }
    }
  }

  private static void add(String deleteFile, RoaringBitmap target, long position, String dataFile)
      throws IOException {
    if (position < 0 || position > Integer.MAX_VALUE) {
      throw new CorruptDeletesException(
          deleteFile,
          "Cannot read position deletes of %s: position %d of data file %s is outside 0..%d"
              .formatted(deleteFile, position, dataFile, Integer.MAX_VALUE));
    }
    target.add((int) position);
  }

  /**
   * Whether a row group's {@code file_path} chunk might hold one of the wanted paths: true unless
   * its exact-order statistics exclude every one. Proof: min_value and max_value bound every
   * non-null value of the chunk in unsigned byte order, so a path below min or above max is absent.
   */
  private static boolean mightHold(ColumnMetaData chunk, byte[][] wanted) {
    Statistics statistics = chunk.getStatistics();
    if (statistics == null || !statistics.isSetMin_value() || !statistics.isSetMax_value()) {
      return true;
    }
    byte[] min = statistics.getMin_value();
    byte[] max = statistics.getMax_value();
    for (byte[] path : wanted) {
      if (Arrays.compareUnsigned(path, min) >= 0 && Arrays.compareUnsigned(path, max) <= 0) {
        return true;
      }
    }
    return false;
  }

  private static int column(ParquetFooter footer, String name, String deleteFile)
      throws IOException {
    for (int column = 0; column < footer.columnCount(); column++) {
      if (footer.columnPath(column).equals(name)) {
        return column;
      }
    }
    throw new CorruptDeletesException(
        deleteFile,
        "Cannot read position deletes of %s: it has no %s column (is it a position-delete file?)"
            .formatted(deleteFile, name));
  }
}
