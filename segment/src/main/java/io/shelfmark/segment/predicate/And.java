package io.shelfmark.segment.predicate;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.stream.Collectors;

/** The AND of one or more operands, in three-valued logic. */
public record And(List<Predicate> operands) implements Predicate {
  public And {
    operands = ImmutableList.copyOf(requireNonNull(operands, "operands is null"));
    if (operands.isEmpty()) {
      throw new IllegalArgumentException("Cannot build AND without operands");
    }
  }

  @Override
  public String toString() {
    return operands.stream().map(p -> "(" + p + ")").collect(Collectors.joining(" AND "));
  }
}
