package io.shelfmark.catalog.snapshot;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;

/**
 * One delete file live in a table snapshot: position deletes, a deletion vector (a position delete
 * stored as a blob inside a Puffin file, see {@link #isDeletionVector()}) or equality deletes.
 *
 * @param path the file's location
 * @param format PARQUET, AVRO, ORC or PUFFIN (deletion vectors)
 * @param content {@link FileContent#POSITION_DELETES} or {@link FileContent#EQUALITY_DELETES}
 * @param fileSizeInBytes the file's length
 * @param recordCount deleted positions or equality rows it holds
 * @param partition the partition the file belongs to
 * @param dataSequenceNumber deletes apply to data files with a smaller (position: smaller or equal)
 *     data sequence number
 * @param fileSequenceNumber the sequence number of the snapshot that added the file
 * @param equalityFieldIds the field ids compared by equality deletes; empty otherwise
 * @param referencedDataFile the one data file a position delete or deletion vector applies to, when
 *     the writer recorded it
 * @param contentOffset for a deletion vector, the offset of its blob in the Puffin file
 * @param contentSizeInBytes for a deletion vector, the length of its blob
 */
public record DeleteFileInfo(
    String path,
    FileFormat format,
    FileContent content,
    long fileSizeInBytes,
    long recordCount,
    FilePartition partition,
    long dataSequenceNumber,
    long fileSequenceNumber,
    List<Integer> equalityFieldIds,
    Optional<String> referencedDataFile,
    OptionalLong contentOffset,
    OptionalLong contentSizeInBytes) {
  public DeleteFileInfo {
    requireNonNull(path, "path is null");
    requireNonNull(format, "format is null");
    requireNonNull(content, "content is null");
    requireNonNull(partition, "partition is null");
    equalityFieldIds = List.copyOf(requireNonNull(equalityFieldIds, "equalityFieldIds is null"));
    requireNonNull(referencedDataFile, "referencedDataFile is null");
    requireNonNull(contentOffset, "contentOffset is null");
    requireNonNull(contentSizeInBytes, "contentSizeInBytes is null");
    if (content == FileContent.DATA) {
      throw new IllegalArgumentException(
          "Cannot describe %s as a delete file: its content is DATA".formatted(path));
    }
  }

  /**
   * What identifies this delete file in a snapshot ({@link TableSnapshot#deleteFiles()}, {@link
   * DataFileInfo#deleteFiles()}): its path, or for a deletion vector {@code path#offset}, since one
   * Puffin file holds the vectors of many data files.
   */
  public String key() {
    return isDeletionVector() && contentOffset.isPresent()
        ? path + "#" + contentOffset.getAsLong()
        : path;
  }

  /** Whether this is a deletion vector: a blob at {@link #contentOffset()} in a Puffin file. */
  public boolean isDeletionVector() {
    return format == FileFormat.PUFFIN;
  }

  static DeleteFileInfo of(DeleteFile file, PartitionSpec spec) {
    List<Integer> equalityIds = file.equalityFieldIds();
    return new DeleteFileInfo(
        file.location(),
        file.format(),
        file.content(),
        file.fileSizeInBytes(),
        file.recordCount(),
        FilePartition.of(spec, file.partition()),
        SequenceNumbers.required(file.dataSequenceNumber(), "data", file.location()),
        SequenceNumbers.required(file.fileSequenceNumber(), "file", file.location()),
        equalityIds == null ? List.of() : equalityIds,
        Optional.ofNullable(file.referencedDataFile()),
        optional(file.contentOffset()),
        optional(file.contentSizeInBytes()));
  }

  private static OptionalLong optional(Long value) {
    return value == null ? OptionalLong.empty() : OptionalLong.of(value);
  }
}
