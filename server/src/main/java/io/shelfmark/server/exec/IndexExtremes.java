package io.shelfmark.server.exec;

import io.shelfmark.exchange.result.AggregateState;
import io.shelfmark.segment.index.inverted.InvertedIndexReader;
import io.shelfmark.segment.index.inverted.InvertedIndexType;
import io.shelfmark.segment.index.range.RangeIndexReader;
import io.shelfmark.segment.index.range.RangeIndexType;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.IndexReader;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.server.aggregate.KeyValues;
import io.shelfmark.server.column.ColumnSources;
import io.shelfmark.server.column.InvertedIds;
import io.shelfmark.server.filter.PredicateTranslator.SegmentColumn;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.plan.AggregateCall;
import io.shelfmark.sql.plan.AggregateFunction;
import io.shelfmark.sql.plan.QueryPlan;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.roaringbitmap.RoaringBitmap;

/**
 * An aggregation without GROUP BY whose every aggregate is {@code MIN(x)}, {@code MAX(x)}, {@code
 * COUNT(*)} or {@code COUNT(x)}, answered from a segment's indexes for the exact matching docs
 * without visiting them one by one: a range index finds the least or greatest value among the docs
 * by a binary search over its domain ({@link RangeIndexReader#min}: about the value spread's bit
 * width in passes over the slices), an inverted index by the first (or last) dictionary id whose
 * posting list meets the docs; counts are the docs' cardinality less the column's nulls. Before,
 * MIN/MAX of a range-indexed column read its pages from Parquet, and of an inverted- or
 * forward-indexed column read every matching doc's id.
 *
 * <p>The states are those the row path gives (MIN/MAX boxed in the column's SQL type, a MIN over no
 * non-null value is null), so they merge with other files'. Stateless.
 */
final class IndexExtremes {
  private IndexExtremes() {}

  /**
   * The aggregates' states for {@code docs}, in the plan's order, or empty when some aggregate is
   * not of these kinds or its column has no index that answers it.
   *
   * @param docs the exact matching docs (deleted docs already removed)
   */
  static Optional<List<AggregateState>> states(
      QueryPlan plan, ColumnSources sources, Segment segment, RoaringBitmap docs)
      throws IOException {
    if (!plan.aggregated() || !plan.groupKeys().isEmpty() || !hasExtreme(plan)) {
      return Optional.empty();
    }
    List<AggregateState> states = new ArrayList<>(plan.aggregates().size());
    long count = docs.getLongCardinality();
    for (AggregateCall call : plan.aggregates()) {
      if (call.function() == AggregateFunction.COUNT_STAR) {
        states.add(new AggregateState.Count(count));
        continue;
      }
      if (call.argument().isEmpty()) {
        return Optional.empty();
      }
      Optional<SegmentColumn> column = sources.segmentColumn(call.argument().get());
      if (column.isEmpty()) {
        return Optional.empty();
      }
      Optional<AggregateState> state =
          switch (call.function()) {
            case COUNT ->
                Optional.of(
                    new AggregateState.Count(
                        count
                            - RoaringBitmap.andCardinality(
                                segment.nulls(column.get().name()), docs)));
            case MIN, MAX -> extreme(call, column.get(), segment, docs);
            default -> Optional.empty();
          };
      if (state.isEmpty()) {
        return Optional.empty();
      }
      states.add(state.get());
    }
    return Optional.of(states);
  }

  private static boolean hasExtreme(QueryPlan plan) {
    for (AggregateCall call : plan.aggregates()) {
      if (call.function() == AggregateFunction.MIN || call.function() == AggregateFunction.MAX) {
        return true;
      }
    }
    return false;
  }

  private static Optional<AggregateState> extreme(
      AggregateCall call, SegmentColumn column, Segment segment, RoaringBitmap docs)
      throws IOException {
    boolean max = call.function() == AggregateFunction.MAX;
    Optional<Optional<Value>> value = fromRange(segment, column.name(), docs, max);
    if (value.isEmpty()) {
      value = fromInverted(segment, column.name(), docs, max);
    }
    if (value.isEmpty()) {
      return Optional.empty();
    }
    Expression argument = call.argument().orElseThrow();
    Object boxed = value.get().map(v -> KeyValues.box(argument.type(), raw(v))).orElse(null);
    return Optional.of(new AggregateState.Extreme(boxed, max));
  }

  /** The extreme from the column's range index: empty when it has none. */
  private static Optional<Optional<Value>> fromRange(
      Segment segment, String column, RoaringBitmap docs, boolean max) throws IOException {
    if (!segment.indexIds(column).contains(RangeIndexType.ID)) {
      return Optional.empty();
    }
    Optional<IndexReader> index = segment.index(column, RangeIndexType.ID);
    if (index.isEmpty() || !(index.get() instanceof RangeIndexReader reader)) {
      return Optional.empty();
    }
    return Optional.of(max ? reader.max(docs) : reader.min(docs));
  }

  /**
   * The extreme from the column's inverted index: the first id from the bottom (MIN) or the top
   * (MAX) whose posting list meets the docs. At most one intersection per dictionary entry, so only
   * for dictionaries of at most {@link InvertedIds#MAX_CARDINALITY} values.
   */
  private static Optional<Optional<Value>> fromInverted(
      Segment segment, String column, RoaringBitmap docs, boolean max) throws IOException {
    if (!segment.indexIds(column).contains(InvertedIndexType.ID)) {
      return Optional.empty();
    }
    Optional<IndexReader> index = segment.index(column, InvertedIndexType.ID);
    Optional<Dictionary> dictionary = segment.dictionary(column);
    if (index.isEmpty()
        || !(index.get() instanceof InvertedIndexReader reader)
        || dictionary.isEmpty()
        || dictionary.get().size() > InvertedIds.MAX_CARDINALITY) {
      return Optional.empty();
    }
    int size = dictionary.get().size();
    for (int i = 0; i < size; i++) {
      int id = max ? size - 1 - i : i;
      if (reader.postings(id).andCardinality(docs) > 0) {
        return Optional.of(Optional.of(dictionary.get().value(id)));
      }
    }
    return Optional.of(Optional.empty());
  }

  /** The row path's raw value of a segment value: Long, Double or String. */
  private static Object raw(Value value) {
    return switch (value) {
      case Value.LongValue(long v) -> v;
      case Value.DoubleValue(double v) -> v;
      case Value.StringValue(String v) -> v;
    };
  }
}
