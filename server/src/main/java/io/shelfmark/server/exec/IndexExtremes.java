package io.shelfmark.server.exec;

import io.shelfmark.exchange.result.AggregateState;
import io.shelfmark.exchange.result.Group;
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
import io.shelfmark.sql.type.SqlType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.roaringbitmap.RoaringBitmap;

/**
 * An aggregation whose every aggregate is {@code MIN(x)}, {@code MAX(x)}, {@code COUNT(*)} or
 * {@code COUNT(x)}, without GROUP BY or grouped by one inverted-indexed column, answered from a
 * segment's indexes for the exact matching docs without visiting them one by one:
 *
 * <ul>
 *   <li>a range index finds the least or greatest value among the docs by a binary search over its
 *       domain ({@link RangeIndexReader#min}: about the value spread's bit width in passes over the
 *       slices);
 *   <li>an inverted index by the first (or last) dictionary id whose posting list meets the docs;
 *   <li>counts are the docs' cardinality less the column's nulls;
 *   <li>a group key's groups are its posting lists intersected with the docs (and the docs whose
 *       key is null), each answered as above — only when the key has no more values than the docs,
 *       so the work per group never exceeds what visiting the docs would cost.
 * </ul>
 *
 * Before, MIN/MAX of a range-indexed column read its pages from Parquet, and of an inverted- or
 * forward-indexed column read every matching doc's id. The states are those the row path gives
 * (MIN/MAX and keys boxed in the column's SQL type, a MIN over no non-null value is null), so they
 * merge with other files'. Stateless.
 */
final class IndexExtremes {
  private IndexExtremes() {}

  /** One aggregate's answer for a set of docs. */
  @FunctionalInterface
  private interface Answer {
    AggregateState state(RoaringBitmap docs);
  }

  /**
   * The file's groups for {@code docs}, or empty when some aggregate or key is not of these kinds
   * or its column has no index that answers it.
   *
   * @param docs the exact matching docs (deleted docs already removed)
   */
  static Optional<List<Group>> groups(
      QueryPlan plan, ColumnSources sources, Segment segment, RoaringBitmap docs)
      throws IOException {
    if (!plan.aggregated() || plan.groupKeys().size() > 1 || !hasExtreme(plan)) {
      return Optional.empty();
    }
    List<Answer> answers = new ArrayList<>(plan.aggregates().size());
    for (AggregateCall call : plan.aggregates()) {
      Optional<Answer> answer = answer(call, sources, segment);
      if (answer.isEmpty()) {
        return Optional.empty();
      }
      answers.add(answer.get());
    }
    if (plan.groupKeys().isEmpty()) {
      return Optional.of(List.of(new Group(List.of(), states(answers, docs))));
    }
    return grouped(plan.groupKeys().get(0), answers, sources, segment, docs);
  }

  private static Optional<List<Group>> grouped(
      Expression key,
      List<Answer> answers,
      ColumnSources sources,
      Segment segment,
      RoaringBitmap docs)
      throws IOException {
    Optional<SegmentColumn> column = sources.segmentColumn(key);
    if (column.isEmpty()) {
      return Optional.empty();
    }
    Optional<Inverted> inverted = inverted(segment, column.get().name());
    if (inverted.isEmpty() || inverted.get().dictionary().size() > docs.getLongCardinality()) {
      return Optional.empty();
    }
    Dictionary dictionary = inverted.get().dictionary();
    List<Group> groups = new ArrayList<>();
    for (int id = 0; id < dictionary.size(); id++) {
      RoaringBitmap members = inverted.get().reader().postings(id).and(docs);
      if (!members.isEmpty()) {
        Object value = KeyValues.box(key.type(), raw(dictionary.value(id)));
        groups.add(new Group(Collections.singletonList(value), states(answers, members)));
      }
    }
    RoaringBitmap nullKeys = RoaringBitmap.and(segment.nulls(column.get().name()), docs);
    if (!nullKeys.isEmpty()) {
      groups.add(new Group(Collections.singletonList(null), states(answers, nullKeys)));
    }
    return Optional.of(groups);
  }

  private static List<AggregateState> states(List<Answer> answers, RoaringBitmap docs) {
    List<AggregateState> states = new ArrayList<>(answers.size());
    for (Answer answer : answers) {
      states.add(answer.state(docs));
    }
    return states;
  }

  private static boolean hasExtreme(QueryPlan plan) {
    for (AggregateCall call : plan.aggregates()) {
      if (call.function() == AggregateFunction.MIN || call.function() == AggregateFunction.MAX) {
        return true;
      }
    }
    return false;
  }

  private static Optional<Answer> answer(AggregateCall call, ColumnSources sources, Segment segment)
      throws IOException {
    if (call.function() == AggregateFunction.COUNT_STAR) {
      return Optional.of(docs -> new AggregateState.Count(docs.getLongCardinality()));
    }
    if (call.argument().isEmpty()) {
      return Optional.empty();
    }
    Optional<SegmentColumn> column = sources.segmentColumn(call.argument().get());
    if (column.isEmpty()) {
      return Optional.empty();
    }
    String name = column.get().name();
    SqlType type = call.argument().get().type();
    return switch (call.function()) {
      case COUNT -> {
        RoaringBitmap nulls = segment.nulls(name);
        yield Optional.of(
            docs ->
                new AggregateState.Count(
                    docs.getLongCardinality() - RoaringBitmap.andCardinality(nulls, docs)));
      }
      case MIN, MAX -> extreme(call.function() == AggregateFunction.MAX, type, segment, name);
      default -> Optional.empty();
    };
  }

  private static Optional<Answer> extreme(boolean max, SqlType type, Segment segment, String column)
      throws IOException {
    Optional<RangeIndexReader> range = range(segment, column);
    if (range.isPresent()) {
      return Optional.of(
          docs -> extremeState(max, type, max ? range.get().max(docs) : range.get().min(docs)));
    }
    Optional<Inverted> inverted = inverted(segment, column);
    if (inverted.isPresent()) {
      return Optional.of(docs -> extremeState(max, type, inverted.get().extreme(docs, max)));
    }
    return Optional.empty();
  }

  private static AggregateState extremeState(boolean max, SqlType type, Optional<Value> value) {
    return new AggregateState.Extreme(
        value.map(v -> KeyValues.box(type, raw(v))).orElse(null), max);
  }

  private static Optional<RangeIndexReader> range(Segment segment, String column)
      throws IOException {
    if (!segment.indexIds(column).contains(RangeIndexType.ID)) {
      return Optional.empty();
    }
    Optional<IndexReader> index = segment.index(column, RangeIndexType.ID);
    return index.isPresent() && index.get() instanceof RangeIndexReader reader
        ? Optional.of(reader)
        : Optional.empty();
  }

  /**
   * A column's inverted index with its dictionary, of at most {@link InvertedIds#MAX_CARDINALITY}
   * values (at most one intersection per value).
   */
  record Inverted(InvertedIndexReader reader, Dictionary dictionary) {
    /** The first id from the bottom (MIN) or the top (MAX) whose posting list meets the docs. */
    Optional<Value> extreme(RoaringBitmap docs, boolean max) {
      int size = dictionary.size();
      for (int i = 0; i < size; i++) {
        int id = max ? size - 1 - i : i;
        if (reader.postings(id).andCardinality(docs) > 0) {
          return Optional.of(dictionary.value(id));
        }
      }
      return Optional.empty();
    }
  }

  static Optional<Inverted> inverted(Segment segment, String column) throws IOException {
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
    return Optional.of(new Inverted(reader, dictionary.get()));
  }

  /** The row path's raw value of a segment value: Long, Double or String. */
  static Object raw(Value value) {
    return switch (value) {
      case Value.LongValue(long v) -> v;
      case Value.DoubleValue(double v) -> v;
      case Value.StringValue(String v) -> v;
    };
  }
}
