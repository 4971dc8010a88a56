package io.shelfmark.broker.prune;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import io.shelfmark.segment.metadata.ColumnStatistics;
import io.shelfmark.segment.spi.ColumnDescriptor;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.MapKeyRef;
import java.util.Map;
import java.util.Optional;

/**
 * The statistics of one unit of rows (a data file, a segment, a row group) that pruning consults:
 * the unit's row count and, per column, the one {@link ColumnStatistics} shape (row count, null
 * count, min, max as segment {@link io.shelfmark.segment.spi.Value}s in the column's value domain:
 * integers, dates, timestamps (micros) and booleans as LONG, floating point as DOUBLE, strings as
 * STRING). Missing statistics mean "might contain anything".
 *
 * <p>Contract for floating-point columns: {@code max} must count NaN as the greatest value (as
 * {@code Value} orders it) whenever the unit holds a NaN; a source that cannot tell (Parquet
 * footers, Iceberg bounds without NaN counts) must leave {@code max} absent.
 *
 * <p>Implementations are immutable and thread safe; lookups are cheap (no I/O).
 */
public interface PruningStatistics {
  /** The rows the unit holds (before deletes). */
  long rowCount();

  /**
   * The statistics of a column ({@link ColumnRef}) or map key ({@link MapKeyRef}) of the table's
   * current schema, when known.
   */
  Optional<ColumnStatistics> column(Expression reference);

  /** Statistics that know only the row count: nothing can be pruned but an empty unit. */
  static PruningStatistics none(long rowCount) {
    return of(rowCount, Map.of());
  }

  /**
   * Statistics by segment column name ({@code metric}, {@code dimensions['node']}, as {@link
   * ColumnDescriptor#mapKeyName} spells map keys): what a segment's {@code SegmentStatistics} holds
   * for one data file or row group. The names must be those of the table's current schema (a
   * segment built before a rename must not be consulted under the new name).
   */
  static PruningStatistics of(long rowCount, Map<String, ColumnStatistics> columns) {
    requireNonNull(columns, "columns is null");
    // A segment's statistics are already immutable: copying them per file and query was a tenth
    // of a selective query's broker time.
    Map<String, ColumnStatistics> copy =
        columns instanceof ImmutableMap<String, ColumnStatistics> immutable
            ? immutable
            : Map.copyOf(columns);
    return new PruningStatistics() {
      @Override
      public long rowCount() {
        return rowCount;
      }

      @Override
      public Optional<ColumnStatistics> column(Expression reference) {
        return switch (reference) {
          case ColumnRef column -> Optional.ofNullable(copy.get(column.name()));
          case MapKeyRef key ->
              Optional.ofNullable(copy.get(ColumnDescriptor.mapKeyName(key.column(), key.key())));
          default -> Optional.empty();
        };
      }

      @Override
      public String toString() {
        return "PruningStatistics[%d rows, %s]".formatted(rowCount, copy);
      }
    };
  }
}
