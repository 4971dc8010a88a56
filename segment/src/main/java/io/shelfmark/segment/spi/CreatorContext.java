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
 * @param dictionaryValueHashes the {@link io.shelfmark.segment.encoding.ValueHash} of each
 *     dictionary id's value, when the builder computed them already (creators that hash values use
 *     them rather than hash again); never to be modified
 */
public record CreatorContext(
    ColumnDescriptor column,
    ColumnProfile profile,
    Optional<Dictionary> dictionary,
    Optional<long[]> dictionaryValueHashes) {
  public CreatorContext {
    requireNonNull(column, "column is null");
    requireNonNull(profile, "profile is null");
    requireNonNull(dictionary, "dictionary is null");
    requireNonNull(dictionaryValueHashes, "dictionaryValueHashes is null");
    if (dictionaryValueHashes.isPresent()
        && (dictionary.isEmpty()
            || dictionaryValueHashes.get().length != dictionary.get().size())) {
      throw new IllegalArgumentException(
          "Cannot give %d value hashes for a dictionary of %s values"
              .formatted(
                  dictionaryValueHashes.get().length,
                  dictionary.map(d -> String.valueOf(d.size())).orElse("no")));
    }
  }

  /** A context without precomputed value hashes. */
  public CreatorContext(
      ColumnDescriptor column, ColumnProfile profile, Optional<Dictionary> dictionary) {
    this(column, profile, dictionary, Optional.empty());
  }
}
