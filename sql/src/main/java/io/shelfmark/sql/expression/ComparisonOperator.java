package io.shelfmark.sql.expression;

/** The six comparisons. */
public enum ComparisonOperator {
  EQUAL("="),
  NOT_EQUAL("<>"),
  LESS_THAN("<"),
  LESS_THAN_OR_EQUAL("<="),
  GREATER_THAN(">"),
  GREATER_THAN_OR_EQUAL(">=");

  private final String symbol;

  ComparisonOperator(String symbol) {
    this.symbol = symbol;
  }

  public String symbol() {
    return symbol;
  }

  /**
   * The operator whose result is the logical NOT of this one's, for non-NULL operands: NOT (a < b)
   * is a >= b. With a NULL operand both are NULL, so the rewrite is exact in three-valued logic.
   */
  public ComparisonOperator negate() {
    return switch (this) {
      case EQUAL -> NOT_EQUAL;
      case NOT_EQUAL -> EQUAL;
      case LESS_THAN -> GREATER_THAN_OR_EQUAL;
      case LESS_THAN_OR_EQUAL -> GREATER_THAN;
      case GREATER_THAN -> LESS_THAN_OR_EQUAL;
      case GREATER_THAN_OR_EQUAL -> LESS_THAN;
    };
  }

  /** The operator for swapped operands: a < b is b > a. */
  public ComparisonOperator flip() {
    return switch (this) {
      case EQUAL, NOT_EQUAL -> this;
      case LESS_THAN -> GREATER_THAN;
      case LESS_THAN_OR_EQUAL -> GREATER_THAN_OR_EQUAL;
      case GREATER_THAN -> LESS_THAN;
      case GREATER_THAN_OR_EQUAL -> LESS_THAN_OR_EQUAL;
    };
  }

  /** Whether the comparison holds given {@code compare(left, right)}'s sign. */
  public boolean test(int comparison) {
    return switch (this) {
      case EQUAL -> comparison == 0;
      case NOT_EQUAL -> comparison != 0;
      case LESS_THAN -> comparison < 0;
      case LESS_THAN_OR_EQUAL -> comparison <= 0;
      case GREATER_THAN -> comparison > 0;
      case GREATER_THAN_OR_EQUAL -> comparison >= 0;
    };
  }
}
