package io.shelfmark.sql.type;

import static com.google.common.base.Preconditions.checkArgument;

/** DECIMAL(precision, scale): exact numbers of at most 38 digits, {@code scale} after the point. */
public record DecimalType(int precision, int scale) implements SqlType {
  public static final int MAX_PRECISION = 38;

  public DecimalType {
    checkArgument(
        precision >= 1 && precision <= MAX_PRECISION,
        "precision must be in [1, %s]: %s",
        MAX_PRECISION,
        precision);
    checkArgument(
        scale >= 0 && scale <= precision, "scale must be in [0, %s]: %s", precision, scale);
  }

  /** The exact type an integral type widens to: INT is DECIMAL(10,0), LONG is DECIMAL(19,0). */
  public static DecimalType of(PrimitiveType integral) {
    return switch (integral) {
      case INT -> new DecimalType(10, 0);
      case LONG -> new DecimalType(19, 0);
      default -> throw new IllegalArgumentException("Not an integral type: " + integral);
    };
  }

  /** Digits before the point. */
  public int integerDigits() {
    return precision - scale;
  }

  @Override
  public String displayName() {
    return "DECIMAL(" + precision + "," + scale + ")";
  }

  @Override
  public boolean isNumeric() {
    return true;
  }

  @Override
  public boolean isPrimitive() {
    return true;
  }

  @Override
  public boolean isOrderable() {
    return true;
  }

  @Override
  public String toString() {
    return displayName();
  }
}
