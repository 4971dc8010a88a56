package io.shelfmark.segment.testing;

import io.shelfmark.segment.predicate.And;
import io.shelfmark.segment.predicate.Bound;
import io.shelfmark.segment.predicate.Eq;
import io.shelfmark.segment.predicate.In;
import io.shelfmark.segment.predicate.IsNull;
import io.shelfmark.segment.predicate.Not;
import io.shelfmark.segment.predicate.Or;
import io.shelfmark.segment.predicate.Predicate;
import io.shelfmark.segment.predicate.Range;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Random predicate trees over named columns: comparisons whose literals are mostly values the
 * column holds (so they match something) and sometimes values it does not, IS NULL, NOT, and AND/OR
 * of two or three operands, to a bounded depth.
 */
public final class RandomPredicates {
  private final TestingTable table;
  private final List<String> columns;
  private final SplittableRandom random;

  public RandomPredicates(TestingTable table, List<String> columns, long seed) {
    this.table = table;
    this.columns = List.copyOf(columns);
    this.random = new SplittableRandom(seed);
  }

  public Predicate next(int depth) {
    int choice = random.nextInt(depth <= 0 ? 6 : 10);
    return switch (choice) {
      case 0, 1 -> eq();
      case 2 -> in();
      case 3, 4 -> range();
      case 5 -> new IsNull(column());
      case 6 -> new Not(next(depth - 1));
      case 7, 8 -> new And(operands(depth));
      default -> new Or(operands(depth));
    };
  }

  private List<Predicate> operands(int depth) {
    int count = 2 + random.nextInt(2);
    List<Predicate> operands = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      operands.add(next(depth - 1));
    }
    return operands;
  }

  private String column() {
    return columns.get(random.nextInt(columns.size()));
  }

  private Eq eq() {
    String column = column();
    return new Eq(column, literal(column));
  }

  private In in() {
    String column = column();
    int count = 1 + random.nextInt(5);
    List<Value> values = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      values.add(literal(column));
    }
    return new In(column, values);
  }

  private Range range() {
    String column = column();
    Optional<Bound> lower = Optional.of(new Bound(literal(column), random.nextBoolean()));
    Optional<Bound> upper = Optional.of(new Bound(literal(column), random.nextBoolean()));
    switch (random.nextInt(4)) {
      case 0 -> lower = Optional.empty();
      case 1 -> upper = Optional.empty();
      case 2 -> {
        // Order the bounds so the range usually selects something.
        if (lower.get().value().compareTo(upper.get().value()) > 0) {
          Optional<Bound> swap = lower;
          lower = upper;
          upper = swap;
        }
      }
      default -> {}
    }
    return new Range(column, lower, upper);
  }

  /** A value the column holds (80%), or a nearby or extreme one. */
  public Value literal(String column) {
    ValueType type = table.type(column).orElseThrow();
    if (table.docCount() > 0 && random.nextInt(5) != 0) {
      for (int attempt = 0; attempt < 8; attempt++) {
        Value value = table.value(column, random.nextInt(table.docCount()));
        if (value != null) {
          return value;
        }
      }
    }
    return switch (type) {
      case LONG ->
          Value.of(
              switch (random.nextInt(4)) {
                case 0 -> Long.MIN_VALUE;
                case 1 -> Long.MAX_VALUE;
                default -> random.nextLong(-1000, 1000);
              });
      case DOUBLE ->
          Value.of(
              switch (random.nextInt(6)) {
                case 0 -> Double.NaN;
                case 1 -> Double.NEGATIVE_INFINITY;
                case 2 -> -0.0;
                case 3 -> Double.POSITIVE_INFINITY;
                default -> random.nextDouble(-1000, 1000);
              });
      case STRING -> Value.of(random.nextBoolean() ? "" : "value-" + random.nextInt(300));
    };
  }
}
