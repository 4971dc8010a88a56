package io.shelfmark.segment.build;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.index.forward.ForwardIndexType;
import io.shelfmark.segment.index.inverted.InvertedIndexType;
import io.shelfmark.segment.spi.IndexType;
import io.shelfmark.segment.spi.ValueType;
import java.util.List;
import java.util.Optional;

/**
 * Index choices made when a column is sealed, once its dictionary size is known: they trade query
 * speed for size, never correctness (see {@link SegmentBuilder#forwardIndexMaxCardinality} and
 * {@link SegmentBuilder#extractedKeyBloomBelowDocsPerValue}).
 *
 * @param forwardMaxCardinality a forward index is left out above this many distinct values
 * @param bloomBelowDocsPerValue an inverted index becomes a bloom index when the non-null docs per
 *     distinct value average below this; 0 never
 * @param bloomType the bloom index type, when installed
 */
record SealPolicy(
    int forwardMaxCardinality, double bloomBelowDocsPerValue, Optional<IndexType> bloomType) {
  static final SealPolicy NONE = new SealPolicy(Integer.MAX_VALUE, 0, Optional.empty());

  SealPolicy {
    requireNonNull(bloomType, "bloomType is null");
  }

  /**
   * Adjusts {@code types} (modified in place) for a column of {@code cardinality} distinct values
   * over {@code nonNullDocs} docs; returns whether an inverted index was replaced by a bloom index.
   */
  boolean adjust(List<IndexType> types, int cardinality, int nonNullDocs) {
    if (cardinality > forwardMaxCardinality) {
      // GROUP BY on this column then reads Parquet: rare on high-cardinality columns.
      types.removeIf(type -> type.id().equals(ForwardIndexType.ID));
    }
    boolean nearlyUnique = cardinality > 0 && nonNullDocs < bloomBelowDocsPerValue * cardinality;
    if (!nearlyUnique
        || bloomType.isEmpty()
        || types.stream().noneMatch(type -> type.id().equals(InvertedIndexType.ID))) {
      return false;
    }
    // An inverted index of nearly unique values holds a dictionary entry and a posting list per
    // doc; a bloom filter answers equality (with candidates) at about 10 bits per value.
    types.removeIf(type -> type.id().equals(InvertedIndexType.ID));
    if (types.stream().noneMatch(type -> type.id().equals(bloomType.get().id()))) {
      types.add(bloomType.get());
    }
    return true;
  }

  /** Whether any of {@code types} needs the column's dictionary. */
  static boolean needsDictionary(List<IndexType> types, ValueType valueType) {
    for (IndexType type : types) {
      if (type.needsDictionary(valueType)) {
        return true;
      }
    }
    return false;
  }
}
