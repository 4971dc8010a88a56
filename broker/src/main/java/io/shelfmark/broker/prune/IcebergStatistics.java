package io.shelfmark.broker.prune;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.snapshot.ColumnBounds;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.segment.metadata.ColumnStatistics;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.Expression;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * {@link PruningStatistics} of a data file from its Iceberg manifest entry ({@link
 * DataFileInfo#columnBounds()}): for files without a segment. Columns are found by name in the
 * table's current schema, then by field id in the manifest, so renamed columns keep their bounds.
 *
 * <p>Floating-point bounds exclude NaN: the upper bound is used only when the manifest counts no
 * NaN, and becomes NaN (the greatest value) when it counts some. Map keys have no manifest bounds.
 */
final class IcebergStatistics implements PruningStatistics {
  private final DataFileInfo file;
  private final Schema schema;

  IcebergStatistics(DataFileInfo file, Schema schema) {
    this.file = requireNonNull(file, "file is null");
    this.schema = requireNonNull(schema, "schema is null");
  }

  @Override
  public long rowCount() {
    return file.recordCount();
  }

  @Override
  public Optional<ColumnStatistics> column(Expression reference) {
    if (!(reference instanceof ColumnRef column)) {
      return Optional.empty();
    }
    Types.NestedField field = schema.findField(column.name());
    if (field == null || !field.type().isPrimitiveType()) {
      return Optional.empty();
    }
    Optional<ColumnBounds> bounds = file.bounds(field.fieldId());
    if (bounds.isEmpty()) {
      return Optional.empty();
    }
    Optional<Value> min = bounds.get().lower().flatMap(PruningValues::of);
    Optional<Value> max = bounds.get().upper().flatMap(PruningValues::of);
    if (isFloatingPoint(field.type())) {
      OptionalLong nans = bounds.get().nanCount();
      if (nans.isEmpty()) {
        max = Optional.empty();
      } else if (nans.getAsLong() > 0) {
        max = Optional.of(Value.of(Double.NaN));
      }
    }
    try {
      return Optional.of(
          new ColumnStatistics(file.recordCount(), bounds.get().nullCount(), min, max));
    } catch (IllegalArgumentException e) {
      // Bounds that contradict themselves (more nulls than rows, min above max) say nothing.
      return Optional.empty();
    }
  }

  private static boolean isFloatingPoint(Type type) {
    return type.typeId() == Type.TypeID.FLOAT || type.typeId() == Type.TypeID.DOUBLE;
  }

  @Override
  public String toString() {
    return "IcebergStatistics[" + file.path() + "]";
  }
}
