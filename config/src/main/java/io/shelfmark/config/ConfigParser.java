package io.shelfmark.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.Optional;

/**
 * Turns config text into a tree of keys, translating every parser error into a {@link Violation}
 * with the line and column, so no Jackson exception reaches the user. Duplicate keys are errors:
 * silently keeping the last one hides mistakes. Thread safe.
 */
final class ConfigParser {
  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
  private static final ObjectMapper YAML =
      YAMLMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private ConfigParser() {}

  /** The top-level section, or empty with a violation when the text is not a config. */
  static Optional<ObjectNode> parse(String text, ConfigFormat format, BindContext context) {
    JsonNode tree;
    try {
      tree = (format == ConfigFormat.YAML ? YAML : JSON).readTree(text);
    } catch (JsonProcessingException e) {
      context.add("", describe(e, format));
      return Optional.empty();
    }
    if (tree == null || tree.isMissingNode() || tree.isNull()) {
      return Optional.of(JsonNodeFactory.instance.objectNode());
    }
    if (!tree.isObject()) {
      context.add(
          "",
          "Cannot use the top level: "
              + context.show("", tree)
              + " (expected keys and values, such as cluster-name: prod)");
      return Optional.empty();
    }
    return Optional.of((ObjectNode) tree);
  }

  private static String describe(JsonProcessingException e, ConfigFormat format) {
    String problem =
        e.getOriginalMessage() == null ? e.getClass().getSimpleName() : e.getOriginalMessage();
    // YAML problems span several lines (context, a caret drawing); the first says what is wrong.
    problem = problem.strip().lines().findFirst().orElse(problem);
    JsonLocation location = e.getLocation();
    String where =
        location == null || location.getLineNr() < 1
            ? ""
            : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    return "Cannot parse " + format + where + ": " + problem + " (fix the syntax there)";
  }
}
