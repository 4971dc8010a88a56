package io.shelfmark.sql.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.sql.SqlPosition;
import io.shelfmark.sql.plan.NullOrder;
import io.shelfmark.sql.plan.SortDirection;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.sql.tree.FunctionNode;
import io.shelfmark.sql.tree.IdentifierNode;
import io.shelfmark.sql.tree.LiteralNode;
import io.shelfmark.sql.tree.OperatorNode;
import io.shelfmark.sql.tree.OperatorNode.Operator;
import io.shelfmark.sql.tree.OrderItem;
import io.shelfmark.sql.tree.SelectStatement;
import io.shelfmark.sql.tree.StarNode;
import io.shelfmark.sql.tree.SubscriptNode;
import io.shelfmark.sql.tree.UnsupportedNode;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Calcite's tree becomes Shelfmark's syntax tree, names and positions as written. */
class TestSqlParser {
  @Test
  void benchmarkQ4AsWritten() {
    SelectStatement statement =
        SqlParser.parse(
            """
            SELECT dimensions['service'] AS service, SUM(sum_rollup) AS total_value
            FROM obs.metrics
            WHERE org_id = '184833768' AND dimensions['node'] = 'xyz'
            GROUP BY dimensions['service'] ORDER BY total_value DESC""");

    assertThat(statement.from().orElseThrow().name()).isEqualTo(TableName.of("obs", "metrics"));
    assertThat(statement.from().orElseThrow().position()).isEqualTo(new SqlPosition(2, 6));
    assertThat(statement.selectList().get(0).alias()).contains("service");
    assertThat(statement.selectList().get(0).expression())
        .isEqualTo(
            new SubscriptNode(
                new IdentifierNode(List.of("dimensions"), new SqlPosition(1, 8)),
                new LiteralNode(LiteralNode.Kind.STRING, "service", new SqlPosition(1, 19)),
                new SqlPosition(1, 8)));
    assertThat(statement.selectList().get(1).expression())
        .isEqualTo(
            new FunctionNode(
                "SUM",
                List.of(new IdentifierNode(List.of("sum_rollup"), new SqlPosition(1, 46))),
                false,
                new SqlPosition(1, 42)));
    OperatorNode where = (OperatorNode) statement.where().orElseThrow();
    assertThat(where.operator()).isEqualTo(Operator.AND);
    assertThat(where.sql()).isEqualTo("org_id = '184833768' AND dimensions['node'] = 'xyz'");
    assertThat(statement.groupBy())
        .extracting(node -> node.sql())
        .containsExactly("dimensions['service']");
    assertThat(statement.orderBy())
        .containsExactly(
            new OrderItem(
                new IdentifierNode(List.of("total_value"), new SqlPosition(4, 41)),
                SortDirection.DESC,
                Optional.empty(),
                new SqlPosition(4, 41)));
  }

  @Test
  void identifierCaseIsKept() {
    SelectStatement statement =
        SqlParser.parse("SELECT \"Org_Id\", Metric, dateTrunc('Second', ts) FROM Obs.Metrics m");

    assertThat(statement.selectList())
        .extracting(item -> item.expression().sql())
        .containsExactly("Org_Id", "Metric", "datetrunc('Second', ts)");
    assertThat(((FunctionNode) statement.selectList().get(2).expression()).name())
        .isEqualTo("dateTrunc");
    assertThat(statement.from().orElseThrow().name()).isEqualTo(TableName.of("Obs", "Metrics"));
    assertThat(statement.from().orElseThrow().alias()).contains("m");
  }

  @Test
  void literalsKeepTheirKindAndText() {
    SelectStatement statement =
        SqlParser.parse(
            "SELECT 15000, -5, 1.50, 1e3, 'x', TRUE, NULL, DATE '2025-08-03',"
                + " TIMESTAMP '2025-08-03 14:00:00', COUNT(*), COUNT(DISTINCT a), t.* FROM t");

    assertThat(statement.selectList())
        .extracting(item -> item.expression().sql())
        .containsExactly(
            "15000",
            "-5",
            "1.50",
            "1E3",
            "'x'",
            "TRUE",
            "NULL",
            "DATE '2025-08-03'",
            "TIMESTAMP '2025-08-03 14:00:00'",
            "count(*)",
            "count(DISTINCT a)",
            "t.*");
    assertThat(statement.selectList().get(11).expression())
        .isEqualTo(new StarNode(List.of("t"), new SqlPosition(1, 128)));
  }

  @Test
  void predicatesAndNullOrdering() {
    SelectStatement statement =
        SqlParser.parse(
            "SELECT a FROM t WHERE a NOT IN (1, 2) AND b NOT LIKE 'x%' ESCAPE '\\'"
                + " AND c NOT BETWEEN 1 AND 2 AND d IS NOT NULL AND NOT e <> 1"
                + " ORDER BY a NULLS FIRST, b DESC NULLS LAST LIMIT 10 OFFSET 5");

    assertThat(statement.where().orElseThrow().sql())
        .isEqualTo(
            "a NOT IN (1, 2) AND b NOT LIKE 'x%' ESCAPE '\\' AND c NOT BETWEEN 1 AND 2"
                + " AND d IS NOT NULL AND NOT e <> 1");
    assertThat(statement.orderBy())
        .extracting(OrderItem::direction, OrderItem::nullOrder)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(SortDirection.ASC, Optional.of(NullOrder.FIRST)),
            org.assertj.core.groups.Tuple.tuple(SortDirection.DESC, Optional.of(NullOrder.LAST)));
    assertThat(statement.limit()).isEqualTo(OptionalLong.of(10));
    assertThat(statement.offset()).isEqualTo(OptionalLong.of(5));
  }

  @Test
  void unsupportedExpressionsBecomeNodesTheBinderRefuses() {
    SelectStatement statement =
        SqlParser.parse("SELECT a || 'x', SUM(a) OVER () FROM t WHERE a = ?");

    assertThat(statement.selectList())
        .extracting(item -> item.expression())
        .allMatch(UnsupportedNode.class::isInstance);
    assertThat(((OperatorNode) statement.where().orElseThrow()).operand(1))
        .isInstanceOf(UnsupportedNode.class);
  }

  @Test
  void linesEndingInCarriageReturnsCountLikeTheParser() {
    SourceText text = new SourceText("SELECT a\r\nFROM t\rWHERE x");

    assertThat(text.position(text.offset(new SqlPosition(3, 1)))).isEqualTo(new SqlPosition(3, 1));
    assertThat(text.wordAt(text.offset(new SqlPosition(3, 1)))).isEqualTo("WHERE");
    assertThat(text.wordBefore(text.offset(new SqlPosition(2, 1)))).isEqualTo("a");
    assertThat(text.keywordBefore("from", text.text().length())).contains(new SqlPosition(2, 1));
  }
}
