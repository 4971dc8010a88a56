package io.shelfmark.segment.metadata;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * One field of a data file's partition tuple, as Iceberg reports it: the partition field's name
 * (for example {@code logical_timestamp_day}) and its value in Iceberg's human-readable string form
 * (for example {@code 2025-08-03}), empty for a null partition value.
 */
public record PartitionValue(String name, Optional<String> value) {
  public PartitionValue {
    requireNonNull(name, "name is null");
    requireNonNull(value, "value is null");
  }

  @Override
  public String toString() {
    return name + "=" + value.orElse("null");
  }
}
