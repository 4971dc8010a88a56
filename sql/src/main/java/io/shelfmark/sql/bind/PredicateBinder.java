package io.shelfmark.sql.bind;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.expression.Between;
import io.shelfmark.sql.expression.Cast;
import io.shelfmark.sql.expression.Comparison;
import io.shelfmark.sql.expression.ComparisonOperator;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.InList;
import io.shelfmark.sql.expression.IsNull;
import io.shelfmark.sql.expression.Like;
import io.shelfmark.sql.expression.LikePattern;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.tree.LiteralNode;
import io.shelfmark.sql.tree.Node;
import io.shelfmark.sql.tree.OperatorNode;
import io.shelfmark.sql.type.ListType;
import io.shelfmark.sql.type.MapType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Binds comparisons, BETWEEN, IN, LIKE and IS NULL. Operands are brought to one type: a literal is
 * cast to the other side's type when exact (a STRING literal parsed), otherwise both sides widen to
 * their common type ({@link TypeRules#common}); the result never depends on a lossy cast. A
 * predicate over literals only is folded; a NULL literal operand makes it the BOOLEAN NULL. A
 * literal is put on the right of a comparison.
 */
final class PredicateBinder {
  private final ExpressionBinder binder;

  PredicateBinder(ExpressionBinder binder) {
    this.binder = requireNonNull(binder, "binder is null");
  }

  Expression bind(OperatorNode node) {
    return switch (node.operator()) {
      case EQUAL -> comparison(node, ComparisonOperator.EQUAL);
      case NOT_EQUAL -> comparison(node, ComparisonOperator.NOT_EQUAL);
      case LESS_THAN -> comparison(node, ComparisonOperator.LESS_THAN);
      case LESS_THAN_OR_EQUAL -> comparison(node, ComparisonOperator.LESS_THAN_OR_EQUAL);
      case GREATER_THAN -> comparison(node, ComparisonOperator.GREATER_THAN);
      case GREATER_THAN_OR_EQUAL -> comparison(node, ComparisonOperator.GREATER_THAN_OR_EQUAL);
      case IS_NULL, IS_NOT_NULL -> isNull(node);
      case LIKE, NOT_LIKE -> like(node);
      case BETWEEN, NOT_BETWEEN -> between(node);
      case IN, NOT_IN -> in(node);
      default -> throw new IllegalArgumentException("not a predicate: " + node.operator());
    };
  }

  private Expression comparison(OperatorNode node, ComparisonOperator operator) {
    List<Expression> operands = bindAll(node.operands());
    if (operands.contains(null)) {
      return Literal.nullOf(PrimitiveType.BOOLEAN);
    }
    List<Expression> unified = unify(operands, node.operands(), node);
    Expression left = unified.get(0);
    Expression right = unified.get(1);
    if (left instanceof Literal a && right instanceof Literal b) {
      return ConstantFolder.compare(operator, a, b);
    }
    if (left instanceof Literal) {
      return new Comparison(operator.flip(), right, left);
    }
    return new Comparison(operator, left, right);
  }

  private Expression between(OperatorNode node) {
    boolean negated = node.operator() == OperatorNode.Operator.NOT_BETWEEN;
    List<Expression> operands = bindAll(node.operands());
    if (operands.getFirst() == null) {
      return Literal.nullOf(PrimitiveType.BOOLEAN);
    }
    List<Expression> unified = unify(operands, node.operands(), node);
    Expression value = unified.get(0);
    if (unified.stream().allMatch(Literal.class::isInstance)) {
      return ConstantFolder.between(
          (Literal) value, (Literal) unified.get(1), (Literal) unified.get(2), negated);
    }
    return new Between(value, unified.get(1), unified.get(2), negated);
  }

  private Expression in(OperatorNode node) {
    boolean negated = node.operator() == OperatorNode.Operator.NOT_IN;
    List<Expression> operands = bindAll(node.operands());
    for (int i = 1; i < operands.size(); i++) {
      Expression item = operands.get(i);
      if (item != null && !(item instanceof Literal)) {
        Node itemNode = node.operand(i);
        throw SqlException.of(
            SqlErrorKind.UNSUPPORTED,
            itemNode.position(),
            "use " + itemNode.sql() + " in an IN list",
            "IN lists take literals only",
            "compare with OR instead");
      }
    }
    if (operands.getFirst() == null) {
      return Literal.nullOf(PrimitiveType.BOOLEAN);
    }
    List<Expression> unified = unify(operands, node.operands(), node);
    Expression value = unified.getFirst();
    List<Literal> items = new ArrayList<>();
    for (Expression item : unified.subList(1, unified.size())) {
      items.add((Literal) item);
    }
    if (value instanceof Literal literal) {
      return ConstantFolder.in(literal, items, negated);
    }
    return new InList(value, items, negated);
  }

  private Expression like(OperatorNode node) {
    boolean negated = node.operator() == OperatorNode.Operator.NOT_LIKE;
    @Nullable Expression value = binder.bindOrNull(node.operand(0));
    if (value != null && value.type() != PrimitiveType.STRING) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          node.operand(0).position(),
          "apply " + node.operator().symbol() + " to " + node.operand(0).sql(),
          "it is " + value.type().displayName() + ", not STRING",
          null);
    }
    Optional<String> pattern = stringLiteral(node.operand(1), "pattern");
    Optional<String> escape =
        node.operands().size() > 2 ? stringLiteral(node.operand(2), "ESCAPE") : Optional.empty();
    if (value == null || pattern.isEmpty() || (node.operands().size() > 2 && escape.isEmpty())) {
      return Literal.nullOf(PrimitiveType.BOOLEAN);
    }
    LikePattern compiled = compile(node, pattern.get(), escape);
    return value instanceof Literal literal
        ? ConstantFolder.like(literal, compiled, negated)
        : new Like(value, compiled, negated);
  }

  // The text of a STRING literal operand; empty for NULL; an error for anything else.
  private static Optional<String> stringLiteral(Node node, String role) {
    if (node instanceof LiteralNode literal) {
      if (literal.kind() == LiteralNode.Kind.NULL) {
        return Optional.empty();
      }
      if (literal.kind() == LiteralNode.Kind.STRING) {
        return Optional.of(literal.value());
      }
    }
    throw SqlException.of(
        SqlErrorKind.UNSUPPORTED,
        node.position(),
        "use " + node.sql() + " as a LIKE " + role,
        "the LIKE " + role + " must be a string literal",
        null);
  }

  private static LikePattern compile(OperatorNode node, String pattern, Optional<String> escape) {
    Node patternNode = node.operand(1);
    if (escape.isPresent() && escape.get().codePointCount(0, escape.get().length()) != 1) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          node.operand(2).position(),
          "use " + node.operand(2).sql() + " as a LIKE escape",
          "ESCAPE takes exactly one character",
          "write ESCAPE '\\'");
    }
    try {
      return LikePattern.compile(pattern, escape.map(text -> text.charAt(0)).orElse(null));
    } catch (IllegalArgumentException e) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          patternNode.position(),
          "compile LIKE pattern " + patternNode.sql(),
          e.getMessage(),
          "double the escape character to match it literally");
    }
  }

  private Expression isNull(OperatorNode node) {
    boolean negated = node.operator() == OperatorNode.Operator.IS_NOT_NULL;
    @Nullable Expression value = binder.bindOrNull(node.operand(0));
    if (value == null || value instanceof Literal) {
      boolean isNull = value == null || ((Literal) value).isNull();
      return Literal.of(isNull != negated);
    }
    return new IsNull(value, negated);
  }

  private List<@Nullable Expression> bindAll(List<Node> nodes) {
    List<@Nullable Expression> bound = new ArrayList<>(nodes.size());
    for (Node node : nodes) {
      bound.add(binder.bindOrNull(node));
    }
    return bound;
  }

  /**
   * Brings {@code operands} (nulls standing for NULL literals) to one type, first operand first:
   * literals cast to it when exact, else every operand widened to the common type.
   */
  private static List<Expression> unify(
      List<@Nullable Expression> operands, List<Node> nodes, OperatorNode operator) {
    SqlType target = initialType(operands);
    for (int i = 0; i < operands.size(); i++) {
      Expression operand = operands.get(i);
      if (operand == null) {
        continue;
      }
      requireComparable(operand, nodes.get(i), operator);
      if (operand.type().equals(target)) {
        continue;
      }
      if (operand instanceof Literal literal
          && LiteralCasts.castForComparison(
                  literal, target, nodes.get(i).position(), describe(operands, nodes, i))
              .isPresent()) {
        continue;
      }
      target = common(target, operand, nodes, i, operator);
    }
    List<Expression> unified = new ArrayList<>(operands.size());
    for (int i = 0; i < operands.size(); i++) {
      unified.add(cast(operands.get(i), target, nodes.get(i), describe(operands, nodes, i)));
    }
    return unified;
  }

  // The type of the first operand that is not a literal; else of the first non-STRING literal.
  private static SqlType initialType(List<@Nullable Expression> operands) {
    Optional<Expression> expression =
        operands.stream().filter(e -> e != null && !(e instanceof Literal)).findFirst();
    if (expression.isPresent()) {
      return expression.get().type();
    }
    return operands.stream()
        .filter(e -> e != null && e.type() != PrimitiveType.STRING)
        .findFirst()
        .or(() -> operands.stream().filter(e -> e != null).findFirst())
        .orElseThrow()
        .type();
  }

  private static SqlType common(
      SqlType target, Expression operand, List<Node> nodes, int index, OperatorNode operator) {
    return TypeRules.common(target, operand.type())
        .orElseThrow(
            () -> {
              Node node = nodes.get(index);
              Node other = nodes.get(index == 0 ? 1 : 0);
              return SqlException.of(
                  SqlErrorKind.INVALID,
                  node.position(),
                  "compare " + other.sql() + " with " + node.sql(),
                  target.displayName()
                      + " and "
                      + operand.type().displayName()
                      + " do not mix in "
                      + operator.operator().symbol(),
                  operand instanceof Literal && operand.type().isNumeric()
                      ? "quote the literal to compare strings: '" + node.sql() + "'"
                      : "compare numbers with numbers, strings with strings, dates and timestamps"
                          + " with each other");
            });
  }

  private static Expression cast(
      @Nullable Expression operand, SqlType target, Node node, String comparedWith) {
    if (operand == null) {
      return Literal.nullOf(target);
    }
    if (operand.type().equals(target)) {
      return operand;
    }
    if (operand instanceof Literal literal) {
      return LiteralCasts.castForComparison(literal, target, node.position(), comparedWith)
          .orElseGet(() -> LiteralCasts.widen(literal, target));
    }
    return new Cast(operand, target);
  }

  // The other side as written, for the message of a literal that cannot be cast to its type.
  private static String describe(List<@Nullable Expression> operands, List<Node> nodes, int index) {
    for (int i = 0; i < operands.size(); i++) {
      if (i != index && operands.get(i) != null && !(operands.get(i) instanceof Literal)) {
        return nodes.get(i).sql();
      }
    }
    return nodes.get(index == 0 ? 1 : 0).sql();
  }

  private static void requireComparable(Expression operand, Node node, OperatorNode operator) {
    SqlType type = operand.type();
    if (type instanceof MapType || type instanceof ListType || !type.isPrimitive()) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          node.position(),
          "compare " + node.sql() + " with " + operator.operator().symbol(),
          "it is " + type.displayName(),
          type instanceof MapType
              ? "compare one key, such as " + node.sql() + "['key']"
              : "compare scalar values only");
    }
  }
}
