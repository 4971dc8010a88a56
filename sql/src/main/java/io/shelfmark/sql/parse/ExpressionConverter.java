package io.shelfmark.sql.parse;

import static io.shelfmark.sql.parse.NodeConverter.position;
import static io.shelfmark.sql.parse.NodeConverter.unsupported;

import io.shelfmark.sql.tree.CastNode;
import io.shelfmark.sql.tree.FunctionNode;
import io.shelfmark.sql.tree.LiteralNode;
import io.shelfmark.sql.tree.Node;
import io.shelfmark.sql.tree.OperatorNode;
import io.shelfmark.sql.tree.OperatorNode.Operator;
import io.shelfmark.sql.tree.SubscriptNode;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalInt;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlTypeNameSpec;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Converts Calcite expressions to Shelfmark's syntax tree. Never throws for an unsupported
 * expression: it becomes an {@link io.shelfmark.sql.tree.UnsupportedNode} that the binder refuses
 * when it reaches it.
 */
final class ExpressionConverter {
  private static final String SUBQUERY_HINT = "Shelfmark queries one table without subqueries";

  Node convert(SqlNode node) {
    if (node instanceof SqlIdentifier identifier) {
      return identifier.isStar()
          ? NodeConverter.star(identifier)
          : NodeConverter.identifier(identifier);
    }
    if (node instanceof SqlLiteral literal) {
      return literal(literal);
    }
    if (node instanceof SqlDynamicParam) {
      return unsupported(
          node,
          "plan parameter ?",
          "prepared-statement parameters are not supported",
          "inline the value");
    }
    if (node.getKind().belongsTo(SqlKind.QUERY)) {
      return unsupported(node, "plan subquery", "subqueries are not supported", SUBQUERY_HINT);
    }
    if (node instanceof SqlCase) {
      return unsupported(node, "plan CASE expression", "CASE is not supported", null);
    }
    if (node instanceof SqlCall call) {
      return call(call);
    }
    return unsupported(node, "plan expression " + node, "this form is not supported", null);
  }

  private Node literal(SqlLiteral literal) {
    var position = position(literal.getParserPosition());
    if (literal instanceof SqlNumericLiteral number) {
      if (number.isExact()) {
        BigDecimal value = Objects.requireNonNull(number.getValueAs(BigDecimal.class));
        return new LiteralNode(LiteralNode.Kind.EXACT_NUMBER, value.toPlainString(), position);
      }
      return new LiteralNode(
          LiteralNode.Kind.APPROXIMATE_NUMBER, String.valueOf(number.toValue()), position);
    }
    if (literal instanceof SqlCharStringLiteral string) {
      return new LiteralNode(LiteralNode.Kind.STRING, string.getValueAs(String.class), position);
    }
    if (literal instanceof SqlUnknownLiteral typed) {
      return switch (typed.tag.toUpperCase(Locale.ROOT)) {
        case "DATE" -> new LiteralNode(LiteralNode.Kind.DATE, typed.getValue(), position);
        case "TIMESTAMP" -> new LiteralNode(LiteralNode.Kind.TIMESTAMP, typed.getValue(), position);
        default ->
            unsupported(
                literal,
                "plan " + typed.tag + " literal",
                "only DATE and TIMESTAMP typed literals are supported",
                null);
      };
    }
    SqlTypeName type = literal.getTypeName();
    if (type == SqlTypeName.NULL || (type == SqlTypeName.BOOLEAN && literal.getValue() == null)) {
      return new LiteralNode(LiteralNode.Kind.NULL, null, position);
    }
    if (type == SqlTypeName.BOOLEAN) {
      return new LiteralNode(
          LiteralNode.Kind.BOOLEAN, String.valueOf(literal.booleanValue()), position);
    }
    return unsupported(
        literal,
        "plan " + type.getName().toLowerCase(Locale.ROOT).replace('_', ' ') + " literal " + literal,
        "this kind of literal is not supported",
        null);
  }

  private Node call(SqlCall call) {
    SqlKind kind = call.getKind();
    if (kind == SqlKind.AND || kind == SqlKind.OR) {
      return chain(kind == SqlKind.AND ? Operator.AND : Operator.OR, call);
    }
    Operator operator = simpleOperator(kind);
    if (operator != null) {
      return operator(operator, call, call.getOperandList());
    }
    return switch (kind) {
      case PLUS_PREFIX -> convert(call.operand(0));
      case LIKE -> like(call);
      case BETWEEN -> between(call);
      case IN, NOT_IN -> in(call);
      case ITEM ->
          new SubscriptNode(
              convert(call.operand(0)),
              convert(call.operand(1)),
              position(call.getParserPosition()));
      case CAST -> cast(call);
      case OVER ->
          unsupported(
              call,
              "plan window function " + functionName(call.operand(0)),
              "window functions (OVER) are not supported",
              null);
      case FILTER ->
          unsupported(
              call,
              "plan FILTER clause",
              "aggregate filters are not supported",
              "move the condition to WHERE");
      case EXISTS, SOME, ALL ->
          unsupported(
              call,
              "plan " + kind.name() + " subquery",
              "subqueries are not supported",
              SUBQUERY_HINT);
      default -> function(call);
    };
  }

  private Node cast(SqlCall call) {
    if (!(call.operand(1) instanceof SqlDataTypeSpec spec)) {
      return unsupported(call, "plan CAST to " + call.operand(1), "the target is not a type", null);
    }
    SqlTypeNameSpec name = spec.getTypeNameSpec();
    OptionalInt precision = OptionalInt.empty();
    OptionalInt scale = OptionalInt.empty();
    if (name instanceof SqlBasicTypeNameSpec basic) {
      precision = basic.getPrecision() >= 0 ? OptionalInt.of(basic.getPrecision()) : precision;
      scale = basic.getScale() >= 0 ? OptionalInt.of(basic.getScale()) : scale;
    }
    return new CastNode(
        convert(call.operand(0)),
        name.getTypeName().getSimple().toUpperCase(Locale.ROOT),
        precision,
        scale,
        position(call.getParserPosition()));
  }

  private static Operator simpleOperator(SqlKind kind) {
    return switch (kind) {
      case NOT -> Operator.NOT;
      case EQUALS -> Operator.EQUAL;
      case NOT_EQUALS -> Operator.NOT_EQUAL;
      case LESS_THAN -> Operator.LESS_THAN;
      case LESS_THAN_OR_EQUAL -> Operator.LESS_THAN_OR_EQUAL;
      case GREATER_THAN -> Operator.GREATER_THAN;
      case GREATER_THAN_OR_EQUAL -> Operator.GREATER_THAN_OR_EQUAL;
      case PLUS -> Operator.PLUS;
      case MINUS -> Operator.MINUS;
      case TIMES -> Operator.TIMES;
      case DIVIDE -> Operator.DIVIDE;
      case MINUS_PREFIX -> Operator.NEGATE;
      case IS_NULL -> Operator.IS_NULL;
      case IS_NOT_NULL -> Operator.IS_NOT_NULL;
      default -> null;
    };
  }

  /**
   * {@code a OR b OR c}, which Calcite nests as {@code (a OR b) OR c}, as one OR of three terms,
   * collected without recursion: a chain of thousands of terms must not cost a stack frame each.
   */
  private Node chain(Operator operator, SqlCall call) {
    SqlKind kind = call.getKind();
    List<SqlNode> terms = new ArrayList<>();
    Deque<SqlNode> pending = new ArrayDeque<>();
    pending.push(call);
    while (!pending.isEmpty()) {
      SqlNode node = pending.pop();
      if (node.getKind() == kind && node instanceof SqlCall link) {
        List<SqlNode> operands = link.getOperandList();
        for (int i = operands.size() - 1; i >= 0; i--) {
          pending.push(operands.get(i));
        }
      } else {
        terms.add(node);
      }
    }
    return operator(operator, call, terms);
  }

  private Node operator(Operator operator, SqlCall call, List<SqlNode> operands) {
    List<Node> converted = new ArrayList<>(operands.size());
    for (SqlNode operand : operands) {
      converted.add(convert(operand));
    }
    return new OperatorNode(operator, converted, position(call.getParserPosition()));
  }

  private Node like(SqlCall call) {
    SqlLikeOperator like = (SqlLikeOperator) call.getOperator();
    String name = like.getName().toUpperCase(Locale.ROOT);
    if (!name.equals("LIKE") && !name.equals("NOT LIKE")) {
      return unsupported(
          call, "plan " + name, name + " is not supported", "use LIKE, which is case-sensitive");
    }
    return operator(
        like.isNegated() ? Operator.NOT_LIKE : Operator.LIKE, call, call.getOperandList());
  }

  private Node between(SqlCall call) {
    SqlBetweenOperator between = (SqlBetweenOperator) call.getOperator();
    if (between.flag == SqlBetweenOperator.Flag.SYMMETRIC) {
      return unsupported(
          call,
          "plan BETWEEN SYMMETRIC",
          "only BETWEEN [ASYMMETRIC] is supported",
          "order the bounds low to high");
    }
    return operator(
        between.isNegated() ? Operator.NOT_BETWEEN : Operator.BETWEEN, call, call.getOperandList());
  }

  private Node in(SqlCall call) {
    Operator operator = call.getKind() == SqlKind.IN ? Operator.IN : Operator.NOT_IN;
    SqlNode list = call.operand(1);
    if (!(list instanceof SqlNodeList items)) {
      return unsupported(
          list,
          "plan subquery in " + operator.symbol(),
          "subqueries are not supported",
          "list the values");
    }
    List<SqlNode> operands = new ArrayList<>();
    operands.add(call.operand(0));
    operands.addAll(items.getList());
    return operator(operator, call, operands);
  }

  private Node function(SqlCall call) {
    if (!(call.getOperator() instanceof SqlFunction) || !(call instanceof SqlBasicCall)) {
      return unsupported(
          call,
          "plan operator " + call.getOperator().getName(),
          "this operator is not supported",
          null);
    }
    List<Node> arguments = new ArrayList<>();
    for (SqlNode operand : call.getOperandList()) {
      arguments.add(convert(operand));
    }
    SqlLiteral quantifier = call.getFunctionQuantifier();
    boolean distinct =
        quantifier != null && "DISTINCT".equalsIgnoreCase(String.valueOf(quantifier.getValue()));
    return new FunctionNode(
        functionName(call), arguments, distinct, position(call.getParserPosition()));
  }

  // Unresolved functions (every name Calcite does not special-case, including COUNT and SUM) keep
  // the name as written; special-syntax ones (DATE_TRUNC) carry Calcite's upper-case name.
  private static String functionName(SqlNode node) {
    return node instanceof SqlCall call ? call.getOperator().getName() : node.toString();
  }
}
