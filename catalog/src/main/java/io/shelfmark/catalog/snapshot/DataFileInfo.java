package io.shelfmark.catalog.snapshot;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;

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
 * @param deleteFiles paths of the delete files (see {@link TableSnapshot#deleteFiles()}) that apply
 *     to this file in this snapshot, in the order Iceberg planned them
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
    List<String> deleteFiles) {
  public DataFileInfo {
    requireNonNull(path, "path is null");
    requireNonNull(format, "format is null");
    requireNonNull(content, "content is null");
    requireNonNull(partition, "partition is null");
    deleteFiles = List.copyOf(requireNonNull(deleteFiles, "deleteFiles is null"));
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

  static DataFileInfo of(DataFile file, PartitionSpec spec, List<String> deleteFiles) {
    return new DataFileInfo(
        file.location(),
        file.format(),
        file.content(),
        file.fileSizeInBytes(),
        file.recordCount(),
        FilePartition.of(spec, file.partition()),
        SequenceNumbers.required(file.dataSequenceNumber(), "data", file.location()),
        SequenceNumbers.required(file.fileSequenceNumber(), "file", file.location()),
        deleteFiles);
  }
}
