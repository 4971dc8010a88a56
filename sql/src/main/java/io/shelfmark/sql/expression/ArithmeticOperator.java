package io.shelfmark.sql.expression;

/** The arithmetic operators. */
public enum ArithmeticOperator {
  ADD("+"),
  SUBTRACT("-"),
  MULTIPLY("*"),
  /** Always floating-point division: both operands as DOUBLE, IEEE results (x / 0 is ±Infinity). */
  DIVIDE("/"),
  /**
   * LONG division truncated toward zero (Java's and Pinot's {@code long / long}), for Pinot's
   * {@code ToEpochSeconds(millis)} family; only the binder creates it, with a positive constant
   * divisor. Not SQL's {@code /}.
   */
  INTEGER_DIVIDE("//");

  private final String symbol;

  ArithmeticOperator(String symbol) {
    this.symbol = symbol;
  }

  public String symbol() {
    return symbol;
  }
}
