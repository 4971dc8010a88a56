package io.shelfmark.sql.bind;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.filter.FilterNormalizer;
import io.shelfmark.sql.function.FunctionRegistry;
import io.shelfmark.sql.plan.AggregateCall;
import io.shelfmark.sql.plan.ConstantQuery;
import io.shelfmark.sql.plan.NullOrder;
import io.shelfmark.sql.plan.OutputColumn;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.plan.SortKey;
import io.shelfmark.sql.schema.BoundTable;
import io.shelfmark.sql.schema.Column;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.sql.schema.TableSchemaProvider;
import io.shelfmark.sql.tree.IdentifierNode;
import io.shelfmark.sql.tree.LiteralNode;
import io.shelfmark.sql.tree.Node;
import io.shelfmark.sql.tree.OrderItem;
import io.shelfmark.sql.tree.SelectItem;
import io.shelfmark.sql.tree.SelectStatement;
import io.shelfmark.sql.tree.StarNode;
import io.shelfmark.sql.tree.TableReference;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Binds a {@link SelectStatement} against the table schemas into a {@link QueryPlan}: resolves the
 * table, columns and functions, types every expression, plans grouping and aggregation, and
 * normalises the filter. Errors name the offending thing and its position. Stateless and
 * thread-safe; each call binds one statement.
 */
public final class Binder {
  private final TableSchemaProvider tables;
  private final FunctionRegistry functions;

  public Binder(TableSchemaProvider tables, FunctionRegistry functions) {
    this.tables = requireNonNull(tables, "tables is null");
    this.functions = requireNonNull(functions, "functions is null");
  }

  /**
   * Binds a statement over a table.
   *
   * @throws IllegalArgumentException if it has no FROM (see {@link #bindConstant})
   */
  public QueryPlan bind(SelectStatement statement) {
    requireNonNull(statement, "statement is null");
    TableReference from =
        statement
            .from()
            .orElseThrow(() -> new IllegalArgumentException("the statement has no FROM"));
    ColumnResolver columns = new ColumnResolver(from, table(from));
    List<SelectItem> items = expandStars(statement.selectList(), columns);
    Optional<Expression> filter = filter(statement, columns);
    if (statement.distinct()) {
      statement = distinctAsGroupBy(statement, items);
    }
    if (isAggregated(statement, items)) {
      return aggregated(statement, items, columns, filter);
    }
    return plain(statement, items, columns, filter);
  }

  /**
   * Binds a statement without FROM: a select list of constants, folded to one row. Every other
   * clause is refused, as is anything that is not a constant.
   */
  public ConstantQuery bindConstant(SelectStatement statement) {
    requireNonNull(statement, "statement is null");
    checkArgument(statement.from().isEmpty(), "the statement has a FROM");
    refuseWithoutFrom(statement.where(), "WHERE");
    refuseWithoutFrom(statement.groupBy().stream().findFirst(), "GROUP BY");
    refuseWithoutFrom(statement.having(), "HAVING");
    refuseWithoutFrom(
        statement.orderBy().stream().findFirst().map(OrderItem::expression), "ORDER BY");
    ExpressionBinder binder = new ExpressionBinder(functions, new NoTableScope());
    List<OutputColumn> outputs = new ArrayList<>();
    for (SelectItem item : statement.selectList()) {
      if (item.expression() instanceof StarNode star) {
        throw SqlException.of(
            SqlErrorKind.INVALID,
            star.position(),
            "expand " + star.sql(),
            "a SELECT without FROM has no columns",
            "add FROM <table>");
      }
      Expression bound = binder.bindOrNull(item.expression());
      if (bound == null) {
        // DuckDB types a lone NULL as INTEGER; Pinot's clients only need its null value.
        bound = Literal.nullOf(io.shelfmark.sql.type.PrimitiveType.INT);
      }
      if (!(bound instanceof Literal)) {
        throw SqlException.of(
            SqlErrorKind.UNSUPPORTED,
            item.position(),
            "plan " + item.expression().sql() + " without FROM",
            "only constants are selected without a table",
            "add FROM <table>");
      }
      outputs.add(new OutputColumn(outputName(item), bound));
    }
    // DISTINCT, LIMIT and OFFSET over one row: LIMIT 0 or an OFFSET drops it; the broker applies
    // them to the row.
    return new ConstantQuery(outputs);
  }

  private static void refuseWithoutFrom(Optional<Node> clause, String name) {
    if (clause.isPresent()) {
      throw SqlException.of(
          SqlErrorKind.UNSUPPORTED,
          clause.get().position(),
          "plan " + name + " without FROM",
          "a SELECT without FROM selects one row of constants",
          "add FROM <table>");
    }
  }

  /**
   * {@code SELECT DISTINCT a, b} is {@code SELECT a, b ... GROUP BY 1, 2}: the same rows, and the
   * grouping machinery (and its index use) answers it.
   */
  private SelectStatement distinctAsGroupBy(SelectStatement statement, List<SelectItem> items) {
    boolean aggregates =
        items.stream()
            .anyMatch(item -> AggregateBinder.containsAggregate(item.expression(), functions));
    if (!statement.groupBy().isEmpty() || statement.having().isPresent() || aggregates) {
      throw SqlException.of(
          SqlErrorKind.UNSUPPORTED,
          statement.position(),
          "plan SELECT DISTINCT",
          "DISTINCT is supported over plain select lists, not with GROUP BY, HAVING or"
              + " aggregates",
          "drop DISTINCT: grouped rows are already distinct by their keys");
    }
    List<Node> keys = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      keys.add(
          new LiteralNode(
              LiteralNode.Kind.EXACT_NUMBER, Integer.toString(i + 1), items.get(i).position()));
    }
    return new SelectStatement(
        false,
        items,
        statement.from(),
        statement.where(),
        keys,
        statement.having(),
        statement.orderBy(),
        statement.limit(),
        statement.offset(),
        statement.position());
  }

  private BoundTable table(TableReference from) {
    return tables
        .table(from.name())
        .orElseThrow(
            () ->
                SqlException.of(
                    SqlErrorKind.UNRESOLVED,
                    from.position(),
                    "resolve table '" + from.name() + "'",
                    null,
                    "known tables: "
                        + String.join(
                            ", ", tables.tableNames().stream().map(TableName::toString).toList())));
  }

  private static List<SelectItem> expandStars(List<SelectItem> items, ColumnResolver columns) {
    List<SelectItem> expanded = new ArrayList<>();
    for (SelectItem item : items) {
      if (item.expression() instanceof StarNode star) {
        for (Column column : columns.star(star)) {
          expanded.add(
              new SelectItem(
                  new IdentifierNode(List.of(column.name()), star.position()),
                  Optional.empty(),
                  star.position()));
        }
      } else {
        expanded.add(item);
      }
    }
    return expanded;
  }

  private Optional<Expression> filter(SelectStatement statement, ColumnResolver columns) {
    if (statement.where().isEmpty()) {
      return Optional.empty();
    }
    ExpressionBinder binder =
        new ExpressionBinder(functions, new RowScope(columns, Clause.WHERE, null));
    Expression normalized =
        FilterNormalizer.normalize(binder.condition(statement.where().get(), "WHERE"));
    return normalized.equals(Literal.of(true)) ? Optional.empty() : Optional.of(normalized);
  }

  private boolean isAggregated(SelectStatement statement, List<SelectItem> items) {
    if (!statement.groupBy().isEmpty() || statement.having().isPresent()) {
      return true;
    }
    for (SelectItem item : items) {
      if (AggregateBinder.containsAggregate(item.expression(), functions)) {
        return true;
      }
    }
    for (OrderItem item : statement.orderBy()) {
      if (AggregateBinder.containsAggregate(item.expression(), functions)) {
        return true;
      }
    }
    return false;
  }

  private QueryPlan plain(
      SelectStatement statement,
      List<SelectItem> items,
      ColumnResolver columns,
      Optional<Expression> filter) {
    ExpressionBinder binder =
        new ExpressionBinder(functions, new RowScope(columns, Clause.SELECT, null));
    List<OutputColumn> outputs = new ArrayList<>();
    for (SelectItem item : items) {
      outputs.add(new OutputColumn(outputName(item), binder.bind(item.expression())));
    }
    OutputAliases aliases = new OutputAliases(outputs);
    ExpressionBinder orderBinder =
        new ExpressionBinder(functions, new RowScope(columns, Clause.ORDER_BY, aliases));
    List<SortKey> orderBy = orderBy(statement, outputs, aliases, orderBinder);
    if (statement.limit().isEmpty()) {
      // Checked after binding, so a mistake in the select list is reported first.
      throw SqlException.of(
          SqlErrorKind.INVALID,
          statement.position(),
          "plan SELECT without LIMIT",
          "a query that does not aggregate returns every matching row",
          "add LIMIT n, or aggregate with GROUP BY");
    }
    return new QueryPlan(
        columns.table(),
        filter,
        false,
        List.of(),
        List.of(),
        outputs,
        Optional.empty(),
        orderBy,
        statement.limit(),
        statement.offset().orElse(0));
  }

  private QueryPlan aggregated(
      SelectStatement statement,
      List<SelectItem> items,
      ColumnResolver columns,
      Optional<Expression> filter) {
    List<Expression> keys = groupKeys(statement, items, columns);
    List<AggregateCall> aggregates = new ArrayList<>();
    ExpressionBinder selectBinder =
        new ExpressionBinder(
            functions, new GroupScope(columns, functions, keys, aggregates, null, "SELECT"));
    List<OutputColumn> outputs = new ArrayList<>();
    for (SelectItem item : items) {
      outputs.add(new OutputColumn(outputName(item), selectBinder.bind(item.expression())));
    }
    OutputAliases aliases = new OutputAliases(outputs);
    Optional<Expression> having = Optional.empty();
    if (statement.having().isPresent()) {
      ExpressionBinder havingBinder =
          new ExpressionBinder(
              functions, new GroupScope(columns, functions, keys, aggregates, aliases, "HAVING"));
      Expression condition =
          FilterNormalizer.normalize(havingBinder.condition(statement.having().get(), "HAVING"));
      having = condition.equals(Literal.of(true)) ? Optional.empty() : Optional.of(condition);
    }
    ExpressionBinder orderBinder =
        new ExpressionBinder(
            functions, new GroupScope(columns, functions, keys, aggregates, aliases, "ORDER BY"));
    List<SortKey> orderBy = orderBy(statement, outputs, aliases, orderBinder);
    return new QueryPlan(
        columns.table(),
        filter,
        true,
        keys,
        aggregates,
        outputs,
        having,
        orderBy,
        statement.limit(),
        statement.offset().orElse(0));
  }

  private List<Expression> groupKeys(
      SelectStatement statement, List<SelectItem> items, ColumnResolver columns) {
    ExpressionBinder binder =
        new ExpressionBinder(functions, new RowScope(columns, Clause.GROUP_BY, null));
    List<Expression> keys = new ArrayList<>();
    for (Node node : statement.groupBy()) {
      Node keyNode = groupKeyNode(node, items, columns);
      Expression key = binder.bind(keyNode);
      if (!key.type().isPrimitive()) {
        throw SqlException.of(
            SqlErrorKind.INVALID,
            node.position(),
            "group by " + keyNode.sql(),
            "it is " + key.type().displayName(),
            "group by a scalar, such as one map key: " + keyNode.sql() + "['key']");
      }
      if (!keys.contains(key)) {
        keys.add(key);
      }
    }
    return keys;
  }

  // An ordinal or a select alias stands for the select item's expression; a column name wins over
  // an alias of the same name (GROUP BY keys are computed over rows).
  private Node groupKeyNode(Node node, List<SelectItem> items, ColumnResolver columns) {
    OptionalInt ordinal = ordinal(node);
    if (ordinal.isPresent()) {
      SelectItem item = selectItem(ordinal.getAsInt(), items, node, "GROUP BY");
      if (AggregateBinder.containsAggregate(item.expression(), functions)) {
        throw SqlException.of(
            SqlErrorKind.INVALID,
            node.position(),
            "group by ordinal " + ordinal.getAsInt(),
            "it refers to " + item.expression().sql() + ", which is an aggregate",
            "group by a column or an expression of columns");
      }
      return item.expression();
    }
    if (node instanceof IdentifierNode identifier
        && identifier.isSimple()
        && columns.find(identifier).isEmpty()) {
      for (SelectItem item : items) {
        if (item.alias().isPresent()
            && item.alias().get().equalsIgnoreCase(identifier.simpleName())) {
          return item.expression();
        }
      }
    }
    return node;
  }

  private List<SortKey> orderBy(
      SelectStatement statement,
      List<OutputColumn> outputs,
      OutputAliases aliases,
      ExpressionBinder binder) {
    List<SortKey> keys = new ArrayList<>();
    for (OrderItem item : statement.orderBy()) {
      Expression expression;
      OptionalInt ordinal = ordinal(item.expression());
      if (ordinal.isPresent()) {
        checkOrdinal(ordinal.getAsInt(), outputs.size(), item.expression(), "ORDER BY");
        expression = outputs.get(ordinal.getAsInt() - 1).expression();
      } else if (item.expression() instanceof IdentifierNode identifier
          && aliases.find(identifier).isPresent()) {
        expression = aliases.find(identifier).get();
      } else {
        expression = binder.bind(item.expression());
      }
      if (!expression.type().isOrderable()) {
        throw SqlException.of(
            SqlErrorKind.INVALID,
            item.position(),
            "order by " + item.expression().sql(),
            "it is " + expression.type().displayName() + ", which has no order",
            null);
      }
      keys.add(new SortKey(expression, item.direction(), item.nullOrder().orElse(NullOrder.LAST)));
    }
    return keys;
  }

  private static OptionalInt ordinal(Node node) {
    if (node instanceof LiteralNode literal && literal.kind() == LiteralNode.Kind.EXACT_NUMBER) {
      BigDecimal value = new BigDecimal(literal.value());
      if (value.scale() <= 0
          && value.signum() >= 0
          && value.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0) {
        return OptionalInt.of(value.intValueExact());
      }
    }
    return OptionalInt.empty();
  }

  private static SelectItem selectItem(
      int ordinal, List<SelectItem> items, Node node, String clause) {
    checkOrdinal(ordinal, items.size(), node, clause);
    return items.get(ordinal - 1);
  }

  private static void checkOrdinal(int ordinal, int size, Node node, String clause) {
    if (ordinal < 1 || ordinal > size) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          node.position(),
          "resolve " + clause + " ordinal " + ordinal,
          "the select list has " + size + (size == 1 ? " column" : " columns"),
          "ordinals count select-list columns from 1");
    }
  }

  private static String outputName(SelectItem item) {
    if (item.alias().isPresent()) {
      return item.alias().get();
    }
    return item.expression() instanceof IdentifierNode identifier
        ? identifier.simpleName()
        : item.expression().sql();
  }
}
