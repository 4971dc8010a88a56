package io.shelfmark.config;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.base.Joiner;
import com.google.common.collect.ImmutableList;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.config.unit.DurationFormat;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A section of a parsed config, read key by key. Each typed read checks the value and, when it is
 * wrong, records a violation naming the key path, the value and what is allowed, then answers empty
 * so reading carries on and every violation is found in one pass. Keys read are remembered; {@link
 * #finish()} then reports every key of the section that nobody asked for, with the closest known
 * key as a suggestion.
 *
 * <p>A key set to null (YAML {@code key:} or {@code ~}) counts as not set. Values may be text
 * wherever a number or boolean is expected, because environment overrides are always text.
 */
final class ConfigNode {
  private final ObjectNode node;
  private final String path;
  private final BindContext context;
  private final Set<String> known = new LinkedHashSet<>();
  private final List<ConfigNode> children = new ArrayList<>();

  ConfigNode(ObjectNode node, String path, BindContext context) {
    this.node = requireNonNull(node, "node is null");
    this.path = requireNonNull(path, "path is null");
    this.context = requireNonNull(context, "context is null");
  }

  /** The dotted key path of {@code key} in this section. */
  String keyPath(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** This section's dotted key path; empty for the top level. */
  String path() {
    return path;
  }

  BindContext context() {
    return context;
  }

  /** Whether {@code key} has a non-null value; does not count as reading it. */
  boolean isSet(String key) {
    JsonNode value = node.get(key);
    return value != null && !value.isNull();
  }

  /** Whether {@code key} holds a section; does not count as reading it. */
  boolean isSection(String key) {
    JsonNode value = node.get(key);
    return value != null && value.isObject();
  }

  private JsonNode read(String key) {
    known.add(key);
    context.markRead(keyPath(key));
    JsonNode value = node.get(key);
    return value == null || value.isNull() ? null : value;
  }

  /** Records {@code Missing key ...} when {@code key} is not set. */
  void require(String key, String hint) {
    known.add(key);
    if (!isSet(key)) {
      context.missing(keyPath(key), hint);
    }
  }

  /** Records a violation for a set key whose value breaks a rule involving other keys. */
  void reject(String key, String hint) {
    context.invalid(keyPath(key), node.get(key), hint);
  }

  Optional<String> string(String key, Predicate<String> valid, String hint) {
    JsonNode value = read(key);
    if (value == null) {
      return Optional.empty();
    }
    if (!value.isValueNode() || !valid.test(value.asText())) {
      context.invalid(keyPath(key), value, hint);
      return Optional.empty();
    }
    return Optional.of(value.asText());
  }

  /** A secret string: never shown in messages. */
  Optional<String> secret(String key, String hint) {
    context.markSecret(keyPath(key));
    // Secrets are usually left empty in the file and set by their variable: name it.
    return string(
        key,
        text -> !text.isBlank(),
        hint + "; set it in the file or in " + ClusterKeys.environmentVariable(keyPath(key)));
  }

  Optional<Integer> integer(String key, int min, int max) {
    JsonNode value = read(key);
    if (value == null) {
      return Optional.empty();
    }
    Long parsed = null;
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      parsed = value.asLong();
    } else if (value.isTextual()) {
      try {
        parsed = Long.parseLong(value.asText().strip());
      } catch (NumberFormatException e) {
        parsed = null; // reported just below, with the value
      }
    }
    if (parsed == null || parsed < min || parsed > max) {
      context.invalid(keyPath(key), value, "expected an integer from " + min + " to " + max);
      return Optional.empty();
    }
    return Optional.of(parsed.intValue());
  }

  /** A number in the half-open range {@code (exclusiveMin, max]}. */
  Optional<Double> number(String key, double exclusiveMin, double max) {
    JsonNode value = read(key);
    if (value == null) {
      return Optional.empty();
    }
    Double parsed = null;
    if (value.isNumber()) {
      parsed = value.asDouble();
    } else if (value.isTextual()) {
      try {
        parsed = Double.parseDouble(value.asText().strip());
      } catch (NumberFormatException e) {
        parsed = null; // reported just below, with the value
      }
    }
    if (parsed == null || !(parsed > exclusiveMin && parsed <= max)) {
      context.invalid(
          keyPath(key), value, "expected a number above " + exclusiveMin + " and at most " + max);
      return Optional.empty();
    }
    return Optional.of(parsed);
  }

  Optional<Boolean> bool(String key) {
    JsonNode value = read(key);
    if (value == null) {
      return Optional.empty();
    }
    if (value.isBoolean()) {
      return Optional.of(value.asBoolean());
    }
    String text = value.isTextual() ? value.asText().strip().toLowerCase(Locale.ROOT) : "";
    if (text.equals("true") || text.equals("false")) {
      return Optional.of(text.equals("true"));
    }
    context.invalid(keyPath(key), value, "expected true or false");
    return Optional.empty();
  }

  Optional<DataSize> dataSize(String key) {
    JsonNode value = read(key);
    if (value == null) {
      return Optional.empty();
    }
    if (value.isIntegralNumber() && value.canConvertToLong() && value.asLong() >= 0) {
      return Optional.of(DataSize.ofBytes(value.asLong()));
    }
    DataSize parsed = null;
    if (value.isTextual()) {
      try {
        parsed = DataSize.parse(value.asText());
      } catch (IllegalArgumentException e) {
        parsed = null; // reported just below, in the shape every violation takes
      }
    }
    if (parsed == null) {
      context.invalid(keyPath(key), value, "expected a size such as 512MB or 2GiB");
      return Optional.empty();
    }
    return Optional.of(parsed);
  }

  /** A duration of at least {@code min}, written {@code 30s}, {@code 5m}, {@code PT30S}. */
  Optional<Duration> duration(String key, Duration min) {
    JsonNode value = read(key);
    if (value == null) {
      return Optional.empty();
    }
    Duration parsed = null;
    if (value.isTextual()) {
      try {
        parsed = DurationFormat.parse(value.asText());
      } catch (IllegalArgumentException e) {
        parsed = null; // reported just below, with the value
      }
    }
    if (parsed == null) {
      context.invalid(keyPath(key), value, "expected a duration such as 250ms, 30s, 5m or 1h");
      return Optional.empty();
    }
    if (parsed.compareTo(min) < 0) {
      context.invalid(keyPath(key), value, "expected at least " + DurationFormat.format(min));
      return Optional.empty();
    }
    return Optional.of(parsed);
  }

  /** A path; {@code hint} says what the path is for. */
  Optional<Path> path(String key, String hint) {
    Optional<String> text = string(key, candidate -> !candidate.isBlank(), hint);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Path.of(text.get()));
    } catch (InvalidPathException e) {
      context.invalid(keyPath(key), node.get(key), hint + "; " + e.getReason());
      return Optional.empty();
    }
  }

  /** One of {@code choices}, matched case-insensitively on {@code name}. */
  <E extends Enum<E>> Optional<E> choice(String key, E[] choices, Function<E, String> name) {
    JsonNode value = read(key);
    if (value == null) {
      return Optional.empty();
    }
    Optional<E> match =
        value.isValueNode() ? match(value.asText(), choices, name) : Optional.empty();
    if (match.isEmpty()) {
      context.invalid(keyPath(key), value, "allowed: " + allowed(choices, name));
    }
    return match;
  }

  /**
   * A list of distinct values from {@code choices}: a sequence, or text separated by commas (as
   * environment variables give it). Empty lists are refused.
   */
  <E extends Enum<E>> Optional<List<E>> choices(String key, E[] choices, Function<E, String> name) {
    Optional<List<String>> items = list(key, "expected a list of " + allowed(choices, name));
    if (items.isEmpty()) {
      return Optional.empty();
    }
    List<E> result = new ArrayList<>();
    for (String item : items.get()) {
      Optional<E> match = match(item, choices, name);
      if (match.isEmpty()) {
        context.invalid(
            keyPath(key),
            node.get(key),
            "unknown " + item + "; allowed: " + allowed(choices, name));
        return Optional.empty();
      }
      if (result.contains(match.get())) {
        context.invalid(keyPath(key), node.get(key), item + " is repeated");
        return Optional.empty();
      }
      result.add(match.get());
    }
    return Optional.of(ImmutableList.copyOf(result));
  }

  /** A non-empty list of distinct, non-blank strings: a sequence or comma-separated text. */
  Optional<List<String>> strings(String key, String hint) {
    Optional<List<String>> items = list(key, hint);
    if (items.isEmpty()) {
      return Optional.empty();
    }
    Set<String> seen = new LinkedHashSet<>();
    for (String item : items.get()) {
      if (!seen.add(item)) {
        context.invalid(keyPath(key), node.get(key), item + " is repeated");
        return Optional.empty();
      }
    }
    return items;
  }

  /**
   * A non-empty sequence of non-blank strings, written as a sequence only: its items may contain
   * commas ({@code dateTrunc('minute', ts)}), so text is not split.
   */
  Optional<List<String>> sequence(String key, String hint) {
    JsonNode value = read(key);
    if (value == null) {
      return Optional.empty();
    }
    List<String> items = new ArrayList<>();
    if (value.isArray()) {
      for (JsonNode element : value) {
        if (!element.isValueNode() || element.isNull() || element.asText().isBlank()) {
          context.invalid(keyPath(key), value, hint);
          return Optional.empty();
        }
        items.add(element.asText().strip());
      }
    }
    if (items.isEmpty()) {
      context.invalid(keyPath(key), value, hint + " (a sequence such as [a, b])");
      return Optional.empty();
    }
    return Optional.of(ImmutableList.copyOf(items));
  }

  private Optional<List<String>> list(String key, String hint) {
    JsonNode value = read(key);
    if (value == null) {
      return Optional.empty();
    }
    List<String> items = new ArrayList<>();
    if (value.isArray()) {
      for (JsonNode element : value) {
        if (!element.isValueNode() || element.isNull() || element.asText().isBlank()) {
          context.invalid(keyPath(key), value, hint);
          return Optional.empty();
        }
        items.add(element.asText().strip());
      }
    } else if (value.isValueNode()) {
      for (String part : value.asText().split(",", -1)) {
        if (!part.isBlank()) {
          items.add(part.strip());
        }
      }
    }
    if (items.isEmpty()) {
      context.invalid(keyPath(key), value, hint);
      return Optional.empty();
    }
    return Optional.of(items);
  }

  /** A map of names to single values, such as catalog properties. */
  Optional<Map<String, String>> stringMap(String key, Predicate<String> secretName) {
    Map<String, String> result = new LinkedHashMap<>();
    ObjectNode section = object(key, "expected a section of names and values");
    if (section == null) {
      return Optional.empty();
    }
    boolean valid = true;
    for (Map.Entry<String, JsonNode> entry : section.properties()) {
      String entryKey = keyPath(key) + "." + entry.getKey();
      if (secretName.test(entry.getKey())) {
        context.markSecret(entryKey);
      }
      if (!entry.getValue().isValueNode() || entry.getValue().isNull()) {
        context.invalid(entryKey, entry.getValue(), "expected a single value");
        valid = false;
      } else if (secretName.test(entry.getKey()) && entry.getValue().asText().isBlank()) {
        // An empty password passes no check here and fails only when the node starts.
        context.invalid(
            entryKey,
            entry.getValue(),
            "a secret must not be empty: set "
                + ClusterKeys.environmentVariable(entryKey)
                + ", or remove the key if nothing needs it");
        valid = false;
      } else {
        result.put(entry.getKey(), entry.getValue().asText());
      }
    }
    return valid ? Optional.of(result) : Optional.empty();
  }

  /**
   * A nested section. Absent or null gives an empty section, so defaults flow through the same
   * code; a value that is not a section is reported and also gives an empty section.
   */
  ConfigNode section(String key) {
    ObjectNode section = object(key, "expected a section of keys, not a single value");
    return child(section == null ? JsonNodeFactory.instance.objectNode() : section, keyPath(key));
  }

  /**
   * A section whose keys are names the user chooses (column names), each holding a section, in file
   * order.
   */
  Map<String, ConfigNode> namedSections(String key, String hint) {
    Map<String, ConfigNode> result = new LinkedHashMap<>();
    ObjectNode section = object(key, hint);
    if (section == null) {
      return result;
    }
    for (Map.Entry<String, JsonNode> entry : section.properties()) {
      String entryKey = keyPath(key) + "." + entry.getKey();
      if (entry.getValue().isObject()) {
        result.put(entry.getKey(), child((ObjectNode) entry.getValue(), entryKey));
      } else {
        context.invalid(entryKey, entry.getValue(), hint);
      }
    }
    return result;
  }

  /**
   * A sequence of sections ({@code star-trees: [{...}, {...}]}), each with the key path {@code
   * key[i]}, in file order; a value that is not a sequence, or an element that is not a section, is
   * reported.
   */
  List<ConfigNode> sectionList(String key, String hint) {
    List<ConfigNode> result = new ArrayList<>();
    JsonNode value = read(key);
    if (value == null) {
      return result;
    }
    if (!value.isArray()) {
      context.invalid(keyPath(key), value, hint);
      return result;
    }
    int index = 0;
    for (JsonNode element : value) {
      String elementPath = keyPath(key) + "[" + index++ + "]";
      if (element.isObject()) {
        result.add(child((ObjectNode) element, elementPath));
      } else {
        context.invalid(elementPath, element, hint);
      }
    }
    return result;
  }

  private ObjectNode object(String key, String hint) {
    JsonNode value = read(key);
    if (value == null) {
      return null;
    }
    if (!value.isObject()) {
      context.invalid(keyPath(key), value, hint);
      return null;
    }
    return (ObjectNode) value;
  }

  private ConfigNode child(ObjectNode section, String childPath) {
    ConfigNode child = new ConfigNode(section, childPath, context);
    children.add(child);
    return child;
  }

  /** Reports every key of this section, and of the sections read from it, that was never read. */
  void finish() {
    for (String field : ImmutableList.copyOf(node.fieldNames())) {
      if (!known.contains(field)) {
        reportUnknown(field);
      }
    }
    for (ConfigNode child : children) {
      child.finish();
    }
  }

  private void reportUnknown(String field) {
    Optional<String> suggestion = KeySuggestion.closest(field, known);
    String hint =
        suggestion
            .map(key -> "did you mean " + keyPath(key) + "?")
            .orElseGet(() -> knownKeysHint());
    context.add(keyPath(field), "Unknown key " + keyPath(field) + " (" + hint + ")");
  }

  private String knownKeysHint() {
    if (known.isEmpty()) {
      return "this section takes no keys";
    }
    List<String> paths = new ArrayList<>();
    for (String key : known) {
      paths.add(keyPath(key));
    }
    return "known keys here: " + Joiner.on(", ").join(paths);
  }

  private static <E extends Enum<E>> Optional<E> match(
      String text, E[] choices, Function<E, String> name) {
    String wanted = text.strip();
    for (E choice : choices) {
      if (name.apply(choice).equalsIgnoreCase(wanted)) {
        return Optional.of(choice);
      }
    }
    return Optional.empty();
  }

  private static <E extends Enum<E>> String allowed(E[] choices, Function<E, String> name) {
    List<String> names = new ArrayList<>();
    for (E choice : choices) {
      names.add(name.apply(choice));
    }
    return Joiner.on(", ").join(names);
  }
}
