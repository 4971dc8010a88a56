package io.shelfmark.indexbuilder.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedSet;
import io.shelfmark.segment.spi.ValueType;
import java.util.Set;

/**
 * One indexed table column of a segment.
 *
 * @param name the column's current name in the table schema (what segments and queries call it,
 *     even when the data file wrote it under an older name)
 * @param fieldId the Iceberg field id, by which the column is found in data files that carry ids
 * @param type the segment value type its values take
 * @param icebergType the Iceberg type, for messages ({@code long}, {@code string}, …)
 * @param indexIds the segment index type ids to build, such as {@code inverted}, in id order
 */
public record ColumnSpec(
    String name, int fieldId, ValueType type, String icebergType, Set<String> indexIds) {
  public ColumnSpec {
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
    requireNonNull(icebergType, "icebergType is null");
    indexIds = ImmutableSortedSet.copyOf(requireNonNull(indexIds, "indexIds is null"));
    if (indexIds.isEmpty()) {
      throw new IllegalArgumentException("Cannot index column " + name + " without an index");
    }
  }

  @Override
  public String toString() {
    return "%s (id %d, %s as %s): %s".formatted(name, fieldId, icebergType, type, indexIds);
  }
}
