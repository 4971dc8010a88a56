package io.shelfmark.testing.iceberg;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Seeded rows for any flat schema of primitive columns: the first column (a required LONG, the row
 * identity) counts up from 1 across the whole scenario; every other column gets a value drawn from
 * a small domain of its type (so filters and partitions find repeats), and an optional column is
 * NULL in about one row in six.
 *
 * <p>Domains: strings {@code c0}..{@code c5}; ints -50..49; longs ±10^12; doubles in [-100, 100) to
 * two decimals; dates and timestamps over five days from 2025-08-01 (timestamps to the
 * microsecond); decimals with the column's scale; booleans both ways. Not thread safe.
 */
final class ScenarioRows {
  static final LocalDate FIRST_DAY = LocalDate.of(2025, 8, 1);
  private static final int DAYS = 5;
  private static final long MICROS_PER_DAY = 86_400_000_000L;

  private final Random random;
  private long nextId = 1;

  ScenarioRows(long seed) {
    this.random = new Random(seed);
  }

  /** {@code count} new rows of {@code schema}, with fresh ids. */
  List<Record> next(Schema schema, int count) {
    List<Long> ids = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      ids.add(nextId++);
    }
    return replace(schema, ids);
  }

  /** Rows of {@code schema} with the given ids and every other column drawn anew. */
  List<Record> replace(Schema schema, List<Long> ids) {
    requireNonNull(schema, "schema is null");
    List<Types.NestedField> columns = schema.columns();
    Types.NestedField id = columns.getFirst();
    if (id.type().typeId() != Type.TypeID.LONG || id.isOptional()) {
      throw new IllegalArgumentException(
          "Cannot generate rows of %s: the first column must be a required LONG row id"
              .formatted(schema.asStruct()));
    }
    List<Record> rows = new ArrayList<>(ids.size());
    for (long rowId : ids) {
      GenericRecord row = GenericRecord.create(schema);
      row.set(0, rowId);
      for (int c = 1; c < columns.size(); c++) {
        Types.NestedField column = columns.get(c);
        row.set(c, column.isOptional() && random.nextInt(6) == 0 ? null : value(column));
      }
      rows.add(row);
    }
    return rows;
  }

  private Object value(Types.NestedField column) {
    Type type = column.type();
    return switch (type.typeId()) {
      case BOOLEAN -> random.nextBoolean();
      case INTEGER -> random.nextInt(100) - 50;
      case LONG -> (random.nextLong() % 1_000_000_000_000L);
      case FLOAT -> (float) (random.nextInt(20_000) - 10_000) / 100f;
      case DOUBLE -> (random.nextInt(20_000) - 10_000) / 100.0;
      case STRING -> "c" + random.nextInt(6);
      case DATE -> FIRST_DAY.plusDays(random.nextInt(DAYS));
      case TIMESTAMP -> timestamp((Types.TimestampType) type);
      case DECIMAL -> decimal((Types.DecimalType) type);
      default ->
          throw new IllegalArgumentException(
              "Cannot generate values of column %s: type %s is not supported by the scenario"
                  + " (use boolean, int, long, float, double, string, date, timestamp, decimal)"
                      .formatted(column.name(), type));
    };
  }

  private Object timestamp(Types.TimestampType type) {
    long micros = Math.floorMod(random.nextLong(), DAYS * MICROS_PER_DAY);
    LocalDateTime local = FIRST_DAY.atStartOfDay().plusNanos(micros * 1_000);
    return type.shouldAdjustToUTC() ? OffsetDateTime.of(local, ZoneOffset.UTC) : local;
  }

  private Object decimal(Types.DecimalType type) {
    int digits = Math.min(type.precision(), 9);
    long bound = 1;
    for (int i = 0; i < digits; i++) {
      bound *= 10;
    }
    // Unscaled values within ±(10^digits - 1) have at most `digits` digits: they fit the precision.
    return BigDecimal.valueOf(
        Math.floorMod(random.nextLong(), 2 * bound - 1) - (bound - 1), type.scale());
  }
}
