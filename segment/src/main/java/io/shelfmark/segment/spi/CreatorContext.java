package io.shelfmark.segment.spi;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * What an index creator is told about its column when created.
 *
 * @param column the column
 * @param profile doc count, nulls, min, max and sortedness of the column's values
 * @param dictionary the column's sealed dictionary, present when the column has one (batches then
 *     carry dictionary ids)
 */
public record CreatorContext(
    ColumnDescriptor column, ColumnProfile profile, Optional<Dictionary> dictionary) {
  public CreatorContext {
    requireNonNull(column, "column is null");
    requireNonNull(profile, "profile is null");
    requireNonNull(dictionary, "dictionary is null");
  }
}
