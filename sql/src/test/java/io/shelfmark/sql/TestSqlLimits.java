package io.shelfmark.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.shelfmark.sql.function.FunctionRegistry;
import io.shelfmark.sql.plan.QueryPlan;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Issue 21 finding 1: deep and flat expressions end with a plan or a {@link SqlErrorKind#LIMIT}
 * error naming the position and the config key, never a StackOverflowError. Planning runs on a
 * thread with a 512 KB stack, half the JVM's default, so a test that passes here has headroom.
 */
class TestSqlLimits {
  private static final String COUNT = "SELECT COUNT(*) FROM obs.metrics WHERE ";
  private static final long SMALL_STACK = 512 * 1024;

  @Test
  void flatOrChainOfTwoThousandTermsPlans() throws Exception {
    String where = chain("resolution = ", " OR ", 2_000);
    QueryPlan plan = onSmallStack(() -> planner(SqlLimits.defaults()).plan(COUNT + where));
    assertThat(plan.filter()).isPresent();
  }

  @Test
  void flatAndChainOfThreeThousandTermsPlans() throws Exception {
    String where = chain("resolution <> ", " AND ", 3_000);
    QueryPlan plan = onSmallStack(() -> planner(SqlLimits.defaults()).plan(COUNT + where));
    assertThat(plan.filter()).isPresent();
  }

  @Test
  void orChainBeyondTheTermLimitIsRefusedWithItsPosition() throws Exception {
    SqlException error =
        refused(
            new SqlLimits(100_000, 200, 100, 1_000), COUNT + chain("resolution = ", " OR ", 1_001));
    // The 1000th OR makes 1001 terms: refused before Calcite parses (its parse time grows with
    // the terms).
    String sql = COUNT + chain("resolution = ", " OR ", 1_001);
    int offset = 0;
    for (int or = 0; or < 1_000; or++) {
      offset = sql.indexOf(" OR ", offset) + 1;
    }
    int column = offset + 1;
    assertThat(error.getMessage())
        .startsWith(
            "Cannot plan query at line 1, column "
                + column
                + ": the query joins more than 1000 terms with AND or OR")
        .contains("broker.sql.max-logical-terms");
  }

  @Test
  void threeThousandNotsAreRefusedWithTheDepthLimit() throws Exception {
    SqlException error =
        refused(SqlLimits.defaults(), COUNT + "NOT ".repeat(3_000) + "resolution = 1");
    assertThat(error.getMessage())
        .startsWith("Cannot plan query at line 1, column ")
        .contains("NOT nests deeper than the limit of 200")
        .contains("broker.sql.max-expression-depth");
    // The first NOT beyond the limit, not the start of the query.
    assertThat(error.position().orElseThrow().column()).isGreaterThan(COUNT.length() + 4 * 190);
  }

  @Test
  void notsParenthesizedOneByOneAreRefusedOnTheTree() throws Exception {
    // Parentheses reset the lexical NOT run; the tree check still sees the depth.
    String where = "NOT (NOT ".repeat(120) + "resolution = 1" + ")".repeat(120);
    SqlException error = refused(SqlLimits.defaults(), COUNT + where);
    assertThat(error.getMessage()).contains("expressions nest deeper than the limit of 200");
  }

  @Test
  void wordsContainingAndOrNotAreNotKeywords() throws Exception {
    QueryPlan plan =
        onSmallStack(
            () ->
                new SqlPlanner(
                        TestingTables.PROVIDER,
                        FunctionRegistry.standard(),
                        new SqlLimits(10_000, 10, 100, 2))
                    .plan(
                        "SELECT COUNT(*) FROM obs.metrics WHERE metric = 'a AND b OR c NOT NOT NOT'"));
    assertThat(plan.filter()).isPresent();
  }

  @Test
  void threeThousandAdditionsAreRefusedWithTheDepthLimit() throws Exception {
    SqlException error =
        refused(SqlLimits.defaults(), COUNT + "resolution" + " + 1".repeat(3_000) + " > 0");
    assertThat(error.getMessage()).contains("expressions nest deeper than the limit of 200");
  }

  @Test
  void twoThousandNestedParenthesesAreRefusedAtTheFirstTooDeep() throws Exception {
    String sql = COUNT + "(".repeat(2_000) + "resolution = 1" + ")".repeat(2_000);
    SqlException error = refused(SqlLimits.defaults(), sql);
    assertThat(error.getMessage())
        .isEqualTo(
            "Cannot plan query at line 1, column "
                + (COUNT.length() + 201)
                + ": parentheses nest deeper than the limit of 200 (simplify the query, or raise"
                + " broker.sql.max-expression-depth in the cluster config)");
  }

  @Test
  void parenthesesInStringsAndCommentsDoNotCount() throws Exception {
    String sql =
        COUNT + "metric = '" + "(".repeat(500) + "' -- " + "(".repeat(500) + "\n AND org_id = 1";
    QueryPlan plan = onSmallStack(() -> planner(SqlLimits.defaults()).plan(sql));
    assertThat(plan.filter()).isPresent();
  }

  @Test
  void deepestConfigurableNestingStillParsesOnASmallStack() throws Exception {
    int depth = SqlLimits.MAX_MAX_EXPRESSION_DEPTH - 10;
    String sql = COUNT + "(".repeat(depth) + "resolution = 1" + ")".repeat(depth);
    SqlLimits limits = new SqlLimits(10_000, SqlLimits.MAX_MAX_EXPRESSION_DEPTH, 100, 100);
    QueryPlan plan = onSmallStack(() -> planner(limits).plan(sql));
    assertThat(plan.filter()).isPresent();
  }

  @Test
  void longestNotChainTheDefaultLengthAllowsIsRefusedNotOverflowed() throws Exception {
    String where = "NOT ".repeat((SqlLimits.DEFAULT_MAX_SQL_LENGTH - COUNT.length() - 20) / 4);
    SqlException error = refused(SqlLimits.defaults(), COUNT + where + "resolution = 1");
    assertThat(error.getMessage()).contains("NOT nests deeper than the limit of 200");
  }

  @Test
  void sqlLongerThanTheLimitIsRefused() throws Exception {
    SqlException error =
        refused(new SqlLimits(100, 200, 100, 100), COUNT + "metric = '" + "x".repeat(200) + "'");
    assertThat(error.getMessage())
        .startsWith(
            "Cannot plan query at line 1, column 101: the query is 250 characters, over"
                + " the limit of 100")
        .contains("broker.sql.max-length");
  }

  @Test
  void inListLongerThanTheLimitIsRefusedAtTheFirstValueBeyond() throws Exception {
    String values =
        IntStream.range(0, 11).mapToObj(Integer::toString).collect(Collectors.joining(", "));
    SqlException error =
        refused(new SqlLimits(10_000, 200, 10, 100), COUNT + "resolution NOT IN (" + values + ")");
    assertThat(error.getMessage())
        .startsWith(
            "Cannot plan query at line 1, column "
                + (COUNT.length()
                    + "resolution NOT IN (".length()
                    + "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, ".length()
                    + 1)
                + ": the IN list has 11 values, over the limit of 10")
        .contains("broker.sql.max-in-list-size");
  }

  private static String chain(String prefix, String operator, int terms) {
    return IntStream.range(0, terms)
        .mapToObj(i -> prefix + i)
        .collect(Collectors.joining(operator));
  }

  private static SqlException refused(SqlLimits limits, String sql) throws Exception {
    SqlException error =
        catchThrowableOfType(
            SqlException.class, () -> onSmallStack(() -> planner(limits).plan(sql)));
    assertThat(error).isNotNull();
    assertThat(error.kind()).isEqualTo(SqlErrorKind.LIMIT);
    assertThat(error.position()).isPresent();
    return error;
  }

  private static SqlPlanner planner(SqlLimits limits) {
    return new SqlPlanner(TestingTables.PROVIDER, FunctionRegistry.standard(), limits);
  }

  /** Runs {@code work} on a thread with a small stack and rethrows what it threw, Errors too. */
  private static <T> T onSmallStack(Supplier<T> work) throws Exception {
    CompletableFuture<T> result = new CompletableFuture<>();
    Thread thread =
        new Thread(
            null,
            () -> {
              try {
                result.complete(work.get());
              } catch (Throwable t) {
                result.completeExceptionally(t);
              }
            },
            "small-stack",
            SMALL_STACK);
    thread.start();
    try {
      return result.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new AssertionError("Planning failed with " + e.getCause(), e.getCause());
    }
  }
}
