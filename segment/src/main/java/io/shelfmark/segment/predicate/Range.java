package io.shelfmark.segment.predicate;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import java.util.Optional;

/**
 * {@code column > / >= lower AND column < / <= upper}, with either bound optional (not both
 * missing): {@code <}, {@code <=}, {@code >}, {@code >=} and {@code BETWEEN}. A range whose lower
 * bound lies above its upper bound is valid and matches nothing.
 */
public record Range(String column, Optional<Bound> lower, Optional<Bound> upper)
    implements ColumnPredicate {
  public Range {
    requireNonNull(column, "column is null");
    requireNonNull(lower, "lower is null");
    requireNonNull(upper, "upper is null");
    if (lower.isEmpty() && upper.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot build a range on "
              + column
              + " without bounds (use IS NOT NULL for every non-null value)");
    }
    if (lower.isPresent()
        && upper.isPresent()
        && lower.get().value().type() != upper.get().value().type()) {
      throw new IllegalArgumentException(
          "Cannot build a range on %s from a %s to a %s (cast the bounds to one type)"
              .formatted(column, lower.get().value().type(), upper.get().value().type()));
    }
  }

  /** {@code column BETWEEN low AND high}: both inclusive. */
  public static Range between(String column, Value low, Value high) {
    return new Range(column, Optional.of(Bound.inclusive(low)), Optional.of(Bound.inclusive(high)));
  }

  public static Range atLeast(String column, Value low) {
    return new Range(column, Optional.of(Bound.inclusive(low)), Optional.empty());
  }

  public static Range greaterThan(String column, Value low) {
    return new Range(column, Optional.of(Bound.exclusive(low)), Optional.empty());
  }

  public static Range atMost(String column, Value high) {
    return new Range(column, Optional.empty(), Optional.of(Bound.inclusive(high)));
  }

  public static Range lessThan(String column, Value high) {
    return new Range(column, Optional.empty(), Optional.of(Bound.exclusive(high)));
  }

  @Override
  public ValueType valueType() {
    return lower.isPresent() ? lower.get().value().type() : upper.orElseThrow().value().type();
  }

  /** Whether {@code value} (of this range's type) lies inside the range. */
  public boolean contains(Value value) {
    if (lower.isPresent()) {
      int compare = value.compareTo(lower.get().value());
      if (compare < 0 || (compare == 0 && !lower.get().inclusive())) {
        return false;
      }
    }
    if (upper.isPresent()) {
      int compare = value.compareTo(upper.get().value());
      return compare < 0 || (compare == 0 && upper.get().inclusive());
    }
    return true;
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    lower.ifPresent(
        b -> text.append(column).append(b.inclusive() ? " >= " : " > ").append(b.value()));
    if (lower.isPresent() && upper.isPresent()) {
      text.append(" AND ");
    }
    upper.ifPresent(
        b -> text.append(column).append(b.inclusive() ? " <= " : " < ").append(b.value()));
    return text.toString();
  }
}
