package io.shelfmark.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

  private static final Pattern PARSER_EVENT =
      Pattern.compile("<org\\.yaml\\.snakeyaml\\.events\\.(\\w+?)Event\\([^>]*\\)>");
  private static final Pattern QUALIFIED_NAME =
      Pattern.compile("\\b(?:com|org|java|javax)\\.(?:[a-z0-9_]+\\.)+([A-Z]\\w*)");

  private ConfigParser() {}

  /** The top-level section, or empty with a violation when the text is not a config. */
  static Optional<ObjectNode> parse(String text, ConfigFormat format, BindContext context) {
    ObjectMapper mapper = format == ConfigFormat.YAML ? YAML : JSON;
    JsonNode tree;
    try (JsonParser parser = mapper.createParser(text)) {
      tree = mapper.readTree(parser);
      // readTree stops after one value; a second YAML document or trailing JSON would be ignored.
      if (tree != null && parser.nextToken() != null) {
        context.add(
            "",
            "Cannot parse "
                + format
                + at(parser.currentTokenLocation())
                + ": more than one document (put the whole config in one document)");
        return Optional.empty();
      }
    } catch (JsonProcessingException e) {
      context.add("", describe(e, format));
      return Optional.empty();
    } catch (IOException e) {
      // Reading from a String does no I/O; Jackson declares IOException all the same.
      throw new UncheckedIOException(e);
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

  /**
   * Replaces parser internals in a message with words: {@code <org.yaml.snakeyaml.events.
   * SequenceStartEvent(...)>} becomes {@code a sequence start}; other class names lose their
   * package.
   */
  static String humanize(String problem) {
    Matcher event = PARSER_EVENT.matcher(problem);
    StringBuilder result = new StringBuilder();
    while (event.find()) {
      String words = event.group(1).replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
      event.appendReplacement(result, Matcher.quoteReplacement("a " + words));
    }
    event.appendTail(result);
    return QUALIFIED_NAME.matcher(result).replaceAll("$1");
  }

  private static String describe(JsonProcessingException e, ConfigFormat format) {
    String original = e.getOriginalMessage() == null ? "" : e.getOriginalMessage().strip();
    // SnakeYAML's message is "context", a drawing of the spot, then "problem" and another
    // drawing; its lines that are not indented are the context and the problem.
    List<String> statements = new ArrayList<>();
    for (String line : original.lines().toList()) {
      if (!line.isBlank() && !Character.isWhitespace(line.charAt(0))) {
        statements.add(line.strip());
      }
    }
    String problem = statements.isEmpty() ? e.getClass().getSimpleName() : statements.getLast();
    if (statements.size() > 1) {
      problem += ", " + statements.getFirst();
    }
    return "Cannot parse "
        + format
        + at(e.getLocation())
        + ": "
        + humanize(problem)
        + " (fix the syntax there)";
  }

  private static String at(JsonLocation location) {
    return location == null || location.getLineNr() < 1
        ? ""
        : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
  }
}
