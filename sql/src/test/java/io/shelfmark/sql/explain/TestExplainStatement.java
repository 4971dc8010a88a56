package io.shelfmark.sql.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.SqlPosition;
import org.junit.jupiter.api.Test;

class TestExplainStatement {
  @Test
  void notAnExplain() {
    assertThat(ExplainStatement.parse("SELECT 1")).isEmpty();
    assertThat(ExplainStatement.parse("  -- EXPLAIN\nSELECT explained FROM t")).isEmpty();
    assertThat(ExplainStatement.parse("")).isEmpty();
  }

  @Test
  void keepsTheQueryInPlace() {
    ExplainStatement explain = ExplainStatement.parse("explain\n  SELECT x FROM t").orElseThrow();
    assertThat(explain.analyze()).isFalse();
    assertThat(explain.verbose()).isFalse();
    assertThat(explain.query()).isEqualTo("       \n  SELECT x FROM t");
    assertThat(explain.mode()).isEqualTo("PLAN");
  }

  @Test
  void analyzeAndVerbose() {
    ExplainStatement explain =
        ExplainStatement.parse("/* c */ EXPLAIN Analyze VERBOSE SELECT 1").orElseThrow();
    assertThat(explain.analyze()).isTrue();
    assertThat(explain.verbose()).isTrue();
    assertThat(explain.query().strip()).isEqualTo("SELECT 1");
    assertThat(explain.query()).hasSize("/* c */ EXPLAIN Analyze VERBOSE SELECT 1".length());
    assertThat(ExplainStatement.parse("EXPLAIN VERBOSE SELECT 1").orElseThrow().analyze())
        .isFalse();
  }

  @Test
  void explainOfExplainIsRefusedWithItsPosition() {
    assertThatThrownBy(() -> ExplainStatement.parse("EXPLAIN\n  EXPLAIN SELECT 1"))
        .isInstanceOf(SqlException.class)
        .hasMessage(
            "Cannot explain EXPLAIN at line 2, column 3: an EXPLAIN cannot be explained (write EXPLAIN once, before the query)")
        .satisfies(
            e -> {
              SqlException sql = (SqlException) e;
              assertThat(sql.kind()).isEqualTo(SqlErrorKind.SYNTAX);
              assertThat(sql.position()).contains(new SqlPosition(2, 3));
            });
  }

  @Test
  void nonQueriesAreRefused() {
    assertThatThrownBy(() -> ExplainStatement.parse("EXPLAIN ANALYZE INSERT INTO t VALUES (1)"))
        .isInstanceOf(SqlException.class)
        .hasMessage(
            "Cannot explain INSERT at line 1, column 17: only a SELECT query can be explained (write EXPLAIN SELECT ...)");
    assertThatThrownBy(() -> ExplainStatement.parse("EXPLAIN  "))
        .hasMessage(
            "Cannot explain at line 1, column 10: no query follows EXPLAIN (write EXPLAIN SELECT ...)");
    assertThatThrownBy(() -> ExplainStatement.parse("EXPLAIN VERBOSE ANALYZE SELECT 1"))
        .hasMessage(
            "Cannot explain at line 1, column 17: unexpected ANALYZE (write EXPLAIN ANALYZE VERBOSE <query>)");
  }
}
