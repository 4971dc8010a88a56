package io.shelfmark.sql.bind;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.expression.And;
import io.shelfmark.sql.expression.Arithmetic;
import io.shelfmark.sql.expression.ArithmeticOperator;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.DateTrunc;
import io.shelfmark.sql.expression.DateTruncUnit;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.expression.MapKeyRef;
import io.shelfmark.sql.expression.Negate;
import io.shelfmark.sql.expression.Not;
import io.shelfmark.sql.expression.Or;
import io.shelfmark.sql.function.BuiltinFunction;
import io.shelfmark.sql.function.FunctionRegistry;
import io.shelfmark.sql.tree.CastNode;
import io.shelfmark.sql.tree.FunctionNode;
import io.shelfmark.sql.tree.IdentifierNode;
import io.shelfmark.sql.tree.LiteralNode;
import io.shelfmark.sql.tree.Node;
import io.shelfmark.sql.tree.OperatorNode;
import io.shelfmark.sql.tree.OperatorNode.Operator;
import io.shelfmark.sql.tree.StarNode;
import io.shelfmark.sql.tree.SubscriptNode;
import io.shelfmark.sql.tree.UnsupportedNode;
import io.shelfmark.sql.type.ListType;
import io.shelfmark.sql.type.MapType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Binds syntax-tree expressions to typed {@link Expression}s in one {@link Scope}: resolves
 * functions, types operators, inserts implicit casts and folds constants. Predicates (comparisons,
 * BETWEEN, IN, LIKE, IS NULL) are bound by {@link PredicateBinder}. One per scope; not thread-safe.
 */
final class ExpressionBinder {
  private final FunctionRegistry functions;
  private final Scope scope;
  private final PredicateBinder predicates;

  ExpressionBinder(FunctionRegistry functions, Scope scope) {
    this.functions = requireNonNull(functions, "functions is null");
    this.scope = requireNonNull(scope, "scope is null");
    this.predicates = new PredicateBinder(this);
  }

  /** Binds {@code node}; a NULL literal is an error here (its type is unknown). */
  Expression bind(Node node) {
    Expression bound = bindOrNull(node);
    if (bound == null) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          node.position(),
          "infer the type of NULL",
          "it is not compared with or combined with a typed value",
          "use it in a comparison or write IS NULL");
    }
    return bound;
  }

  /** Binds {@code node}, or returns null for a NULL literal (typed later by its context). */
  @Nullable Expression bindOrNull(Node node) {
    if (node instanceof LiteralNode literal) {
      return literal.kind() == LiteralNode.Kind.NULL ? null : LiteralCasts.typed(literal);
    }
    Optional<Expression> replaced = scope.replace(node);
    if (replaced.isPresent()) {
      return replaced.get();
    }
    return switch (node) {
      case IdentifierNode identifier -> scope.identifier(identifier);
      case FunctionNode function -> function(function);
      case OperatorNode operator -> operator(operator);
      case SubscriptNode subscript -> mapKey(subscript.base(), subscript.key(), subscript);
      case CastNode cast ->
          ExplicitCasts.cast(bindOrNull(cast.operand()), ExplicitCasts.target(cast), cast);
      case StarNode star ->
          throw SqlException.of(
              SqlErrorKind.INVALID,
              star.position(),
              "use " + star.sql() + " here",
              "* stands for every column only as a whole select item or in COUNT(*)",
              null);
      case UnsupportedNode unsupported ->
          throw SqlException.of(
              SqlErrorKind.UNSUPPORTED,
              unsupported.position(),
              unsupported.action(),
              unsupported.detail(),
              unsupported.hint());
      case LiteralNode literal -> throw new IllegalStateException("handled above: " + literal);
    };
  }

  /**
   * Binds a condition: a BOOLEAN expression (a NULL literal is the BOOLEAN NULL).
   *
   * @param clause where the condition sits, for the message of a non-BOOLEAN one
   */
  Expression condition(Node node, String clause) {
    Expression bound = bindOrNull(node);
    if (bound == null) {
      return Literal.nullOf(PrimitiveType.BOOLEAN);
    }
    if (bound.type() != PrimitiveType.BOOLEAN) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          node.position(),
          "use " + node.sql() + " as a condition in " + clause,
          "it is " + bound.type().displayName() + ", not BOOLEAN",
          "write a comparison, such as " + node.sql() + " = ...");
    }
    return bound;
  }

  private Expression operator(OperatorNode node) {
    return switch (node.operator()) {
      case AND, OR -> logical(node);
      case NOT -> {
        Expression operand = condition(node.operand(0), "NOT");
        yield operand instanceof Literal literal ? ConstantFolder.not(literal) : new Not(operand);
      }
      case PLUS -> arithmetic(node, ArithmeticOperator.ADD);
      case MINUS -> arithmetic(node, ArithmeticOperator.SUBTRACT);
      case TIMES -> arithmetic(node, ArithmeticOperator.MULTIPLY);
      case DIVIDE -> arithmetic(node, ArithmeticOperator.DIVIDE);
      case NEGATE -> negate(node);
      default -> predicates.bind(node);
    };
  }

  private Expression logical(OperatorNode node) {
    boolean isAnd = node.operator() == Operator.AND;
    List<Expression> terms = new ArrayList<>();
    for (Node operand : node.operands()) {
      Expression term = condition(operand, node.operator().symbol());
      if (isAnd && term instanceof And and) {
        terms.addAll(and.terms());
      } else if (!isAnd && term instanceof Or or) {
        terms.addAll(or.terms());
      } else {
        terms.add(term);
      }
    }
    return isAnd ? new And(terms) : new Or(terms);
  }

  private Expression arithmetic(OperatorNode node, ArithmeticOperator operator) {
    @Nullable Expression left = bindOrNull(node.operand(0));
    @Nullable Expression right = bindOrNull(node.operand(1));
    if (left == null && right == null) {
      return bind(node.operand(0));
    }
    left = left != null ? left : Literal.nullOf(right.type());
    right = right != null ? right : Literal.nullOf(left.type());
    requireNumber(left, node.operand(0), operator.symbol());
    requireNumber(right, node.operand(1), operator.symbol());
    SqlType type = TypeRules.arithmetic(operator, left.type(), right.type());
    if (left instanceof Literal a && right instanceof Literal b) {
      try {
        return ConstantFolder.arithmetic(operator, a, b, type);
      } catch (ArithmeticException e) {
        throw overflow(node, type);
      }
    }
    return new Arithmetic(operator, left, right, type);
  }

  private Expression negate(OperatorNode node) {
    Expression operand = bind(node.operand(0));
    requireNumber(operand, node.operand(0), "-");
    if (operand instanceof Literal literal) {
      try {
        return ConstantFolder.negate(literal);
      } catch (ArithmeticException e) {
        throw overflow(node, operand.type());
      }
    }
    return new Negate(operand);
  }

  private static SqlException overflow(Node node, SqlType type) {
    return SqlException.of(
        SqlErrorKind.INVALID,
        node.position(),
        "evaluate " + node.sql(),
        "the result overflows " + type.displayName(),
        null);
  }

  private static void requireNumber(Expression operand, Node node, String operator) {
    if (!operand.type().isNumeric()) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          node.position(),
          "apply " + operator + " to " + node.sql(),
          "it is " + operand.type().displayName() + ", not a number",
          null);
    }
  }

  private Expression function(FunctionNode node) {
    BuiltinFunction function =
        functions
            .lookup(node.name())
            .orElseThrow(
                () ->
                    SqlException.of(
                        SqlErrorKind.UNRESOLVED,
                        node.position(),
                        "resolve function '" + node.name() + "'",
                        null,
                        "supported functions: " + String.join(", ", functions.names())));
    if (function.isAggregate()) {
      return scope.aggregate(node, function);
    }
    if (node.distinct()) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          node.position(),
          "call " + node.sql(),
          "DISTINCT applies to aggregates only",
          null);
    }
    if (function == BuiltinFunction.DATETIMECONVERT) {
      requireArguments(
          node, 4, "(millis, '1:MILLISECONDS:EPOCH', '1:MILLISECONDS:EPOCH', '1:MINUTES')");
      return TimeFunctions.dateTimeConvert(node, bind(node.arguments().get(0)));
    }
    switch (function) {
      case TO_EPOCH, FROM_EPOCH -> {
        requireArguments(node, 1, "(millis)");
        return EpochFunctions.bind(node, function, bind(node.arguments().get(0)), 1);
      }
      case TO_EPOCH_ROUNDED, TO_EPOCH_BUCKET -> {
        requireArguments(node, 2, "(millis, 5)");
        return EpochFunctions.bind(
            node,
            function,
            bind(node.arguments().get(0)),
            EpochFunctions.count(node, node.arguments().get(1)));
      }
      default -> {}
    }
    if (function == BuiltinFunction.FROM_DATE_TIME || function == BuiltinFunction.TO_DATE_TIME) {
      if (node.arguments().size() < 2 || node.arguments().size() > 3) {
        requireArguments(node, 2, "('2026-01-02', 'yyyy-MM-dd')");
      }
      return function == BuiltinFunction.FROM_DATE_TIME
          ? DateTimeText.fromDateTime(node)
          : DateTimeText.toDateTime(node, bind(node.arguments().get(0)));
    }
    if (function == BuiltinFunction.DATE_TRUNC && node.arguments().size() > 2) {
      TimeFunctions.checkPinotDateTruncArguments(node);
      return dateTrunc(
          new FunctionNode(
              node.name(), node.arguments().subList(0, 2), node.distinct(), node.position()));
    }
    requireArguments(
        node,
        2,
        switch (function) {
          case DATE_TRUNC -> "('second', millis)";
          case ROUND -> "(timestamp, 300000)";
          default -> "(map, 'key')";
        });
    return switch (function) {
      case DATE_TRUNC -> dateTrunc(node);
      case ROUND -> TimeFunctions.round(node, bind(node.arguments().get(0)));
      case ELEMENT_AT -> mapKey(node.arguments().get(0), node.arguments().get(1), node);
      default -> throw new IllegalStateException("not a scalar function: " + function);
    };
  }

  private static void requireArguments(FunctionNode node, int count, String example) {
    if (node.arguments().size() != count) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          node.position(),
          "call " + node.name(),
          "it takes " + count + " arguments, not " + node.arguments().size(),
          "write " + node.name() + example);
    }
  }

  private Expression dateTrunc(FunctionNode node) {
    Node unitNode = node.arguments().get(0);
    Optional<DateTruncUnit> unit =
        unitNode instanceof LiteralNode literal && literal.kind() == LiteralNode.Kind.STRING
            ? DateTruncUnit.parse(literal.value())
            : Optional.empty();
    if (unit.isEmpty()) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          unitNode.position(),
          "use " + unitNode.sql() + " as the unit of " + node.name(),
          "the unit must be a string literal naming one of "
              + Arrays.stream(DateTruncUnit.values()).map(DateTruncUnit::sqlName).toList(),
          "write " + node.name() + "('second', ...)");
    }
    Node valueNode = node.arguments().get(1);
    @Nullable Expression value = bindOrNull(valueNode);
    if (value == null) {
      return Literal.nullOf(PrimitiveType.LONG);
    }
    SqlType type = value.type();
    if (type != PrimitiveType.LONG
        && type != PrimitiveType.TIMESTAMP
        && type != PrimitiveType.TIMESTAMP_TZ) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          valueNode.position(),
          "apply " + node.name() + " to " + valueNode.sql(),
          "it is " + type.displayName(),
          node.name() + " takes epoch milliseconds (LONG) or a TIMESTAMP");
    }
    DateTrunc trunc = new DateTrunc(unit.get(), value);
    if (value instanceof Literal literal) {
      return literal.isNull() ? literal : new Literal(trunc.truncate((Long) literal.value()), type);
    }
    return trunc;
  }

  private Expression mapKey(Node baseNode, Node keyNode, Node node) {
    Expression base = bind(baseNode);
    if (base.type() instanceof ListType) {
      throw SqlException.of(
          SqlErrorKind.UNSUPPORTED,
          node.position(),
          "access an element of " + baseNode.sql(),
          "element access on LIST columns is not supported",
          null);
    }
    if (!(base instanceof ColumnRef column) || !(base.type() instanceof MapType map)) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          node.position(),
          "access key " + keyNode.sql() + " of " + baseNode.sql(),
          "it is " + base.type().displayName() + ", not a MAP column",
          null);
    }
    if (!(keyNode instanceof LiteralNode key) || key.kind() != LiteralNode.Kind.STRING) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          keyNode.position(),
          "use " + keyNode.sql() + " as a key of " + baseNode.sql(),
          "map keys must be string literals",
          "write " + baseNode.sql() + "['key']");
    }
    return new MapKeyRef(column.name(), key.value(), map.valueType());
  }
}
