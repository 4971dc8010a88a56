package io.shelfmark.segment.predicate;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.stream.Collectors;

/** The OR of one or more operands, in three-valued logic. */
public record Or(List<Predicate> operands) implements Predicate {
  public Or {
    operands = ImmutableList.copyOf(requireNonNull(operands, "operands is null"));
    if (operands.isEmpty()) {
      throw new IllegalArgumentException("Cannot build OR without operands");
    }
  }

  @Override
  public String toString() {
    return operands.stream().map(p -> "(" + p + ")").collect(Collectors.joining(" OR "));
  }
}
