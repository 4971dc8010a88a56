package io.shelfmark.testing.oracle;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Compares two {@link QueryResult}s the way a differential test needs: in order or as multisets,
 * integers exactly, floating-point values within a relative tolerance, with a readable account of
 * the first difference.
 *
 * <p>Two numbers are equal when both are integers ({@link Long}) and equal, or, when either is a
 * {@link Double}, when {@code |a − b| ≤ tolerance × max(|a|, |b|, 1)}: relative for values of
 * magnitude 1 or more, absolute (the tolerance itself) below that, so that a sum of doubles that
 * should be 0 and came out as 1e-13 still matches. NaN equals NaN; infinities equal themselves. An
 * integer and a double compare as numbers (Pinot answers SUM of integers as a double). Column names
 * are not compared (aliases differ between dialects); the column count is.
 *
 * <p>Columns listed as approximate (such as Shelfmark's {@code DISTINCTCOUNTHLL} against DuckDB's
 * exact {@code COUNT(DISTINCT)}) compare every number, integers included, within their own relative
 * tolerance.
 */
public final class ResultComparison {
  /**
   * The default relative tolerance for doubles: 1e-9 (sums in another order differ in the ulps).
   */
  public static final double DEFAULT_TOLERANCE = 1e-9;

  private static final int ROWS_SHOWN = 5;

  private ResultComparison() {}

  /**
   * {@link #assertEquivalent(QueryResult, QueryResult, boolean, double, Map)} with no approximate
   * column.
   */
  public static void assertEquivalent(
      QueryResult expected, QueryResult actual, boolean ordered, double doubleTolerance) {
    assertEquivalent(expected, actual, ordered, doubleTolerance, Map.of());
  }

  /**
   * Throws {@link AssertionError} describing the first difference unless the results are
   * equivalent.
   *
   * @param ordered compare rows in order; otherwise as multisets
   * @param doubleTolerance the relative tolerance for doubles (see the class comment)
   * @param approximateColumns column index → relative tolerance for every number in that column
   */
  public static void assertEquivalent(
      QueryResult expected,
      QueryResult actual,
      boolean ordered,
      double doubleTolerance,
      Map<Integer, Double> approximateColumns) {
    Optional<String> difference =
        difference(expected, actual, ordered, doubleTolerance, approximateColumns);
    if (difference.isPresent()) {
      throw new AssertionError(difference.get());
    }
  }

  /** The description of the first difference, or empty when the results are equivalent. */
  public static Optional<String> difference(
      QueryResult expected,
      QueryResult actual,
      boolean ordered,
      double doubleTolerance,
      Map<Integer, Double> approximateColumns) {
    requireNonNull(expected, "expected is null");
    requireNonNull(actual, "actual is null");
    requireNonNull(approximateColumns, "approximateColumns is null");
    if (!(doubleTolerance >= 0)) {
      throw new IllegalArgumentException(
          "Cannot compare results: tolerance " + doubleTolerance + " (expected 0 or more)");
    }
    String mode =
        (ordered ? "in order" : "as multisets") + ", relative tolerance " + doubleTolerance;
    if (expected.columns().size() != actual.columns().size()) {
      return Optional.of(
          "Results differ ("
              + mode
              + "): expected "
              + expected.columns().size()
              + " columns "
              + expected.columns()
              + " but got "
              + actual.columns().size()
              + " columns "
              + actual.columns());
    }
    List<List<Object>> expectedRows = expected.rows();
    List<List<Object>> actualRows = actual.rows();
    if (!ordered) {
      expectedRows = sorted(expectedRows);
      actualRows = sorted(actualRows);
    }
    int common = Math.min(expectedRows.size(), actualRows.size());
    for (int i = 0; i < common; i++) {
      int column =
          differingColumn(
              expectedRows.get(i), actualRows.get(i), doubleTolerance, approximateColumns);
      if (column >= 0) {
        return Optional.of(
            describe(mode, expected, actual, expectedRows, actualRows, i, column, ordered));
      }
    }
    if (expectedRows.size() != actualRows.size()) {
      return Optional.of(
          describe(mode, expected, actual, expectedRows, actualRows, common, -1, ordered));
    }
    return Optional.empty();
  }

  private static String describe(
      String mode,
      QueryResult expected,
      QueryResult actual,
      List<List<Object>> expectedRows,
      List<List<Object>> actualRows,
      int row,
      int column,
      boolean ordered) {
    StringBuilder text = new StringBuilder();
    text.append("Results differ (")
        .append(mode)
        .append("): expected ")
        .append(expectedRows.size())
        .append(" rows, got ")
        .append(actualRows.size())
        .append(" rows; columns ")
        .append(expected.columns());
    if (!expected.columns().equals(actual.columns())) {
      text.append(" vs ").append(actual.columns());
    }
    text.append("\nfirst difference at ").append(ordered ? "row " : "sorted row ").append(row);
    if (column >= 0) {
      text.append(", column ").append(column).append(" (").append(expected.columns().get(column));
      text.append(")");
    }
    text.append(":\n  expected: ").append(rowAt(expectedRows, row));
    text.append("\n  actual:   ").append(rowAt(actualRows, row));
    appendRows(text, "expected", expectedRows, row);
    appendRows(text, "actual", actualRows, row);
    return text.toString();
  }

  private static String rowAt(List<List<Object>> rows, int index) {
    return index < rows.size() ? String.valueOf(rows.get(index)) : "(no row)";
  }

  private static void appendRows(
      StringBuilder text, String side, List<List<Object>> rows, int from) {
    int end = Math.min(rows.size(), from + ROWS_SHOWN);
    if (from >= end) {
      return;
    }
    text.append("\n").append(side).append(" rows ").append(from).append("..").append(end - 1);
    text.append(":");
    for (int i = from; i < end; i++) {
      text.append("\n  ").append(rows.get(i));
    }
  }

  /** The first column whose values differ, or -1. */
  private static int differingColumn(
      List<Object> expected,
      List<Object> actual,
      double tolerance,
      Map<Integer, Double> approximateColumns) {
    for (int i = 0; i < expected.size(); i++) {
      Double approximate = approximateColumns.get(i);
      if (!valuesEqual(expected.get(i), actual.get(i), tolerance, approximate)) {
        return i;
      }
    }
    return -1;
  }

  static boolean valuesEqual(Object expected, Object actual, double tolerance, Double approximate) {
    if (expected == null || actual == null) {
      return expected == actual;
    }
    if (expected instanceof Number a && actual instanceof Number b) {
      if (approximate != null) {
        return closeEnough(a.doubleValue(), b.doubleValue(), approximate);
      }
      if (a instanceof Long x && b instanceof Long y) {
        return x.longValue() == y.longValue();
      }
      return closeEnough(a.doubleValue(), b.doubleValue(), tolerance);
    }
    if (expected instanceof List<?> a && actual instanceof List<?> b) {
      if (a.size() != b.size()) {
        return false;
      }
      for (int i = 0; i < a.size(); i++) {
        if (!valuesEqual(a.get(i), b.get(i), tolerance, approximate)) {
          return false;
        }
      }
      return true;
    }
    return expected.equals(actual);
  }

  private static boolean closeEnough(double a, double b, double tolerance) {
    if (Double.isNaN(a) || Double.isNaN(b)) {
      return Double.isNaN(a) && Double.isNaN(b);
    }
    if (a == b) {
      return true;
    }
    double scale = Math.max(1.0, Math.max(Math.abs(a), Math.abs(b)));
    return Math.abs(a - b) <= tolerance * scale;
  }

  // Multisets compare after sorting both sides the same way. Numbers sort after every other
  // column has been compared, so two rows that differ only in the last ulps of a double still
  // line up against each other.
  private static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(ROW_ORDER);
    return copy;
  }

  private static final Comparator<List<Object>> ROW_ORDER =
      (left, right) -> {
        int size = Math.min(left.size(), right.size());
        for (int i = 0; i < size; i++) {
          int c = compareNonNumbers(left.get(i), right.get(i));
          if (c != 0) {
            return c;
          }
        }
        for (int i = 0; i < size; i++) {
          if (left.get(i) instanceof Number a && right.get(i) instanceof Number b) {
            int c = Double.compare(a.doubleValue(), b.doubleValue());
            if (c != 0) {
              return c;
            }
          }
        }
        return Integer.compare(left.size(), right.size());
      };

  private static int compareNonNumbers(Object a, Object b) {
    int rank = Integer.compare(rank(a), rank(b));
    if (rank != 0 || a == null || a instanceof Number) {
      return rank;
    }
    if (a instanceof Comparable<?> && a.getClass() == b.getClass()) {
      @SuppressWarnings("unchecked")
      Comparable<Object> comparable = (Comparable<Object>) a;
      return comparable.compareTo(b);
    }
    return String.valueOf(a).compareTo(String.valueOf(b));
  }

  private static int rank(Object value) {
    return switch (value) {
      case null -> 0;
      case Boolean _ -> 1;
      case Number _ -> 2;
      case String _ -> 3;
      default -> 4 + Math.floorMod(value.getClass().getName().hashCode(), 1000);
    };
  }
}
