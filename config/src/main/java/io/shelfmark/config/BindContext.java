package io.shelfmark.config;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one load of a config collects: the violations found so far, which keys were set by
 * environment variables (so messages can say so), which keys hold secrets (so messages never show
 * them) and every key path the binder asked for. Not thread safe; one per load.
 */
final class BindContext {
  private static final int MAX_SHOWN_VALUE_LENGTH = 80;

  private final List<Violation> violations = new ArrayList<>();
  private final Map<String, String> environmentOrigins = new HashMap<>();
  private final Set<String> secretKeys = new HashSet<>();
  private final Set<String> readKeys = new LinkedHashSet<>();

  void add(String key, String message) {
    violations.add(new Violation(key, message));
  }

  /**
   * {@code Cannot use <key>: <value> (<hint>)}, naming the environment variable when one set it.
   */
  void invalid(String key, JsonNode value, String hint) {
    add(key, "Cannot use " + describe(key) + ": " + show(key, value) + " (" + hint + ")");
  }

  /** {@code Missing key <key> (<hint>)}. */
  void missing(String key, String hint) {
    add(key, "Missing key " + key + " (" + hint + ")");
  }

  /** The key path, followed by the environment variable that set it, if one did. */
  String describe(String key) {
    String variable = environmentOrigins.get(key);
    return variable == null ? key : key + " from " + variable;
  }

  /** How a value appears in a message: quoted text, JSON for the rest, secrets hidden. */
  String show(String key, JsonNode value) {
    if (secretKeys.contains(key)) {
      // An empty value hides nothing, and "****" would suggest one was set.
      return value.isTextual() && value.asText().isBlank() ? "\"\" (empty)" : "\"****\"";
    }
    String shown = value.isTextual() ? "\"" + value.asText() + "\"" : value.toString();
    if (shown.length() > MAX_SHOWN_VALUE_LENGTH) {
      return shown.substring(0, MAX_SHOWN_VALUE_LENGTH) + "…";
    }
    return shown;
  }

  void setByEnvironment(String key, String variable) {
    environmentOrigins.put(requireNonNull(key, "key is null"), variable);
  }

  void markSecret(String key) {
    secretKeys.add(key);
  }

  void markRead(String key) {
    readKeys.add(key);
  }

  boolean hasViolations() {
    return !violations.isEmpty();
  }

  List<Violation> violations() {
    return ImmutableList.copyOf(violations);
  }

  /** Every key path the binder asked for, set or not, in the order asked. */
  Set<String> readKeys() {
    return readKeys;
  }
}
