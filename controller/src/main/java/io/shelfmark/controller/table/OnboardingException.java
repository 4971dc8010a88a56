package io.shelfmark.controller.table;

import static java.util.Objects.requireNonNull;

import io.shelfmark.config.Violation;
import java.util.List;

/**
 * A table cannot be onboarded: it is missing from its catalog, or its config asks for something its
 * schema cannot honour. The message lists every reason, one per line.
 */
public final class OnboardingException extends Exception {
  private final List<Violation> violations;

  public OnboardingException(String table, List<Violation> violations) {
    super(format(table, violations));
    this.violations = List.copyOf(violations);
  }

  public OnboardingException(String message, Throwable cause) {
    super(requireNonNull(message, "message is null"), cause);
    this.violations = List.of();
  }

  public List<Violation> violations() {
    return violations;
  }

  private static String format(String table, List<Violation> violations) {
    StringBuilder message = new StringBuilder("Cannot onboard table ").append(table).append(':');
    for (Violation violation : violations) {
      message.append(System.lineSeparator()).append("  ").append(violation.message());
    }
    return message.toString();
  }
}
