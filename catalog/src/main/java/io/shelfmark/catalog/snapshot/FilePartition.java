package io.shelfmark.catalog.snapshot;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;

/**
 * The partition a data or delete file belongs to.
 *
 * @param specId the partition spec the values follow
 * @param path the partition as Iceberg writes it in directory names, such as {@code
 *     org_id=7/logical_timestamp_day=2025-08-02}; empty for an unpartitioned table
 * @param values one value per spec field, in spec order, in Iceberg's representation of the field's
 *     result type (for example an {@code Integer} day count for {@code day(ts)}, a {@code String}
 *     for strings, a read-only {@code ByteBuffer} for binary); {@code null} for a null partition
 *     value. Unmodifiable.
 */
public record FilePartition(int specId, String path, List<Object> values) {
  public FilePartition {
    requireNonNull(path, "path is null");
    requireNonNull(values, "values is null");
    // List.copyOf refuses nulls, and null is a legitimate partition value.
    values = Collections.unmodifiableList(new ArrayList<>(values));
  }

  /** Copies the partition of a file written with {@code spec}. */
  static FilePartition of(PartitionSpec spec, StructLike partition) {
    requireNonNull(spec, "spec is null");
    requireNonNull(partition, "partition is null");
    int size = spec.fields().size();
    List<Object> values = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      values.add(detach(partition.get(i, Object.class)));
    }
    String path = spec.isUnpartitioned() ? "" : spec.partitionToPath(partition);
    return new FilePartition(spec.specId(), path, values);
  }

  // Iceberg may hand back reused or mutable buffers (Avro Utf8, ByteBuffer): keep detached copies.
  private static Object detach(Object value) {
    if (value instanceof CharSequence text) {
      return text.toString();
    }
    if (value instanceof ByteBuffer bytes) {
      ByteBuffer copy = ByteBuffer.allocate(bytes.remaining());
      copy.put(bytes.duplicate()).flip();
      return copy.asReadOnlyBuffer();
    }
    return value;
  }
}
