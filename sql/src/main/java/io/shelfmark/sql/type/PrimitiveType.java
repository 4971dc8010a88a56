package io.shelfmark.sql.type;

/** The scalar types other than DECIMAL, which carries a precision and scale. */
public enum PrimitiveType implements SqlType {
  BOOLEAN,
  INT,
  LONG,
  FLOAT,
  DOUBLE,
  DATE,
  /** Microseconds since the epoch, no time zone. */
  TIMESTAMP,
  /** Microseconds since the epoch, UTC (an instant). */
  TIMESTAMP_TZ,
  STRING,
  BINARY;

  @Override
  public String displayName() {
    return name();
  }

  @Override
  public boolean isNumeric() {
    return this == INT || this == LONG || this == FLOAT || this == DOUBLE;
  }

  @Override
  public boolean isIntegral() {
    return this == INT || this == LONG;
  }

  @Override
  public boolean isPrimitive() {
    return true;
  }

  @Override
  public boolean isOrderable() {
    return this != BINARY;
  }

  /** True for FLOAT and DOUBLE. */
  public boolean isFloatingPoint() {
    return this == FLOAT || this == DOUBLE;
  }

  /** True for DATE, TIMESTAMP and TIMESTAMP_TZ. */
  public boolean isTemporal() {
    return this == DATE || this == TIMESTAMP || this == TIMESTAMP_TZ;
  }
}
