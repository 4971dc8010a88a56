package io.shelfmark.segment.metadata;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * A MAP column whose keys were extracted into virtual columns.
 *
 * @param name the map column
 * @param minShare for automatic selection, the share of rows a key had to appear in; empty when the
 *     keys were listed in the table config
 * @param extractedKeys the keys that became virtual columns, sorted
 */
public record MapColumnInfo(String name, OptionalDouble minShare, List<String> extractedKeys) {
  public MapColumnInfo {
    requireNonNull(name, "name is null");
    requireNonNull(minShare, "minShare is null");
    extractedKeys = ImmutableList.copyOf(requireNonNull(extractedKeys, "extractedKeys is null"));
  }
}
