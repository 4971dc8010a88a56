package io.shelfmark.indexbuilder.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.segment.filter.FilterEvaluator;
import io.shelfmark.segment.filter.FilterResult;
import io.shelfmark.segment.predicate.And;
import io.shelfmark.segment.predicate.Bound;
import io.shelfmark.segment.predicate.ColumnPredicate;
import io.shelfmark.segment.predicate.Eq;
import io.shelfmark.segment.predicate.In;
import io.shelfmark.segment.predicate.IsNull;
import io.shelfmark.segment.predicate.Not;
import io.shelfmark.segment.predicate.Predicate;
import io.shelfmark.segment.predicate.Range;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.Value;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.roaringbitmap.RoaringBitmap;

/**
 * Checks a built segment against the values decoded from its data file: nulls, dictionary and
 * random comparisons ({@code =}, {@code IN}, ranges, {@code IS NULL}, {@code NOT =}, and ANDs of
 * two columns) evaluated through the segment's indexes, against a brute-force scan of the values.
 * Every comparison must come back exact (the builder only builds exact indexes here) and equal to
 * the scan.
 */
public final class RoundTripChecks {
  private RoundTripChecks() {}

  /** Checks every column of {@code expected} with {@code predicates} random predicates each. */
  public static void check(
      Segment segment, Map<String, Value[]> expected, long seed, int predicates)
      throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    FilterEvaluator evaluator = new FilterEvaluator(segment);
    List<String> columns = new ArrayList<>(expected.keySet());
    for (String column : columns) {
      Value[] values = expected.get(column);
      String where = "seed %d, %s of %s".formatted(seed, column, segment.name());
      assertThat(segment.docCount()).as(where).isEqualTo(values.length);
      checkNulls(segment, column, values, where);
      checkDictionary(segment, column, values, where);
      for (int i = 0; i < predicates; i++) {
        Predicate predicate = randomPredicate(column, values, random);
        checkPredicate(segment, evaluator, predicate, expected, where);
      }
    }
    for (int i = 0; i < predicates && columns.size() > 1; i++) {
      String first = columns.get(random.nextInt(columns.size()));
      String second = columns.get(random.nextInt(columns.size()));
      Predicate both =
          new And(
              List.of(
                  randomPredicate(first, expected.get(first), random),
                  randomPredicate(second, expected.get(second), random)));
      checkPredicate(
          segment, evaluator, both, expected, "seed %d, %s".formatted(seed, segment.name()));
    }
  }

  private static void checkNulls(Segment segment, String column, Value[] values, String where)
      throws IOException {
    RoaringBitmap nulls = new RoaringBitmap();
    for (int doc = 0; doc < values.length; doc++) {
      if (values[doc] == null) {
        nulls.add(doc);
      }
    }
    assertThat(segment.nulls(column)).as("nulls: %s", where).isEqualTo(nulls);
  }

  private static void checkDictionary(Segment segment, String column, Value[] values, String where)
      throws IOException {
    Optional<Dictionary> dictionary = segment.dictionary(column);
    if (dictionary.isEmpty()) {
      return;
    }
    TreeSet<Value> distinct = new TreeSet<>();
    for (Value value : values) {
      if (value != null) {
        distinct.add(value);
      }
    }
    List<Value> actual = new ArrayList<>();
    for (int id = 0; id < dictionary.get().size(); id++) {
      actual.add(dictionary.get().value(id));
    }
    assertThat(actual).as("dictionary: %s", where).containsExactlyElementsOf(distinct);
  }

  private static void checkPredicate(
      Segment segment,
      FilterEvaluator evaluator,
      Predicate predicate,
      Map<String, Value[]> expected,
      String where)
      throws IOException {
    FilterResult result = evaluator.evaluate(predicate);
    RoaringBitmap scan = new RoaringBitmap();
    int docs = expected.values().iterator().next().length;
    for (int doc = 0; doc < docs; doc++) {
      if (evaluate(predicate, expected, doc) == Boolean.TRUE) {
        scan.add(doc);
      }
    }
    String what = "%s: %s, %s".formatted(where, predicate, result);
    if (exactExpected(segment, predicate)) {
      assertThat(result.isExact()).as("exact: %s", what).isTrue();
      assertThat(result.definite()).as(what).isEqualTo(scan);
      return;
    }
    assertThat(RoaringBitmap.andNot(result.definite(), scan).isEmpty())
        .as("definite docs match: %s", what)
        .isTrue();
    RoaringBitmap possible = RoaringBitmap.or(result.definite(), result.candidates());
    assertThat(RoaringBitmap.andNot(scan, possible).isEmpty())
        .as("no match missed: %s", what)
        .isTrue();
  }

  private static final java.util.Set<String> EXACT =
      java.util.Set.of("inverted", "sorted", "range", "forward");

  private static boolean exactExpected(Segment segment, Predicate predicate) {
    return switch (predicate) {
      case IsNull isNull -> true;
      case Not not -> exactExpected(segment, not.operand());
      case And and -> and.operands().stream().allMatch(p -> exactExpected(segment, p));
      case ColumnPredicate comparison ->
          segment.indexIds(comparison.column()).stream().anyMatch(EXACT::contains);
      default -> false;
    };
  }

  /** TRUE, FALSE or null (UNKNOWN), in SQL's three-valued logic. */
  private static Boolean evaluate(Predicate predicate, Map<String, Value[]> values, int doc) {
    return switch (predicate) {
      case Eq eq -> compare(values, eq, doc, value -> value.compareTo(eq.value()) == 0);
      case In in ->
          compare(
              values,
              in,
              doc,
              value -> in.values().stream().anyMatch(literal -> literal.compareTo(value) == 0));
      case Range range -> compare(values, range, doc, range::contains);
      case IsNull isNull -> values.get(isNull.column())[doc] == null;
      case Not not -> {
        Boolean operand = evaluate(not.operand(), values, doc);
        yield operand == null ? null : !operand;
      }
      case And and -> {
        boolean unknown = false;
        for (Predicate operand : and.operands()) {
          Boolean result = evaluate(operand, values, doc);
          if (result == Boolean.FALSE) {
            yield false;
          }
          unknown |= result == null;
        }
        yield unknown ? null : true;
      }
      default -> throw new IllegalArgumentException("Cannot scan " + predicate);
    };
  }

  private static Boolean compare(
      Map<String, Value[]> values,
      ColumnPredicate predicate,
      int doc,
      java.util.function.Predicate<Value> test) {
    Value value = values.get(predicate.column())[doc];
    return value == null ? null : test.test(value);
  }

  /** A random comparison on {@code column}, with literals mostly drawn from its values. */
  public static Predicate randomPredicate(String column, Value[] values, SplittableRandom random) {
    Value some = literal(values, random);
    if (some == null) {
      return new IsNull(column);
    }
    Value other = literal(values, random);
    if (other == null) {
      other = some;
    }
    Value low = some.compareTo(other) <= 0 ? some : other;
    Value high = some.compareTo(other) <= 0 ? other : some;
    return switch (random.nextInt(7)) {
      case 0, 1 -> new Eq(column, some);
      case 2 -> new In(column, List.of(some, other, absent(some)));
      case 3 -> Range.between(column, low, high);
      case 4 ->
          new Range(column, Optional.of(new Bound(low, random.nextBoolean())), Optional.empty());
      case 5 -> random.nextBoolean() ? new IsNull(column) : new Not(new IsNull(column));
      default -> new Not(new Eq(column, some));
    };
  }

  /** A value of the column (or, one time in eight, a value it probably lacks); null if all null. */
  private static Value literal(Value[] values, SplittableRandom random) {
    for (int attempt = 0; attempt < 20 && values.length > 0; attempt++) {
      Value value = values[random.nextInt(values.length)];
      if (value != null) {
        return random.nextInt(8) == 0 ? absent(value) : value;
      }
    }
    return null;
  }

  private static Value absent(Value like) {
    return switch (like) {
      case Value.LongValue(long value) -> Value.of(value + 1);
      case Value.DoubleValue(double value) -> Value.of(value + 0.5);
      case Value.StringValue(String value) -> Value.of(value + "~absent");
    };
  }
}
