package io.shelfmark.segment.predicate;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * {@code column IN (values...)}: at least one value, all of one type, none null. The values are
 * kept sorted in {@link Value} order and without duplicates (the list's meaning is a set), so that
 * an index matches a long list against its dictionary in one walk ({@link DictionaryMatch}); a list
 * given sorted is only checked, not sorted again.
 */
public record In(String column, List<Value> values) implements ColumnPredicate {
  public In {
    requireNonNull(column, "column is null");
    values = sortedDistinct(ImmutableList.copyOf(requireNonNull(values, "values is null")));
    if (values.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot build "
              + column
              + " IN (): no values (an empty IN list matches nothing; drop the predicate instead)");
    }
    ValueType type = values.get(0).type();
    for (Value value : values) {
      if (value.type() != type) {
        throw new IllegalArgumentException(
            "Cannot build %s IN %s: mixes %s and %s values (cast them to one type)"
                .formatted(column, values, type, value.type()));
      }
    }
  }

  private static ImmutableList<Value> sortedDistinct(ImmutableList<Value> values) {
    if (isSortedDistinct(values)) {
      return values;
    }
    for (Value value : values) {
      requireNonNull(value, "value is null");
    }
    if (values.stream().map(Value::type).distinct().count() > 1) {
      return values; // the constructor's type check reports it
    }
    return ImmutableList.copyOf(new TreeSet<>(values));
  }

  private static boolean isSortedDistinct(List<Value> values) {
    for (int i = 1; i < values.size(); i++) {
      Value previous = values.get(i - 1);
      Value value = values.get(i);
      if (previous.type() != value.type() || previous.compareTo(value) >= 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public ValueType valueType() {
    return values.get(0).type();
  }

  @Override
  public String toString() {
    return column
        + " IN ("
        + values.stream().map(Value::toString).collect(Collectors.joining(", "))
        + ")";
  }
}
