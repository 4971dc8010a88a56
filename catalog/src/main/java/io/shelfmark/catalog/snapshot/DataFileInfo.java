package io.shelfmark.catalog.snapshot;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;

/**
 * One live data file of a table snapshot: what the controller needs to schedule its segment and to
 * find the deletes that apply to it. Data files are immutable, so the path identifies the file.
 *
 * @param path the file's location as the table metadata spells it
 * @param format PARQUET for the files Shelfmark indexes; other formats are reported, not hidden
 * @param content always {@link FileContent#DATA}
 * @param fileSizeInBytes the file's length, so readers need no HEAD
 * @param recordCount rows in the file, before deletes
 * @param partition the partition the file belongs to
 * @param dataSequenceNumber the sequence number deletes are compared with
 * @param fileSequenceNumber the sequence number of the snapshot that added the file
 * @param deleteFiles the delete files that apply to this file in this snapshot, in the order
 *     Iceberg planned them, by {@link DeleteFileInfo#key()} (their path; for a deletion vector, the
 *     Puffin file's path and the vector's offset), the keys of {@link TableSnapshot#deleteFiles()}
 * @param columnBounds what the manifest records about each column (counts, lower and upper bounds),
 *     by Iceberg field id, decoded with the table's current schema; empty when the listing did not
 *     keep column statistics (see {@link ColumnBounds})
 */
public record DataFileInfo(
    String path,
    FileFormat format,
    FileContent content,
    long fileSizeInBytes,
    long recordCount,
    FilePartition partition,
    long dataSequenceNumber,
    long fileSequenceNumber,
    List<String> deleteFiles,
    Map<Integer, ColumnBounds> columnBounds) {
  public DataFileInfo {
    requireNonNull(path, "path is null");
    requireNonNull(format, "format is null");
    requireNonNull(content, "content is null");
    requireNonNull(partition, "partition is null");
    deleteFiles = List.copyOf(requireNonNull(deleteFiles, "deleteFiles is null"));
    columnBounds =
        Collections.unmodifiableMap(
            new LinkedHashMap<>(requireNonNull(columnBounds, "columnBounds is null")));
    if (content != FileContent.DATA) {
      throw new IllegalArgumentException(
          "Cannot describe %s as a data file: its content is %s".formatted(path, content));
    }
    if (fileSizeInBytes < 0 || recordCount < 0) {
      throw new IllegalArgumentException(
          "Cannot describe data file %s: negative size %s or record count %s"
              .formatted(path, fileSizeInBytes, recordCount));
    }
  }

  /** A data file without column statistics (as before they were recorded). */
  public DataFileInfo(
      String path,
      FileFormat format,
      FileContent content,
      long fileSizeInBytes,
      long recordCount,
      FilePartition partition,
      long dataSequenceNumber,
      long fileSequenceNumber,
      List<String> deleteFiles) {
    this(
        path,
        format,
        content,
        fileSizeInBytes,
        recordCount,
        partition,
        dataSequenceNumber,
        fileSequenceNumber,
        deleteFiles,
        Map.of());
  }

  /** The manifest's statistics of the column with this Iceberg field id, when recorded. */
  public Optional<ColumnBounds> bounds(int fieldId) {
    return Optional.ofNullable(columnBounds.get(fieldId));
  }

  /**
   * @param schema the table's current schema, to decode column bounds with
   */
  static DataFileInfo of(
      DataFile file, PartitionSpec spec, Schema schema, List<String> deleteFiles) {
    return new DataFileInfo(
        file.location(),
        file.format(),
        file.content(),
        file.fileSizeInBytes(),
        file.recordCount(),
        FilePartition.of(spec, file.partition()),
        SequenceNumbers.required(file.dataSequenceNumber(), "data", file.location()),
        SequenceNumbers.required(file.fileSequenceNumber(), "file", file.location()),
        deleteFiles,
        ColumnBounds.of(file, schema));
  }
}
