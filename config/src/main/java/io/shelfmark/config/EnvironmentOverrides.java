package io.shelfmark.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.google.common.collect.ImmutableList;
import io.shelfmark.config.cluster.CatalogConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Applies {@code SHELFMARK_*} environment variables to a parsed cluster config before it is bound,
 * so their values are validated like the file's. Each variable maps back to exactly one key (the
 * key list has no two keys with one variable name). An empty value removes the key, restoring its
 * default.
 *
 * <p>Variables under a section's prefix ({@code SHELFMARK_STORAGE_…}, {@code SHELFMARK_CACHE_…})
 * that name no key are reported, since they are almost certainly typos; other {@code SHELFMARK_}
 * variables (such as a launcher's {@code SHELFMARK_HOME}) are left alone. Catalog properties are
 * free-form, so a variable can only override a property the file already declares.
 */
final class EnvironmentOverrides {
  private static final List<String> SECTIONS =
      List.of(
          ClusterKeys.STORAGE,
          ClusterKeys.CATALOG,
          ClusterKeys.CACHE,
          ClusterKeys.BROKER,
          ClusterKeys.SERVER,
          ClusterKeys.CONTROLLER,
          ClusterKeys.SECURITY);

  private EnvironmentOverrides() {}

  static void apply(ObjectNode root, Map<String, String> environment, BindContext context) {
    String propertiesPrefix = ClusterKeys.environmentVariable(ClusterKeys.CATALOG_PROPERTIES) + "_";
    // Sorted, so violations come out in the same order on every run.
    for (String variable : new TreeSet<>(environment.keySet())) {
      if (!variable.startsWith(ConfigLoader.ENVIRONMENT_PREFIX)) {
        continue;
      }
      String value = environment.get(variable);
      String key = ClusterKeys.BY_ENVIRONMENT_VARIABLE.get(variable);
      if (key != null) {
        set(root, key, value, variable, context);
      } else if (variable.startsWith(propertiesPrefix)) {
        overrideProperty(root, variable, value, context);
      } else if (isUnderSection(variable)) {
        String hint =
            KeySuggestion.closest(variable, ClusterKeys.BY_ENVIRONMENT_VARIABLE.keySet())
                .map(known -> "did you mean " + known + "?")
                .orElse("no config key has this name; see docs/config.md for the variables");
        context.add("", "Unknown environment variable " + variable + " (" + hint + ")");
      }
    }
  }

  private static boolean isUnderSection(String variable) {
    for (String section : SECTIONS) {
      if (variable.startsWith(ClusterKeys.environmentVariable(section) + "_")) {
        return true;
      }
    }
    return false;
  }

  private static void set(
      ObjectNode root, String key, String value, String variable, BindContext context) {
    String[] parts = key.split("\\.");
    ObjectNode parent = root;
    for (int i = 0; i < parts.length - 1; i++) {
      JsonNode child = parent.get(parts[i]);
      if (child == null || child.isNull()) {
        parent = parent.putObject(parts[i]);
      } else if (child.isObject()) {
        parent = (ObjectNode) child;
      } else {
        // The file's own error for this section is reported when it is bound.
        context.add(
            key,
            "Cannot apply "
                + variable
                + ": "
                + String.join(".", List.of(parts).subList(0, i + 1))
                + " in the file is not a section (fix the file first)");
        return;
      }
    }
    String leaf = parts[parts.length - 1];
    if (value.isBlank()) {
      parent.remove(leaf);
    } else {
      parent.set(leaf, TextNode.valueOf(value));
    }
    context.setByEnvironment(key, variable);
  }

  private static void overrideProperty(
      ObjectNode root, String variable, String value, BindContext context) {
    JsonNode properties = root.path(ClusterKeys.CATALOG).path(ClusterKeys.PROPERTIES);
    List<String> matches = new ArrayList<>();
    if (properties.isObject()) {
      for (String name : ImmutableList.copyOf(properties.fieldNames())) {
        String environmentName =
            ClusterKeys.environmentVariable(ClusterKeys.CATALOG_PROPERTIES + "." + name);
        if (environmentName.equals(variable)) {
          matches.add(name);
        }
      }
    }
    Optional<String> hint = Optional.empty();
    if (matches.isEmpty()) {
      hint =
          Optional.of(
              "no key under "
                  + ClusterKeys.CATALOG_PROPERTIES
                  + " in the file has this variable name; declare the property in the file,"
                  + " such as jdbc.password: \"\", and the variable overrides it");
    } else if (matches.size() > 1) {
      hint =
          Optional.of(
              "it matches several keys under "
                  + ClusterKeys.CATALOG_PROPERTIES
                  + ": "
                  + String.join(", ", matches)
                  + "; rename one");
    }
    if (hint.isPresent()) {
      context.add(
          ClusterKeys.CATALOG_PROPERTIES, "Cannot apply " + variable + " (" + hint.get() + ")");
      return;
    }
    String key = ClusterKeys.CATALOG_PROPERTIES + "." + matches.getFirst();
    if (CatalogConfig.isSecretProperty(matches.getFirst())) {
      context.markSecret(key);
    }
    ((ObjectNode) properties).set(matches.getFirst(), TextNode.valueOf(value));
    context.setByEnvironment(key, variable);
  }
}
