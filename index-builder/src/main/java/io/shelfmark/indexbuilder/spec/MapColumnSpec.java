package io.shelfmark.indexbuilder.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedSet;
import io.shelfmark.segment.index.mapkey.MapKeySelection;
import java.util.Set;

/**
 * A MAP&lt;STRING, STRING&gt; column whose keys become virtual columns {@code name['key']}.
 *
 * @param name the column's current name in the table schema
 * @param fieldId the Iceberg field id of the map
 * @param selection which keys to extract (listed, or automatic by share of rows)
 * @param keyIndexIds the index type ids each extracted key gets, in id order
 */
public record MapColumnSpec(
    String name, int fieldId, MapKeySelection selection, Set<String> keyIndexIds) {
  public MapColumnSpec {
    requireNonNull(name, "name is null");
    requireNonNull(selection, "selection is null");
    keyIndexIds = ImmutableSortedSet.copyOf(requireNonNull(keyIndexIds, "keyIndexIds is null"));
    if (keyIndexIds.isEmpty()) {
      throw new IllegalArgumentException("Cannot extract keys of map " + name + " without indexes");
    }
  }

  @Override
  public String toString() {
    return "%s (id %d): keys %s with %s".formatted(name, fieldId, selection, keyIndexIds);
  }
}
