package io.shelfmark.server.filter;

import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.schema.ColumnSchema;
import io.shelfmark.server.column.FileFields;
import io.shelfmark.server.column.ParquetVectors;
import io.shelfmark.sql.expression.Between;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.Comparison;
import io.shelfmark.sql.expression.ComparisonOperator;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.InList;
import io.shelfmark.sql.expression.IsNull;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.Statistics;
import org.apache.parquet.format.Type;

/**
 * Skips row groups of a file read without a segment, from the footer's column statistics, for
 * filter terms {@code column op literal} (=, <, <=, >, >=, BETWEEN, IN, IS [NOT] NULL) on integer,
 * date and microsecond-timestamp columns. Conservative: a row group is skipped only when a term
 * provably matches none of its rows; missing or unusable statistics mean read. Floating-point
 * columns are never pruned (writers leave NaN out of min/max, yet NaN satisfies {@code x > 5} in
 * SQL's order), nor strings (min/max may be truncated). Stateless.
 */
public final class RowGroupPruner {
  private RowGroupPruner() {}

  /** Whether row group {@code rowGroup} may hold a row passing every term of {@code conjuncts}. */
  public static boolean mightMatch(
      ParquetFooter footer, FileFields fields, int rowGroup, List<Expression> conjuncts) {
    for (Expression term : conjuncts) {
      if (!termMightMatch(footer, fields, rowGroup, term)) {
        return false;
      }
    }
    return true;
  }

  private static boolean termMightMatch(
      ParquetFooter footer, FileFields fields, int rowGroup, Expression term) {
    return switch (term) {
      case Comparison comparison
          when comparison.left() instanceof ColumnRef column
              && comparison.right() instanceof Literal literal
              && !literal.isNull() ->
          stats(footer, fields, rowGroup, column)
              .map(s -> compare(s, comparison.operator(), literal))
              .orElse(true);
      case Between between
          when !between.negated()
              && between.value() instanceof ColumnRef column
              && between.low() instanceof Literal low
              && between.high() instanceof Literal high
              && !low.isNull()
              && !high.isNull() ->
          stats(footer, fields, rowGroup, column)
              .map(
                  s ->
                      compare(s, ComparisonOperator.GREATER_THAN_OR_EQUAL, low)
                          && compare(s, ComparisonOperator.LESS_THAN_OR_EQUAL, high))
              .orElse(true);
      case InList in when !in.negated() && in.value() instanceof ColumnRef column ->
          stats(footer, fields, rowGroup, column)
              .map(s -> anyItemInside(s, in.items()))
              .orElse(true);
      case IsNull isNull when isNull.value() instanceof ColumnRef column ->
          nullsMightMatch(footer, fields, rowGroup, column, isNull.negated());
      default -> true;
    };
  }

  /** A row group's min, max and null count of a long-valued column. */
  private record LongStats(long min, long max) {}

  private static Optional<LongStats> stats(
      ParquetFooter footer, FileFields fields, int rowGroup, ColumnRef column) {
    Optional<ColumnSchema> leaf = leaf(fields, column);
    if (leaf.isEmpty() || !prunable(column.type(), leaf.get())) {
      return Optional.empty();
    }
    ColumnMetaData chunk = footer.columnChunk(rowGroup, leaf.get().index());
    if (!chunk.isSetStatistics()) {
      return Optional.empty();
    }
    Statistics statistics = chunk.getStatistics();
    // Only the min_value/max_value fields: the deprecated min/max may follow another order.
    if (!statistics.isSetMin_value() || !statistics.isSetMax_value()) {
      return Optional.empty();
    }
    long min = decode(statistics.getMin_value(), leaf.get().physicalType());
    long max = decode(statistics.getMax_value(), leaf.get().physicalType());
    return Optional.of(new LongStats(min, max));
  }

  private static Optional<ColumnSchema> leaf(FileFields fields, ColumnRef column) {
    Optional<String> name = fields.fieldName(column.name());
    if (name.isEmpty()) {
      return Optional.empty();
    }
    Optional<ColumnSchema> leaf = fields.schema().findColumn(name.get());
    return leaf.filter(l -> !l.isRepeated());
  }

  private static boolean prunable(SqlType type, ColumnSchema leaf) {
    if (!(type instanceof PrimitiveType primitive)) {
      return false;
    }
    return switch (primitive) {
      case INT, LONG, DATE ->
          leaf.physicalType() == Type.INT32 || leaf.physicalType() == Type.INT64;
      case TIMESTAMP, TIMESTAMP_TZ ->
          leaf.physicalType() == Type.INT64
              && ParquetVectors.unit(leaf) == ParquetVectors.TimeUnitKind.MICROS;
      default -> false;
    };
  }

  private static long decode(byte[] bytes, Type physical) {
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    return physical == Type.INT32 ? buffer.getInt() : buffer.getLong();
  }

  // Proof per rule: every non-null value v of the row group satisfies min <= v <= max, and a null
  // never satisfies a comparison; so the term cannot hold when no v in [min, max] satisfies it.
  private static boolean compare(LongStats stats, ComparisonOperator operator, Literal literal) {
    long value = ((Number) literal.value()).longValue();
    return switch (operator) {
      case EQUAL -> value >= stats.min && value <= stats.max;
      case NOT_EQUAL -> stats.min != value || stats.max != value;
      case LESS_THAN -> stats.min < value;
      case LESS_THAN_OR_EQUAL -> stats.min <= value;
      case GREATER_THAN -> stats.max > value;
      case GREATER_THAN_OR_EQUAL -> stats.max >= value;
    };
  }

  private static boolean anyItemInside(LongStats stats, List<Literal> items) {
    for (Literal item : items) {
      if (!item.isNull()) {
        long value = ((Number) item.value()).longValue();
        if (value >= stats.min && value <= stats.max) {
          return true;
        }
      }
    }
    return false;
  }

  // IS NULL cannot hold when the null count is 0; IS NOT NULL cannot when every value is null.
  private static boolean nullsMightMatch(
      ParquetFooter footer, FileFields fields, int rowGroup, ColumnRef column, boolean negated) {
    Optional<ColumnSchema> leaf = leaf(fields, column);
    if (leaf.isEmpty()) {
      return true;
    }
    ColumnMetaData chunk = footer.columnChunk(rowGroup, leaf.get().index());
    if (!chunk.isSetStatistics() || !chunk.getStatistics().isSetNull_count()) {
      return true;
    }
    long nulls = chunk.getStatistics().getNull_count();
    return negated ? nulls < footer.rowGroupRowCount(rowGroup) : nulls > 0;
  }
}
