package io.shelfmark.sql.parse;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.SqlPosition;
import io.shelfmark.sql.plan.NullOrder;
import io.shelfmark.sql.plan.SortDirection;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.sql.tree.IdentifierNode;
import io.shelfmark.sql.tree.Node;
import io.shelfmark.sql.tree.OrderItem;
import io.shelfmark.sql.tree.SelectItem;
import io.shelfmark.sql.tree.SelectStatement;
import io.shelfmark.sql.tree.StarNode;
import io.shelfmark.sql.tree.TableReference;
import io.shelfmark.sql.tree.UnsupportedNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.jspecify.annotations.Nullable;

/**
 * Converts Calcite's statement tree to Shelfmark's {@link SelectStatement}, refusing
 * statement-level forms Shelfmark does not answer. Expressions are converted by {@link
 * ExpressionConverter}.
 */
final class NodeConverter {
  private static final String ONE_TABLE_HINT = "Shelfmark queries one table at a time";

  private final SourceText source;
  private final ExpressionConverter expressions;

  NodeConverter(SourceText source) {
    this.source = requireNonNull(source, "source is null");
    this.expressions = new ExpressionConverter();
  }

  static SqlPosition position(SqlParserPos pos) {
    // Nodes the parser synthesises carry line 0; they are never the subject of a message, but a
    // position must still be valid.
    return new SqlPosition(Math.max(1, pos.getLineNum()), Math.max(1, pos.getColumnNum()));
  }

  SelectStatement statement(SqlNode node) {
    SqlNode query = node;
    @Nullable SqlNodeList orderList = null;
    @Nullable SqlNode offset = null;
    @Nullable SqlNode fetch = null;
    if (node instanceof SqlOrderBy orderBy) {
      query = orderBy.query;
      orderList = orderBy.orderList;
      offset = orderBy.offset;
      fetch = orderBy.fetch;
    }
    if (!(query instanceof SqlSelect select)) {
      throw notASelect(query);
    }
    if (orderList == null || orderList.isEmpty()) {
      orderList = select.getOrderList();
    }
    offset = offset != null ? offset : select.getOffset();
    fetch = fetch != null ? fetch : select.getFetch();
    return select(select, orderList, offset, fetch);
  }

  private SqlException notASelect(SqlNode query) {
    SqlKind kind = query.getKind();
    SqlPosition position = position(query.getParserPosition());
    if (kind == SqlKind.UNION || kind == SqlKind.INTERSECT || kind == SqlKind.EXCEPT) {
      return setOperation((SqlCall) query);
    }
    return switch (kind) {
      case WITH ->
          SqlException.of(
              SqlErrorKind.UNSUPPORTED,
              position,
              "plan WITH",
              "common table expressions are not supported",
              ONE_TABLE_HINT + ": write the query over the table directly");
      case VALUES ->
          SqlException.of(
              SqlErrorKind.UNSUPPORTED,
              position,
              "plan VALUES",
              "Shelfmark answers SELECT ... FROM <table> queries only",
              null);
      default ->
          SqlException.of(
              SqlErrorKind.UNSUPPORTED,
              statementPosition(kind, position),
              "plan " + statementName(kind) + " statement",
              "Shelfmark answers SELECT queries only",
              "Iceberg tables are written by their own engines; Shelfmark only reads them");
    };
  }

  // Calcite places some statements (EXPLAIN) at their inner query: point at the keyword instead.
  private SqlPosition statementPosition(SqlKind kind, SqlPosition position) {
    String keyword = statementName(kind).split(" ")[0];
    return source
        .keywordBefore(keyword, source.offset(position) + keyword.length())
        .orElse(position);
  }

  private static String statementName(SqlKind kind) {
    return switch (kind) {
      case DESCRIBE_TABLE, DESCRIBE_SCHEMA -> "DESCRIBE";
      case SET_OPTION -> "SET";
      default -> kind.name().replace('_', ' ');
    };
  }

  private SqlException setOperation(SqlCall call) {
    String keyword = call.getKind().name();
    SqlNode right = call.operand(1);
    int rightStart = source.offset(position(right.getParserPosition()));
    SqlPosition position =
        source.keywordBefore(keyword, rightStart).orElse(position(call.getParserPosition()));
    return SqlException.of(
        SqlErrorKind.UNSUPPORTED,
        position,
        "plan " + keyword,
        "set operations are not supported",
        "run each SELECT as its own query");
  }

  private SelectStatement select(
      SqlSelect select,
      @Nullable SqlNodeList orderList,
      @Nullable SqlNode offset,
      @Nullable SqlNode fetch) {
    SqlPosition position = position(select.getParserPosition());
    rejectSelectModifiers(select, position);
    // Without FROM the select list is constants (SELECT 1, a client's connection check); the
    // binder refuses anything else.
    Optional<TableReference> from =
        select.getFrom() == null ? Optional.empty() : Optional.of(table(select.getFrom()));
    List<SelectItem> items = new ArrayList<>();
    for (SqlNode item : select.getSelectList()) {
      items.add(selectItem(item));
    }
    return new SelectStatement(
        select.isDistinct(),
        items,
        from,
        Optional.ofNullable(select.getWhere()).map(expressions::convert),
        groupBy(select.getGroup()),
        Optional.ofNullable(select.getHaving()).map(expressions::convert),
        orderBy(orderList),
        count(fetch, "LIMIT"),
        count(offset, "OFFSET"),
        position);
  }

  private void rejectSelectModifiers(SqlSelect select, SqlPosition position) {
    SqlNodeList windows = select.getWindowList();
    if (windows != null && !windows.isEmpty()) {
      throw SqlException.of(
          SqlErrorKind.UNSUPPORTED,
          position(windows.get(0).getParserPosition()),
          "plan WINDOW clause",
          "window functions are not supported",
          null);
    }
    if (select.getQualify() != null) {
      throw SqlException.of(
          SqlErrorKind.UNSUPPORTED,
          position(select.getQualify().getParserPosition()),
          "plan QUALIFY",
          "window functions are not supported",
          null);
    }
    SqlNodeList hints = select.getHints();
    if (hints != null && !hints.isEmpty()) {
      throw SqlException.of(
          SqlErrorKind.UNSUPPORTED,
          position(hints.get(0).getParserPosition()),
          "plan query hint",
          "hints are not supported",
          "remove the /*+ ... */ comment");
    }
  }

  private TableReference table(SqlNode from) {
    SqlPosition position = position(from.getParserPosition());
    if (from instanceof SqlIdentifier identifier && !identifier.isStar()) {
      return new TableReference(new TableName(identifier.names), Optional.empty(), position);
    }
    if (from.getKind() == SqlKind.AS) {
      SqlCall as = (SqlCall) from;
      if (as.operandCount() > 2) {
        throw SqlException.of(
            SqlErrorKind.UNSUPPORTED,
            position(as.operand(2).getParserPosition()),
            "plan column aliases in FROM",
            "a table alias cannot rename columns",
            "alias the columns in the select list");
      }
      TableReference table = table(as.operand(0));
      String alias = ((SqlIdentifier) as.operand(1)).getSimple();
      return new TableReference(table.name(), Optional.of(alias), table.position());
    }
    if (from instanceof SqlJoin join) {
      throw join(join);
    }
    if (from.getKind().belongsTo(SqlKind.QUERY)) {
      throw SqlException.of(
          SqlErrorKind.UNSUPPORTED,
          position,
          "plan subquery in FROM",
          "subqueries are not supported",
          ONE_TABLE_HINT + ": query the table directly");
    }
    throw SqlException.of(
        SqlErrorKind.UNSUPPORTED,
        position,
        "plan " + from.getKind().name().replace('_', ' ') + " in FROM",
        "FROM takes one table name",
        ONE_TABLE_HINT);
  }

  private SqlException join(SqlJoin join) {
    JoinType type = join.getJoinType();
    String name =
        switch (type) {
          case COMMA -> "comma join";
          case INNER -> "JOIN";
          default -> type.name().replace('_', ' ') + " JOIN";
        };
    return SqlException.of(
        SqlErrorKind.UNSUPPORTED,
        position(join.getParserPosition()),
        "plan " + name,
        "joins are not supported",
        ONE_TABLE_HINT);
  }

  private SelectItem selectItem(SqlNode item) {
    SqlPosition position = position(item.getParserPosition());
    if (item.getKind() == SqlKind.AS) {
      SqlCall as = (SqlCall) item;
      String alias = ((SqlIdentifier) as.operand(1)).getSimple();
      return new SelectItem(expressions.convert(as.operand(0)), Optional.of(alias), position);
    }
    return new SelectItem(expressions.convert(item), Optional.empty(), position);
  }

  private List<Node> groupBy(@Nullable SqlNodeList group) {
    List<Node> keys = new ArrayList<>();
    if (group == null) {
      return keys;
    }
    for (SqlNode key : group) {
      SqlKind kind = key.getKind();
      if (kind == SqlKind.ROLLUP
          || kind == SqlKind.CUBE
          || kind == SqlKind.GROUPING_SETS
          || key instanceof SqlNodeList) {
        throw SqlException.of(
            SqlErrorKind.UNSUPPORTED,
            position(key.getParserPosition()),
            "plan " + (key instanceof SqlNodeList ? "grouping set" : kind.sql),
            "grouping sets are not supported",
            "run one query per grouping");
      }
      keys.add(expressions.convert(key));
    }
    return keys;
  }

  private List<OrderItem> orderBy(@Nullable SqlNodeList orderList) {
    List<OrderItem> items = new ArrayList<>();
    if (orderList == null) {
      return items;
    }
    for (SqlNode item : orderList) {
      items.add(orderItem(item));
    }
    return items;
  }

  private OrderItem orderItem(SqlNode item) {
    SqlNode node = item;
    Optional<NullOrder> nulls = Optional.empty();
    if (node.getKind() == SqlKind.NULLS_FIRST || node.getKind() == SqlKind.NULLS_LAST) {
      nulls = Optional.of(node.getKind() == SqlKind.NULLS_FIRST ? NullOrder.FIRST : NullOrder.LAST);
      node = ((SqlCall) node).operand(0);
    }
    SortDirection direction = SortDirection.ASC;
    if (node.getKind() == SqlKind.DESCENDING) {
      direction = SortDirection.DESC;
      node = ((SqlCall) node).operand(0);
    }
    return new OrderItem(
        expressions.convert(node), direction, nulls, position(node.getParserPosition()));
  }

  private OptionalLong count(@Nullable SqlNode node, String clause) {
    if (node == null) {
      return OptionalLong.empty();
    }
    SqlPosition position = position(node.getParserPosition());
    if (!(node instanceof SqlNumericLiteral literal) || !literal.isExact()) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          position,
          "plan " + clause,
          "it must be an integer literal, not " + node,
          clause + " takes a non-negative integer");
    }
    BigDecimal value = requireNonNull(literal.getValueAs(BigDecimal.class));
    try {
      long count = value.longValueExact();
      if (count < 0) {
        throw SqlException.of(
            SqlErrorKind.INVALID,
            position,
            "plan " + clause,
            "a negative count is not allowed",
            clause + " takes a non-negative integer");
      }
      return OptionalLong.of(count);
    } catch (ArithmeticException e) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          position,
          "plan " + clause,
          value.toPlainString() + " is not an integer in the BIGINT range",
          clause + " takes a non-negative integer");
    }
  }

  static IdentifierNode identifier(SqlIdentifier identifier) {
    return new IdentifierNode(identifier.names, position(identifier.getParserPosition()));
  }

  static StarNode star(SqlIdentifier identifier) {
    List<String> qualifier = identifier.names.subList(0, identifier.names.size() - 1);
    return new StarNode(qualifier, position(identifier.getParserPosition()));
  }

  static UnsupportedNode unsupported(
      SqlNode node, String action, @Nullable String detail, @Nullable String hint) {
    return new UnsupportedNode(action, detail, hint, position(node.getParserPosition()));
  }
}
