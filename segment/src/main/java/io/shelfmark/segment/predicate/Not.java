package io.shelfmark.segment.predicate;

import static java.util.Objects.requireNonNull;

/** {@code NOT operand}, in three-valued logic: unknown stays unknown. */
public record Not(Predicate operand) implements Predicate {
  public Not {
    requireNonNull(operand, "operand is null");
  }

  @Override
  public String toString() {
    return "NOT (" + operand + ")";
  }
}
