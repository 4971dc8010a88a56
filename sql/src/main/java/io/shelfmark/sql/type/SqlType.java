package io.shelfmark.sql.type;

/**
 * The type of a column, literal or expression. Values of each type, wherever the plan holds them
 * (literals) or hands them to an executor, use one Java representation:
 *
 * <pre>
 * BOOLEAN         Boolean
 * INT             Integer
 * LONG            Long        (SQL BIGINT; also epoch-millis time columns)
 * FLOAT           Float
 * DOUBLE          Double
 * DECIMAL(p,s)    BigDecimal  with scale s
 * DATE            Integer     days since 1970-01-01
 * TIMESTAMP       Long        microseconds since 1970-01-01T00:00, no zone (Iceberg timestamp)
 * TIMESTAMP_TZ    Long        microseconds since 1970-01-01T00:00Z (Iceberg timestamptz)
 * STRING          String
 * BINARY          (no literals; columns only)
 * MAP(STRING, T)  (no literals; read through map keys col['k'], which are of type T)
 * LIST(T)         (no literals; counted only)
 * </pre>
 *
 * These match Iceberg's internal representation, so the server can compare a literal with an
 * Iceberg statistic or a Parquet value without conversion.
 */
public sealed interface SqlType
    permits PrimitiveType, DecimalType, MapType, ListType, UnsupportedType {
  /**
   * The name used in messages and output schemas, such as {@code LONG} or {@code DECIMAL(10,2)}.
   */
  String displayName();

  /** INT, LONG, FLOAT, DOUBLE or DECIMAL. */
  default boolean isNumeric() {
    return false;
  }

  /** INT or LONG. */
  default boolean isIntegral() {
    return false;
  }

  /**
   * A scalar type that literals, comparisons and grouping apply to (not MAP, LIST, unsupported).
   */
  default boolean isPrimitive() {
    return false;
  }

  /** A type with an order: numerics, STRING, BOOLEAN, DATE and the timestamps (MIN, MAX, <, >). */
  default boolean isOrderable() {
    return false;
  }
}
