package io.shelfmark.config;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;

/**
 * A config that cannot be used, with every problem found in it. Unchecked: a bad config is a user
 * error reported once at start-up or onboarding, and callers that can do better than fail (the
 * controller's admin API answering 400) catch it by type.
 *
 * <p>{@link #getMessage()} lists the violations one per line, each prefixed by the source, such as
 * {@code cluster.yaml: Unknown key catalog.urii (did you mean catalog.uri?)}.
 */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String source;
  private final List<Violation> violations;

  /**
   * @param source the file name or other description of where the config came from
   * @param violations the problems, at least one
   */
  public ConfigException(String source, List<Violation> violations) {
    super(message(source, violations));
    this.source = source;
    this.violations = ImmutableList.copyOf(violations);
  }

  private static String message(String source, List<Violation> violations) {
    requireNonNull(source, "source is null");
    requireNonNull(violations, "violations is null");
    checkArgument(!violations.isEmpty(), "violations is empty");
    StringBuilder message = new StringBuilder();
    for (Violation violation : violations) {
      if (!message.isEmpty()) {
        message.append('\n');
      }
      message.append(source).append(": ").append(violation.message());
    }
    return message.toString();
  }

  /** Where the config came from: a file name, a bundled resource or a caller's description. */
  public String source() {
    return source;
  }

  /** Every problem found, in the order found. */
  public List<Violation> violations() {
    return violations;
  }
}
