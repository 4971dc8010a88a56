package io.shelfmark.segment.spi;

import java.util.Optional;

/**
 * The value domains a segment indexes. Parquet and Iceberg types map onto them: every integer,
 * date, time and timestamp type to {@link #LONG} (timestamps as the file stores them, e.g. epoch
 * micros or millis), FLOAT and DOUBLE to {@link #DOUBLE}, STRING, BINARY, UUID and FIXED to {@link
 * #STRING} (compared as unsigned bytes, which for UTF-8 is code point order). Booleans are LONG 0
 * and 1. Decimals are not indexed yet.
 *
 * <p>{@link #code()} is persisted: never change or reuse one.
 */
public enum ValueType {
  LONG(1),
  DOUBLE(2),
  STRING(3);

  private final int code;

  ValueType(int code) {
    this.code = code;
  }

  /** The persisted code. */
  public int code() {
    return code;
  }

  public static Optional<ValueType> fromCode(int code) {
    for (ValueType type : values()) {
      if (type.code == code) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }
}
