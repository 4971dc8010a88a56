package io.shelfmark.testing.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestResultComparison {
  private static final double TOLERANCE = ResultComparison.DEFAULT_TOLERANCE;

  @Test
  void orderedComparisonRespectsOrder() {
    QueryResult expected = result(List.of("a", 1L), List.of("b", 2L));
    QueryResult swapped = result(List.of("b", 2L), List.of("a", 1L));

    ResultComparison.assertEquivalent(expected, swapped, false, TOLERANCE);
    assertThatThrownBy(() -> ResultComparison.assertEquivalent(expected, swapped, true, TOLERANCE))
        .isInstanceOf(AssertionError.class)
        .hasMessage(
            """
            Results differ (in order, relative tolerance 1.0E-9): expected 2 rows, got 2 rows; \
            columns [key, value]
            first difference at row 0, column 0 (key):
              expected: [a, 1]
              actual:   [b, 2]
            expected rows 0..1:
              [a, 1]
              [b, 2]
            actual rows 0..1:
              [b, 2]
              [a, 1]""");
  }

  @Test
  void multisetsCountDuplicates() {
    QueryResult twice = result(List.of("a", 1L), List.of("a", 1L), List.of("b", 2L));
    QueryResult once = result(List.of("b", 2L), List.of("a", 1L));

    assertThatThrownBy(() -> ResultComparison.assertEquivalent(twice, once, false, TOLERANCE))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith(
            "Results differ (as multisets, relative tolerance 1.0E-9): expected 3 rows, got 2"
                + " rows; columns [key, value]\nfirst difference at sorted row 1, column 0 (key):\n"
                + "  expected: [a, 1]\n  actual:   [b, 2]");
  }

  @Test
  void doublesWithinRelativeToleranceAreEqual() {
    QueryResult expected = result(List.of("a", 1e12), List.of("b", 0.0));
    QueryResult close = result(List.of("a", 1e12 * (1 + 5e-10)), List.of("b", 1e-12));
    QueryResult far = result(List.of("a", 1e12 * (1 + 5e-9)), List.of("b", 0.0));

    ResultComparison.assertEquivalent(expected, close, true, TOLERANCE);
    assertThat(ResultComparison.difference(expected, far, true, TOLERANCE, Map.of()))
        .hasValueSatisfying(
            text -> assertThat(text).contains("first difference at row 0, column 1 (value)"));
  }

  @Test
  void integersCompareExactlyAndAgainstDoublesAsNumbers() {
    assertThat(ResultComparison.valuesEqual(3L, 3L, TOLERANCE, null)).isTrue();
    assertThat(ResultComparison.valuesEqual(1_000_000_000_001L, 1_000_000_000_000L, 0.1, null))
        .isFalse();
    assertThat(ResultComparison.valuesEqual(3L, 3.0, TOLERANCE, null)).isTrue();
    assertThat(ResultComparison.valuesEqual(Double.NaN, Double.NaN, TOLERANCE, null)).isTrue();
    assertThat(ResultComparison.valuesEqual(null, 0L, TOLERANCE, null)).isFalse();
    assertThat(ResultComparison.valuesEqual(null, null, TOLERANCE, null)).isTrue();
    assertThat(ResultComparison.valuesEqual("1", 1L, TOLERANCE, null)).isFalse();
  }

  @Test
  void approximateColumnsAllowTheirOwnTolerance() {
    QueryResult exact = result(List.of("a", 1000L));
    QueryResult estimate = result(List.of("a", 1030L));

    ResultComparison.assertEquivalent(exact, estimate, true, TOLERANCE, Map.of(1, 0.05));
    assertThatThrownBy(() -> ResultComparison.assertEquivalent(exact, estimate, true, TOLERANCE))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("column 1 (value)");
  }

  @Test
  void columnCountMustMatchAndRowsCarryNulls() {
    QueryResult two = result(Arrays.asList("a", null));
    QueryResult one = new QueryResult(List.of("key"), List.of(List.of("a")));
    assertThatThrownBy(() -> ResultComparison.assertEquivalent(two, one, false, TOLERANCE))
        .isInstanceOf(AssertionError.class)
        .hasMessage(
            "Results differ (as multisets, relative tolerance 1.0E-9): expected 2 columns [key,"
                + " value] but got 1 columns [key]");
    ResultComparison.assertEquivalent(two, result(Arrays.asList("a", null)), true, TOLERANCE);
    assertThatThrownBy(() -> new QueryResult(List.of("a", "b"), List.of(List.of(1L))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot make result: row 0 has 1 values but there are 2 columns [a, b]");
  }

  @Test
  void foreignValuesAreNormalised() {
    QueryResult result =
        QueryResult.normalized(
            List.of("i", "f", "chars"), List.of(List.of(7, 1.5f, new StringBuilder("x"))));
    assertThat(result.rows()).containsExactly(List.of(7L, 1.5, "x"));
    assertThatThrownBy(() -> ResultValues.normalize(new Object()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot normalise result value java.lang.Object@")
        .hasMessageEndingWith(
            ": type java.lang.Object has no normal form (convert it to a number, string, date or"
                + " list first)");
  }

  @SafeVarargs
  private static QueryResult result(List<Object>... rows) {
    return new QueryResult(List.of("key", "value"), List.of(rows));
  }
}
