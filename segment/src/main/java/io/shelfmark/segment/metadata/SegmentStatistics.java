package io.shelfmark.segment.metadata;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.format.PartWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Per data file of a segment, the statistics of each column for the whole file and for each row
 * group, all in the one {@link ColumnStatistics} shape. Immutable and thread safe. Stored in the
 * {@code statistics} part.
 *
 * <pre>
 * version 1:
 *   files varint | per file: columns varint, (name string, stats)...
 *                |           rowGroups varint, per row group: columns varint, (name string, stats)...
 *   stats: rowCount varint | nullCount optional zigzag | min optional value | max optional value
 * </pre>
 *
 * @param files per data file, in the segment's file order
 */
public record SegmentStatistics(List<FileStatistics> files) {
  /** The statistics part's layout version. */
  public static final int VERSION = 1;

  public SegmentStatistics {
    files = ImmutableList.copyOf(requireNonNull(files, "files is null"));
  }

  /**
   * One data file's statistics.
   *
   * @param file per column, over the whole file
   * @param rowGroups per row group in file order, per column
   */
  public record FileStatistics(
      Map<String, ColumnStatistics> file, List<Map<String, ColumnStatistics>> rowGroups) {
    public FileStatistics {
      file = ImmutableSortedMap.copyOf(requireNonNull(file, "file is null"));
      ImmutableList.Builder<Map<String, ColumnStatistics>> copies = ImmutableList.builder();
      for (Map<String, ColumnStatistics> rowGroup :
          requireNonNull(rowGroups, "rowGroups is null")) {
        copies.add(ImmutableSortedMap.copyOf(rowGroup));
      }
      rowGroups = copies.build();
    }
  }

  /** A column's statistics over data file {@code file}, if recorded. */
  public Optional<ColumnStatistics> file(int file, String column) {
    return Optional.ofNullable(files.get(file).file().get(column));
  }

  /** A column's statistics over one row group of data file {@code file}, if recorded. */
  public Optional<ColumnStatistics> rowGroup(int file, int rowGroup, String column) {
    return Optional.ofNullable(files.get(file).rowGroups().get(rowGroup).get(column));
  }

  public byte[] serialize() {
    PartWriter out = new PartWriter(1024);
    out.putVarInt(files.size());
    for (FileStatistics file : files) {
      writeColumns(out, file.file());
      out.putVarInt(file.rowGroups().size());
      for (Map<String, ColumnStatistics> rowGroup : file.rowGroups()) {
        writeColumns(out, rowGroup);
      }
    }
    return out.toByteArray();
  }

  private static void writeColumns(PartWriter out, Map<String, ColumnStatistics> columns) {
    out.putVarInt(columns.size());
    for (Map.Entry<String, ColumnStatistics> entry : columns.entrySet()) {
      out.putString(entry.getKey());
      entry.getValue().writeTo(out);
    }
  }

  public static SegmentStatistics deserialize(PartReader in) throws CorruptSegmentException {
    int fileCount = in.getCount(in.remaining(), "file");
    ImmutableList.Builder<FileStatistics> files = ImmutableList.builder();
    for (int i = 0; i < fileCount; i++) {
      Map<String, ColumnStatistics> file = readColumns(in);
      int rowGroupCount = in.getCount(in.remaining(), "row group");
      ImmutableList.Builder<Map<String, ColumnStatistics>> rowGroups = ImmutableList.builder();
      for (int g = 0; g < rowGroupCount; g++) {
        rowGroups.add(readColumns(in));
      }
      files.add(new FileStatistics(file, rowGroups.build()));
    }
    in.expectEnd();
    return new SegmentStatistics(files.build());
  }

  private static Map<String, ColumnStatistics> readColumns(PartReader in)
      throws CorruptSegmentException {
    int count = in.getCount(in.remaining(), "column");
    ImmutableSortedMap.Builder<String, ColumnStatistics> columns =
        ImmutableSortedMap.naturalOrder();
    for (int c = 0; c < count; c++) {
      columns.put(in.getString(), ColumnStatistics.readFrom(in));
    }
    try {
      return columns.buildOrThrow();
    } catch (IllegalArgumentException e) {
      throw in.corrupt("a column's statistics appear twice: " + e.getMessage(), e);
    }
  }
}
