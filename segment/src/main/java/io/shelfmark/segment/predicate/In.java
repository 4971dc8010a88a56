package io.shelfmark.segment.predicate;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import java.util.List;
import java.util.stream.Collectors;

/** {@code column IN (values...)}: at least one value, all of one type, none null. */
public record In(String column, List<Value> values) implements ColumnPredicate {
  public In {
    requireNonNull(column, "column is null");
    values = ImmutableList.copyOf(requireNonNull(values, "values is null"));
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
