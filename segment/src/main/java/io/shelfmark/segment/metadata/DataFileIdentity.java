package io.shelfmark.segment.metadata;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.format.PartWriter;
import java.util.List;
import java.util.OptionalLong;

/**
 * Which data file a segment indexes, and what Iceberg says about it: a segment is valid for exactly
 * this file (same path and size; Iceberg data files never change in place).
 *
 * @param path the data file's location as the Iceberg manifest names it
 * @param fileSize its size in bytes
 * @param content Iceberg's content type ({@code DATA})
 * @param fileFormat Iceberg's file format ({@code PARQUET})
 * @param formatVersion the Iceberg table format version the file was committed under (1, 2, 3)
 * @param specId the partition spec id
 * @param partition the partition tuple, in spec field order
 * @param recordCount the number of rows (Iceberg's record count)
 * @param dataSequenceNumber the data sequence number, when known (format version 2 and later)
 * @param fileSequenceNumber the file sequence number, when known
 */
public record DataFileIdentity(
    String path,
    long fileSize,
    String content,
    String fileFormat,
    int formatVersion,
    int specId,
    List<PartitionValue> partition,
    long recordCount,
    OptionalLong dataSequenceNumber,
    OptionalLong fileSequenceNumber) {
  public DataFileIdentity {
    requireNonNull(path, "path is null");
    requireNonNull(content, "content is null");
    requireNonNull(fileFormat, "fileFormat is null");
    partition = ImmutableList.copyOf(requireNonNull(partition, "partition is null"));
    requireNonNull(dataSequenceNumber, "dataSequenceNumber is null");
    requireNonNull(fileSequenceNumber, "fileSequenceNumber is null");
    if (fileSize < 0 || recordCount < 0 || recordCount > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "Cannot index data file %s of %d bytes and %d records (at most %d records per file)"
              .formatted(path, fileSize, recordCount, Integer.MAX_VALUE));
    }
  }

  void writeTo(PartWriter out) {
    out.putString(path).putVarLong(fileSize).putString(content).putString(fileFormat);
    out.putVarInt(formatVersion).putZigZag(specId);
    out.putVarInt(partition.size());
    for (PartitionValue value : partition) {
      out.putString(value.name());
      ValueCodec.writeOptionalString(out, value.value());
    }
    out.putVarLong(recordCount);
    ValueCodec.writeOptionalLong(out, dataSequenceNumber);
    ValueCodec.writeOptionalLong(out, fileSequenceNumber);
  }

  static DataFileIdentity readFrom(PartReader in) throws CorruptSegmentException {
    String path = in.getString();
    long fileSize = in.getVarLong();
    String content = in.getString();
    String fileFormat = in.getString();
    int formatVersion = in.getVarInt();
    int specId = (int) in.getZigZag();
    int fields = in.getCount(10_000, "partition field");
    ImmutableList.Builder<PartitionValue> partition = ImmutableList.builder();
    for (int i = 0; i < fields; i++) {
      partition.add(new PartitionValue(in.getString(), ValueCodec.readOptionalString(in)));
    }
    long recordCount = in.getVarLong();
    OptionalLong dataSequence = ValueCodec.readOptionalLong(in);
    OptionalLong fileSequence = ValueCodec.readOptionalLong(in);
    try {
      return new DataFileIdentity(
          path,
          fileSize,
          content,
          fileFormat,
          formatVersion,
          specId,
          partition.build(),
          recordCount,
          dataSequence,
          fileSequence);
    } catch (IllegalArgumentException e) {
      throw in.corrupt(e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "DataFile[%s, %d bytes, %d records, spec %d %s]"
        .formatted(path, fileSize, recordCount, specId, partition);
  }
}
