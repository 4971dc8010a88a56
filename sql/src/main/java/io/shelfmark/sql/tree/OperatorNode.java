package io.shelfmark.sql.tree;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.sql.SqlPosition;
import java.util.List;
import java.util.stream.Collectors;

/**
 * An operator applied to operands. The operand layout is fixed per operator: AND and OR take two or
 * more (a chain {@code a OR b OR c} is one node); other binary operators take two; NOT, NEGATE, IS
 * [NOT] NULL one; [NOT] BETWEEN three (value, low, high); [NOT] LIKE two or three (value, pattern,
 * escape); [NOT] IN the value followed by the list items.
 */
public record OperatorNode(Operator operator, List<Node> operands, SqlPosition position)
    implements Node {
  /** The operators Shelfmark's SQL has. */
  public enum Operator {
    AND("AND"),
    OR("OR"),
    NOT("NOT"),
    EQUAL("="),
    NOT_EQUAL("<>"),
    LESS_THAN("<"),
    LESS_THAN_OR_EQUAL("<="),
    GREATER_THAN(">"),
    GREATER_THAN_OR_EQUAL(">="),
    PLUS("+"),
    MINUS("-"),
    TIMES("*"),
    DIVIDE("/"),
    NEGATE("-"),
    IS_NULL("IS NULL"),
    IS_NOT_NULL("IS NOT NULL"),
    LIKE("LIKE"),
    NOT_LIKE("NOT LIKE"),
    BETWEEN("BETWEEN"),
    NOT_BETWEEN("NOT BETWEEN"),
    IN("IN"),
    NOT_IN("NOT IN");

    private final String symbol;

    Operator(String symbol) {
      this.symbol = symbol;
    }

    /** As written in SQL: {@code <=}, {@code NOT IN}. */
    public String symbol() {
      return symbol;
    }
  }

  public OperatorNode {
    requireNonNull(operator, "operator is null");
    requireNonNull(operands, "operands is null");
    requireNonNull(position, "position is null");
    operands = ImmutableList.copyOf(operands);
    checkArgument(!operands.isEmpty(), "%s has no operands", operator);
  }

  public Node operand(int index) {
    return operands.get(index);
  }

  @Override
  public String sql() {
    return switch (operator) {
      case NOT -> "NOT " + operand(0).sql();
      case NEGATE -> "-" + operand(0).sql();
      case IS_NULL, IS_NOT_NULL -> operand(0).sql() + " " + operator.symbol();
      case BETWEEN, NOT_BETWEEN ->
          operand(0).sql()
              + " "
              + operator.symbol()
              + " "
              + operand(1).sql()
              + " AND "
              + operand(2).sql();
      case LIKE, NOT_LIKE ->
          operand(0).sql()
              + " "
              + operator.symbol()
              + " "
              + operand(1).sql()
              + (operands.size() > 2 ? " ESCAPE " + operand(2).sql() : "");
      case IN, NOT_IN ->
          operand(0).sql()
              + " "
              + operator.symbol()
              + " ("
              + operands.subList(1, operands.size()).stream()
                  .map(Node::sql)
                  .collect(Collectors.joining(", "))
              + ")";
      case AND, OR ->
          operands.stream()
              .map(Node::sql)
              .collect(Collectors.joining(" " + operator.symbol() + " "));
      default -> operand(0).sql() + " " + operator.symbol() + " " + operand(1).sql();
    };
  }
}
