package io.shelfmark.sql.expression;

/** The four arithmetic operators. */
public enum ArithmeticOperator {
  ADD("+"),
  SUBTRACT("-"),
  MULTIPLY("*"),
  /** Always floating-point division: both operands as DOUBLE, IEEE results (x / 0 is ±Infinity). */
  DIVIDE("/");

  private final String symbol;

  ArithmeticOperator(String symbol) {
    this.symbol = symbol;
  }

  public String symbol() {
    return symbol;
  }
}
