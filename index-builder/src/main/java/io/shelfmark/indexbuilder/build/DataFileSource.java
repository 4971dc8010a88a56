package io.shelfmark.indexbuilder.build;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.FilePartition;
import io.shelfmark.segment.metadata.DataFileIdentity;
import io.shelfmark.segment.metadata.PartitionValue;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One data file to build a segment for, with what the catalog says about it (or, for a file known
 * only by path and size, what its footer will say).
 *
 * @param path the file's location as the table metadata spells it ({@code s3://…}, {@code file:…}
 *     or an absolute path)
 * @param fileSize its length in bytes (no HEAD is issued)
 * @param fileFormat Iceberg's file format; only {@code PARQUET} is indexed
 * @param recordCount the catalog's record count, checked against the footer; empty when unknown
 * @param formatVersion the Iceberg table format version (1, 2, 3), 0 when unknown
 * @param specId the partition spec id
 * @param partition the partition tuple in spec order
 * @param dataSequenceNumber the data sequence number, when known
 * @param fileSequenceNumber the file sequence number, when known
 */
public record DataFileSource(
    String path,
    long fileSize,
    String fileFormat,
    OptionalLong recordCount,
    int formatVersion,
    int specId,
    List<PartitionValue> partition,
    OptionalLong dataSequenceNumber,
    OptionalLong fileSequenceNumber) {
  public DataFileSource {
    requireNonNull(path, "path is null");
    requireNonNull(fileFormat, "fileFormat is null");
    requireNonNull(recordCount, "recordCount is null");
    partition = ImmutableList.copyOf(requireNonNull(partition, "partition is null"));
    requireNonNull(dataSequenceNumber, "dataSequenceNumber is null");
    requireNonNull(fileSequenceNumber, "fileSequenceNumber is null");
    if (fileSize < 0) {
      throw new IllegalArgumentException(
          "Cannot index data file %s of negative size %d".formatted(path, fileSize));
    }
  }

  /** A live data file of a snapshot of a table of format version {@code formatVersion}. */
  public static DataFileSource of(DataFileInfo file, int formatVersion) {
    requireNonNull(file, "file is null");
    return new DataFileSource(
        file.path(),
        file.fileSizeInBytes(),
        file.format().name(),
        OptionalLong.of(file.recordCount()),
        formatVersion,
        file.partition().specId(),
        partitionValues(file.partition()),
        OptionalLong.of(file.dataSequenceNumber()),
        OptionalLong.of(file.fileSequenceNumber()));
  }

  /** A Parquet file known only by path and size: its identity comes from its footer. */
  public static DataFileSource of(String path, long fileSize) {
    return new DataFileSource(
        path,
        fileSize,
        "PARQUET",
        OptionalLong.empty(),
        0,
        0,
        List.of(),
        OptionalLong.empty(),
        OptionalLong.empty());
  }

  /** The segment's record of this file, with the footer's row count. */
  DataFileIdentity identity(long rowCount) {
    return new DataFileIdentity(
        path,
        fileSize,
        "DATA",
        fileFormat,
        formatVersion,
        specId,
        partition,
        rowCount,
        dataSequenceNumber,
        fileSequenceNumber);
  }

  /**
   * Field names and human-readable values from Iceberg's partition path ({@code
   * org_id=7/logical_timestamp_day=1754179200000}, URL-encoded), null values from the tuple.
   */
  static List<PartitionValue> partitionValues(FilePartition partition) {
    List<PartitionValue> values = new ArrayList<>();
    if (partition.path().isEmpty()) {
      return values;
    }
    String[] fields = partition.path().split("/");
    for (int i = 0; i < fields.length; i++) {
      int equals = fields[i].indexOf('=');
      String name = decode(equals < 0 ? fields[i] : fields[i].substring(0, equals));
      String value = equals < 0 ? "" : decode(fields[i].substring(equals + 1));
      boolean isNull = i < partition.values().size() && partition.values().get(i) == null;
      values.add(new PartitionValue(name, isNull ? Optional.empty() : Optional.of(value)));
    }
    return values;
  }

  private static String decode(String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return "DataFileSource[%s, %d bytes]".formatted(path, fileSize);
  }
}
