package io.shelfmark.server.exec;

import static java.util.Objects.requireNonNull;

import io.shelfmark.exchange.result.AggregateState;
import io.shelfmark.exchange.result.Group;
import io.shelfmark.exchange.vector.Values;
import io.shelfmark.parquet.metadata.ColumnChunkPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.PageStatistics;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.schema.ColumnSchema;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.server.aggregate.KeyValues;
import io.shelfmark.server.column.ColumnSources;
import io.shelfmark.server.column.ParquetVectors;
import io.shelfmark.server.filter.PredicateTranslator.SegmentColumn;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.plan.AggregateCall;
import io.shelfmark.sql.plan.AggregateFunction;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.Type;
import org.roaringbitmap.RoaringBitmap;

/**
 * MIN/MAX of Parquet columns from the page statistics (ColumnIndex) of pages whose rows all match:
 * such a page's recorded min and max are its values' extremes, so it need not be read. Only the
 * pages the matching docs cover in part are read and decoded, by the normal path, for the docs they
 * hold; the two partial answers merge (MIN/MAX are idempotent, and COUNT(*) is split so that each
 * doc is counted once: the docs outside the pages to read here, the others by the row path).
 *
 * <p>Applies when the filter is exact, there is no GROUP BY or one key with an inverted index (as
 * {@link IndexExtremes}), and every aggregate is {@code COUNT(*)} or MIN/MAX of a flat column read
 * from Parquet whose bounds are exact values. Rules, each conservative (a page is answered from its
 * statistics only when they are provably its values' extremes):
 *
 * <ul>
 *   <li>A page is <em>covered</em> when every row of its range {@code [firstRowIndex, next page's)}
 *       is a matching doc. Matching docs exclude deleted ones, so a page holding a deleted row is
 *       never covered: its bounds may come from that row.
 *   <li>Integers (INT32, INT64: INT, LONG, DATE) and INT64 timestamps (millis, micros, nanos,
 *       converted to micros as the row path does, a monotone map): writers record the exact least
 *       and greatest value. Unsigned annotations are refused (their bounds use unsigned order, the
 *       row path signed values).
 *   <li>FLOAT/DOUBLE: the bounds exclude NaN, which SQL orders greatest. So only MIN uses them (a
 *       page holding NaN still has its non-NaN least value as its MIN, when it has one), never MAX
 *       (any aggregate MAX of a float column leaves the shortcut off); a page whose bound is NaN or
 *       a zero (the format lets writers write -0.0 for a +0.0 min) is read.
 *   <li>Strings and binary are never used: writers may truncate their bounds and the index does not
 *       say whether they did. Decimals, booleans and INT96 are not used either.
 *   <li>A page flagged all-null adds no value to MIN/MAX; its rows still count in COUNT(*).
 *   <li>A chunk whose writer wrote no ColumnIndex has every page read.
 * </ul>
 *
 * Stateless.
 */
final class PageExtremes {
  /** At most this many (group, page) visits per file: beyond, the row path is cheaper anyway. */
  private static final long MAX_VISITS = 1L << 20;

  private PageExtremes() {}

  /** Where columns' page statistics come from: loaded once per file and column, then kept. */
  @FunctionalInterface
  interface StatisticsSource {
    /**
     * Per leaf column, per row group: the statistics of its chunk, empty when it has none; all
     * columns at once (their indexes lie side by side: one GET).
     */
    Map<Integer, List<Optional<PageStatistics>>> load(List<Integer> columns) throws IOException;
  }

  /**
   * What the page statistics answered for one file.
   *
   * @param groups per group (as the row path keys them): MIN/MAX over the covered pages and
   *     COUNT(*) of the docs outside {@code remaining}
   * @param remaining the matching docs whose pages must still be read (for every aggregate)
   * @param pagesFromStatistics pages answered from their statistics without being read
   */
  record Outcome(List<Group> groups, RoaringBitmap remaining, long pagesFromStatistics) {
    Outcome {
      groups = List.copyOf(requireNonNull(groups, "groups is null"));
      requireNonNull(remaining, "remaining is null");
    }
  }

  /**
   * The page-statistics answer for {@code docs}, or empty when the query is not of this shape or no
   * page is covered (the row path then reads what it always read).
   *
   * @param docs the exact matching docs, deleted docs removed
   */
  static Optional<Outcome> answer(
      QueryPlan plan,
      ColumnSources sources,
      Segment segment,
      ParquetFooter footer,
      FilePageLocations pages,
      RoaringBitmap docs,
      StatisticsSource statistics)
      throws IOException {
    if (!plan.aggregated() || plan.groupKeys().size() > 1 || docs.isEmpty()) {
      return Optional.empty();
    }
    // Leaf column index → the aggregates (by position) of MIN/MAX over it.
    Map<Integer, Bounds> columns = new LinkedHashMap<>();
    for (int i = 0; i < plan.aggregates().size(); i++) {
      AggregateCall call = plan.aggregates().get(i);
      if (call.function() == AggregateFunction.COUNT_STAR) {
        continue;
      }
      boolean max = call.function() == AggregateFunction.MAX;
      if (!max && call.function() != AggregateFunction.MIN || call.argument().isEmpty()) {
        return Optional.empty();
      }
      Optional<Bounds> bounds = bounds(call.argument().get(), sources, max);
      if (bounds.isEmpty()) {
        return Optional.empty();
      }
      Bounds known = columns.putIfAbsent(bounds.get().leaf().index(), bounds.get());
      Bounds column = known == null ? bounds.get() : known;
      if (column.kind() != bounds.get().kind()) {
        return Optional.empty();
      }
      (max ? column.maxes() : column.mins()).add(i);
    }
    if (columns.isEmpty() || !anyPageCovered(footer, pages, columns.keySet(), docs)) {
      return Optional.empty();
    }
    Optional<List<Members>> groups = groups(plan, sources, segment, docs);
    if (groups.isEmpty()
        || (long) groups.get().size() * pageCount(footer, pages, columns.keySet()) > MAX_VISITS) {
      return Optional.empty();
    }
    Map<Integer, List<Optional<PageStatistics>>> loaded =
        statistics.load(new ArrayList<>(columns.keySet()));
    RoaringBitmap remaining = new RoaringBitmap();
    long pagesAnswered = 0;
    List<Group> result = new ArrayList<>(groups.get().size());
    for (Members group : groups.get()) {
      Object[] extremes = new Object[plan.aggregates().size()];
      RoaringBitmap toRead = new RoaringBitmap();
      for (Map.Entry<Integer, Bounds> column : columns.entrySet()) {
        pagesAnswered +=
            fold(
                footer,
                pages,
                column.getValue(),
                loaded.get(column.getKey()),
                group.docs(),
                extremes,
                toRead);
      }
      remaining.or(toRead);
      List<AggregateState> states = new ArrayList<>(plan.aggregates().size());
      for (int i = 0; i < plan.aggregates().size(); i++) {
        AggregateCall call = plan.aggregates().get(i);
        states.add(
            call.function() == AggregateFunction.COUNT_STAR
                ? new AggregateState.Count(
                    group.docs().getLongCardinality()
                        - RoaringBitmap.andCardinality(group.docs(), toRead))
                : new AggregateState.Extreme(
                    extremes[i], call.function() == AggregateFunction.MAX));
      }
      result.add(new Group(group.key(), states));
    }
    if (pagesAnswered == 0) {
      return Optional.empty();
    }
    return Optional.of(new Outcome(result, remaining, pagesAnswered));
  }

  /**
   * Folds the bounds of {@code bounds}' column's pages covered by {@code docs} into {@code
   * extremes}; adds the docs of the other pages to {@code toRead}. Returns the pages answered.
   */
  private static long fold(
      ParquetFooter footer,
      FilePageLocations pages,
      Bounds bounds,
      List<Optional<PageStatistics>> statistics,
      RoaringBitmap docs,
      Object[] extremes,
      RoaringBitmap toRead) {
    long answered = 0;
    int column = bounds.leaf().index();
    for (int rowGroup = 0; rowGroup < footer.rowGroupCount(); rowGroup++) {
      long firstRow = footer.rowGroupFirstRow(rowGroup);
      long rowCount = footer.rowGroupRowCount(rowGroup);
      if (rowCount == 0 || !docs.intersects(firstRow, firstRow + rowCount)) {
        continue;
      }
      Optional<ColumnChunkPages> chunk = pages.find(rowGroup, column);
      if (chunk.isEmpty()) {
        addRange(docs, firstRow, firstRow + rowCount, toRead);
        continue;
      }
      Optional<PageStatistics> stats = statistics.get(rowGroup);
      ColumnChunkPages chunkPages = chunk.get();
      for (int page = 0; page < chunkPages.pageCount(); page++) {
        long start = firstRow + chunkPages.page(page).firstRowIndex();
        long end = start + chunkPages.pageRowCount(page);
        if (end <= start || !docs.intersects(start, end)) {
          continue;
        }
        if (docs.contains(start, end)
            && stats.isPresent()
            && stats.get().pageCount() == chunkPages.pageCount()
            && bounds.fold(stats.get(), page, extremes)) {
          answered++;
        } else {
          addRange(docs, start, end, toRead);
        }
      }
    }
    return answered;
  }

  private static void addRange(RoaringBitmap docs, long start, long end, RoaringBitmap into) {
    RoaringBitmap range = new RoaringBitmap();
    range.add(start, end);
    range.and(docs);
    into.or(range);
  }

  /** Whether some page of the columns lies wholly inside the docs: else nothing to gain. */
  private static boolean anyPageCovered(
      ParquetFooter footer,
      FilePageLocations pages,
      Iterable<Integer> columns,
      RoaringBitmap docs) {
    for (int column : columns) {
      for (int rowGroup = 0; rowGroup < footer.rowGroupCount(); rowGroup++) {
        long firstRow = footer.rowGroupFirstRow(rowGroup);
        Optional<ColumnChunkPages> chunk = pages.find(rowGroup, column);
        if (chunk.isEmpty()
            || !docs.intersects(firstRow, firstRow + footer.rowGroupRowCount(rowGroup))) {
          continue;
        }
        for (int page = 0; page < chunk.get().pageCount(); page++) {
          long start = firstRow + chunk.get().page(page).firstRowIndex();
          long end = start + chunk.get().pageRowCount(page);
          if (end > start && docs.contains(start, end)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static long pageCount(
      ParquetFooter footer, FilePageLocations pages, Iterable<Integer> columns) {
    long count = 0;
    for (int column : columns) {
      for (int rowGroup = 0; rowGroup < footer.rowGroupCount(); rowGroup++) {
        count += pages.find(rowGroup, column).map(ColumnChunkPages::pageCount).orElse(0);
      }
    }
    return count;
  }

  /** One group's key (as the row path boxes it) and its matching docs. */
  private record Members(List<Object> key, RoaringBitmap docs) {}

  /** The groups: all docs without GROUP BY, else the key's posting lists met with the docs. */
  private static Optional<List<Members>> groups(
      QueryPlan plan, ColumnSources sources, Segment segment, RoaringBitmap docs)
      throws IOException {
    if (plan.groupKeys().isEmpty()) {
      return Optional.of(List.of(new Members(List.of(), docs)));
    }
    Expression key = plan.groupKeys().get(0);
    Optional<SegmentColumn> column = sources.segmentColumn(key);
    if (column.isEmpty()) {
      return Optional.empty();
    }
    Optional<IndexExtremes.Inverted> inverted =
        IndexExtremes.inverted(segment, column.get().name());
    if (inverted.isEmpty() || inverted.get().dictionary().size() > docs.getLongCardinality()) {
      return Optional.empty();
    }
    Dictionary dictionary = inverted.get().dictionary();
    List<Members> groups = new ArrayList<>();
    for (int id = 0; id < dictionary.size(); id++) {
      RoaringBitmap members = inverted.get().reader().postings(id).and(docs);
      if (!members.isEmpty()) {
        Object value = KeyValues.box(key.type(), IndexExtremes.raw(dictionary.value(id)));
        groups.add(new Members(Collections.singletonList(value), members));
      }
    }
    RoaringBitmap nullKeys = RoaringBitmap.and(segment.nulls(column.get().name()), docs);
    if (!nullKeys.isEmpty()) {
      groups.add(new Members(Collections.singletonList(null), nullKeys));
    }
    return Optional.of(groups);
  }

  /** How the page bounds of a column are read as SQL values. */
  private enum Kind {
    INT32,
    INT64,
    MILLIS,
    MICROS,
    NANOS,
    FLOAT,
    DOUBLE
  }

  /**
   * A flat Parquet column whose page bounds this class uses, and the MIN and MAX aggregates (by
   * position in the plan) over it.
   */
  private record Bounds(
      ColumnSchema leaf, SqlType type, Kind kind, List<Integer> mins, List<Integer> maxes) {
    /**
     * Folds page {@code page}'s bounds into the aggregates' extremes; false when they are not exact
     * values (the page must be read).
     */
    boolean fold(PageStatistics statistics, int page, Object[] extremes) {
      if (statistics.nullPage(page)) {
        return true;
      }
      Object min = value(statistics.min(page));
      Object max = value(statistics.max(page));
      if (min == null || max == null) {
        return false;
      }
      if (kind == Kind.FLOAT || kind == Kind.DOUBLE) {
        double low = (Double) min;
        double high = (Double) max;
        if (Double.isNaN(low) || Double.isNaN(high) || low == 0.0 || low > high) {
          return false;
        }
      } else if ((Long) min > (Long) max) {
        return false;
      }
      fold(mins, KeyValues.box(type, min), false, extremes);
      fold(maxes, KeyValues.box(type, max), true, extremes);
      return true;
    }

    private static void fold(
        List<Integer> aggregates, Object candidate, boolean max, Object[] extremes) {
      for (int aggregate : aggregates) {
        Object current = extremes[aggregate];
        int compare = current == null ? 0 : Values.compare(candidate, current);
        if (current == null || (max ? compare > 0 : compare < 0)) {
          extremes[aggregate] = candidate;
        }
      }
    }

    /** The raw row-path value of a plain-encoded bound: Long or Double; null if unusable. */
    private Object value(ByteBuffer bytes) {
      ByteBuffer in = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
      int width = kind == Kind.INT32 || kind == Kind.FLOAT ? 4 : 8;
      if (in.remaining() != width) {
        return null;
      }
      return switch (kind) {
        case INT32 -> (long) in.getInt();
        case INT64, MICROS -> in.getLong();
        case MILLIS -> {
          long millis = in.getLong();
          // The row path multiplies without a check; a bound this far out is left to it.
          yield Math.abs(millis) > Long.MAX_VALUE / 1000 ? null : millis * 1000;
        }
        case NANOS -> Math.floorDiv(in.getLong(), 1000L);
        case FLOAT -> (double) in.getFloat();
        case DOUBLE -> in.getDouble();
      };
    }
  }

  /**
   * The bounds of MIN/MAX's argument, when it is a flat column read from Parquet whose page bounds
   * are exact values of its SQL type (see the class's rules), else empty.
   */
  private static Optional<Bounds> bounds(Expression argument, ColumnSources sources, boolean max) {
    if (!(argument instanceof ColumnRef)
        || !(sources.source(argument) instanceof ColumnSources.Parquet parquet)
        || parquet.leaves().size() != 1) {
      return Optional.empty();
    }
    ColumnSchema leaf = parquet.leaves().get(0);
    if (leaf.maxRepetitionLevel() != 0 || unsigned(leaf)) {
      return Optional.empty();
    }
    SqlType type = argument.type();
    Type physical = leaf.physicalType();
    Kind kind = null;
    if (type instanceof PrimitiveType primitive) {
      kind =
          switch (primitive) {
            case INT, DATE -> physical == Type.INT32 ? Kind.INT32 : null;
            case LONG ->
                physical == Type.INT32 ? Kind.INT32 : physical == Type.INT64 ? Kind.INT64 : null;
            case TIMESTAMP, TIMESTAMP_TZ ->
                physical != Type.INT64
                    ? null
                    : switch (ParquetVectors.unit(leaf)) {
                      case MILLIS -> Kind.MILLIS;
                      case MICROS -> Kind.MICROS;
                      case NANOS -> Kind.NANOS;
                    };
            // NaN is greatest in SQL and absent from the bounds: never MAX of a float.
            case FLOAT -> !max && physical == Type.FLOAT ? Kind.FLOAT : null;
            case DOUBLE ->
                max
                    ? null
                    : physical == Type.FLOAT
                        ? Kind.FLOAT
                        : physical == Type.DOUBLE ? Kind.DOUBLE : null;
            case BOOLEAN, STRING, BINARY -> null;
          };
    }
    return kind == null
        ? Optional.empty()
        : Optional.of(new Bounds(leaf, type, kind, new ArrayList<>(), new ArrayList<>()));
  }

  /** Integers whose bounds are in unsigned order, which the row path reads as signed. */
  private static boolean unsigned(ColumnSchema leaf) {
    Optional<LogicalType> logical = leaf.logicalType();
    if (logical.isPresent() && logical.get().isSetINTEGER()) {
      return !logical.get().getINTEGER().isIsSigned();
    }
    return leaf.convertedType()
        .map(
            converted ->
                converted == ConvertedType.UINT_8
                    || converted == ConvertedType.UINT_16
                    || converted == ConvertedType.UINT_32
                    || converted == ConvertedType.UINT_64)
        .orElse(false);
  }
}
