package io.shelfmark.broker.table;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** A table config that cannot be onboarded, with every reason (each naming its config key). */
public final class TableAdminException extends Exception {
  private final List<String> violations;

  public TableAdminException(String message, List<String> violations) {
    super(requireNonNull(message, "message is null"));
    this.violations = List.copyOf(requireNonNull(violations, "violations is null"));
  }

  /** Each reason, such as {@code columns.metric.indexes: ...}; may be empty. */
  public List<String> violations() {
    return violations;
  }
}
