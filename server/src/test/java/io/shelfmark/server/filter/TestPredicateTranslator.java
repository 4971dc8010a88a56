package io.shelfmark.server.filter;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.server.filter.PredicateTranslator.SegmentColumn;
import io.shelfmark.sql.SqlPlanner;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.MapKeyRef;
import io.shelfmark.sql.schema.BoundTable;
import io.shelfmark.sql.schema.Column;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.sql.schema.TableSchemaProvider;
import io.shelfmark.sql.type.MapType;
import io.shelfmark.sql.type.PrimitiveType;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TestPredicateTranslator {
  private static final BoundTable TABLE =
      new BoundTable(
          TableName.of("t"),
          List.of(
              new Column("a", PrimitiveType.LONG, true),
              new Column("r", PrimitiveType.INT, true),
              new Column("s", PrimitiveType.STRING, true),
              new Column("unindexed", PrimitiveType.LONG, true),
              new Column("m", new MapType(PrimitiveType.STRING, PrimitiveType.STRING), true)));
  private static final SqlPlanner PLANNER = new SqlPlanner(TableSchemaProvider.of(TABLE));

  // The segment knows a, r, s and m['node'], but not unindexed nor m['other'].
  private static final PredicateTranslator TRANSLATOR =
      new PredicateTranslator(
          leaf ->
              switch (leaf) {
                case ColumnRef column when !column.name().equals("unindexed") ->
                    Optional.of(
                        new SegmentColumn(
                            column.name(),
                            column.name().equals("s") ? ValueType.STRING : ValueType.LONG));
                case MapKeyRef key when key.key().equals("node") ->
                    Optional.of(new SegmentColumn("m['node']", ValueType.STRING));
                default -> Optional.empty();
              });

  private static List<String> translate(String condition) {
    List<Expression> conjuncts =
        PLANNER.plan("SELECT COUNT(*) FROM t WHERE " + condition).filterConjuncts();
    return conjuncts.stream()
        .map(term -> TRANSLATOR.translate(term).map(Object::toString).orElse("residual " + term))
        .toList();
  }

  @Test
  void translatesComparisonsOnIndexedColumns() {
    assertThat(translate("r = 15000 AND a >= 10 AND a <= 20 AND s <> 'x'"))
        .containsExactly("r = 15000", "a >= 10", "a <= 20", "NOT (s = 'x')");
    assertThat(translate("m['node'] = 'xyz'")).containsExactly("m['node'] = 'xyz'");
    assertThat(translate("a BETWEEN 1 AND 5")).containsExactly("a >= 1 AND a <= 5");
    // IN keeps its values sorted and distinct; a NULL item cannot make a row pass.
    assertThat(translate("a IN (3, 1, NULL, 3)")).containsExactly("a IN (1, 3)");
    // Never TRUE: a NOT IN holding a NULL, an IN of only NULLs. Nothing matches.
    assertThat(translate("a NOT IN (1, NULL)"))
        .containsExactly("(a IS NULL) AND (NOT (a IS NULL))");
    assertThat(translate("a IN (NULL)")).containsExactly("(a IS NULL) AND (NOT (a IS NULL))");
    assertThat(translate("s LIKE 'exact'")).containsExactly("s = 'exact'");
    assertThat(translate("s IS NULL OR a > 3")).containsExactly("(s IS NULL) OR (a > 3)");
    assertThat(translate("5 < a")).containsExactly("a > 5");
    // A literal prefix then only %: a range of the string order, matched over the dictionary.
    assertThat(translate("s LIKE 'tk%'")).containsExactly("s >= 'tk' AND s < 'tl'");
    assertThat(translate("s LIKE 'tk%%'")).containsExactly("s >= 'tk' AND s < 'tl'");
    assertThat(translate("s NOT LIKE 'tk%'")).containsExactly("NOT (s >= 'tk' AND s < 'tl')");
  }

  @Test
  void prefixRangesCoverExactlyTheValuesWithThePrefix() {
    // The next code point after the last; past U+D7FF comes U+E000 (no surrogates in UTF-8);
    // after U+10FFFF the bound moves to the character before; none is left for a prefix of only
    // U+10FFFF, whose values are all at or above it.
    assertThat(upper("ab")).contains("ac");
    assertThat(upper("a\uD7FF")).contains("a\uE000");
    assertThat(upper("a\uDBFF\uDFFF")).contains("b");
    assertThat(upper("\uDBFF\uDFFF")).isEmpty();
    assertThat(upper("a\u00FF")).contains("a\u0100");
  }

  private static Optional<String> upper(String prefix) {
    return PredicateTranslator.prefixRange("s", prefix)
        .upper()
        .map(bound -> ((Value.StringValue) bound.value()).value());
  }

  @Test
  void leavesWhatNoIndexCanAnswerAsResidual() {
    assertThat(translate("unindexed = 1")).containsExactly("residual (unindexed = 1)");
    assertThat(translate("m['other'] = 'x'")).containsExactly("residual (m['other'] = 'x')");
    assertThat(translate("a + 1 > 3")).containsExactly("residual ((a + 1) > 3)");
    assertThat(translate("s LIKE 'tk_c%'")).containsExactly("residual (s LIKE 'tk_c%')");
    assertThat(translate("s LIKE '%tk'")).containsExactly("residual (s LIKE '%tk')");
    assertThat(translate("s LIKE 't%k'")).containsExactly("residual (s LIKE 't%k')");
    assertThat(translate("s LIKE '%'")).containsExactly("residual (s LIKE '%')");
    // One untranslatable leaf makes the whole OR residual.
    assertThat(translate("a = 1 OR unindexed = 2"))
        .containsExactly("residual ((a = 1) OR (unindexed = 2))");
  }
}
