package io.shelfmark.broker.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.catalog.snapshot.SnapshotSelector;
import io.shelfmark.exchange.fragment.EngineOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code queryOptions} of a query request, as Pinot's broker takes them: a string {@code
 * "timeoutMs=500;otherOption=x"} or a JSON object {@code {"timeoutMs": 500}}. {@code timeoutMs},
 * {@code allowPartialResults}, Shelfmark's time travel ({@code snapshotId}, {@code asOfTimestamp})
 * and the engine's switches ({@link EngineOption}: {@code useStarTree}, {@code usePageStatistics},
 * {@code chunkReads}) are understood, and a value they do not take is refused naming the option;
 * other options are ignored, as Pinot ignores options it does not know.
 */
final class QueryOptions {
  static final String TIMEOUT_MS = "timeoutMs";
  static final String ALLOW_PARTIAL_RESULTS = "allowPartialResults";

  /**
   * The longest timeout a request may ask for: one day. Beyond any useful query, and it keeps a
   * deadline (now plus the timeout) far inside the range of epoch milliseconds and nanoseconds,
   * which {@code timeoutMs=9223372036854775807} overflowed.
   */
  static final long MAX_TIMEOUT_MS = 86_400_000L;

  /** An option whose value cannot be used; the message names it and says what is expected. */
  static final class InvalidOptionException extends Exception {
    InvalidOptionException(String message) {
      super(message);
    }
  }

  private QueryOptions() {}

  /** The timeout the options ask for; empty when they name none. */
  static Optional<Duration> timeout(JsonNode options) throws InvalidOptionException {
    Optional<String> found = value(options, TIMEOUT_MS);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    String value = found.get();
    long millis;
    try {
      millis = Long.parseLong(value);
    } catch (NumberFormatException e) {
      millis = -1;
    }
    if (millis <= 0 || millis > MAX_TIMEOUT_MS) {
      throw new InvalidOptionException(
          "Cannot use queryOptions timeoutMs="
              + value
              + ": it must be a positive number of milliseconds, at most "
              + MAX_TIMEOUT_MS
              + " (one day)");
    }
    return Optional.of(Duration.ofMillis(millis));
  }

  /**
   * Whether the options allow a partial result ({@code allowPartialResults=true}): an answer
   * without the rows of files no replica could read, which the response names; false by default.
   */
  static boolean allowPartialResults(JsonNode options) throws InvalidOptionException {
    Optional<String> value = value(options, ALLOW_PARTIAL_RESULTS);
    if (value.isEmpty()) {
      return false;
    }
    return switch (value.get().trim().toLowerCase(java.util.Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new InvalidOptionException(
              "Cannot use queryOptions allowPartialResults=%s: it must be true or false"
                  .formatted(value.get()));
    };
  }

  /**
   * The snapshot the options ask to answer against ({@code snapshotId=<id>} or {@code
   * asOfTimestamp=<epoch ms or ISO-8601>}); empty for the served snapshot.
   */
  static Optional<SnapshotSelector> snapshot(JsonNode options) throws InvalidOptionException {
    Optional<String> id = value(options, SnapshotSelector.SNAPSHOT_ID);
    Optional<String> time = value(options, SnapshotSelector.AS_OF_TIMESTAMP);
    try {
      return SnapshotSelector.of(id, time);
    } catch (IllegalArgumentException e) {
      throw new InvalidOptionException(
          e.getMessage().replaceFirst("^Cannot use ", "Cannot use queryOptions "));
    }
  }

  /**
   * The engine's switches the options set, by name, each value checked ({@code useStarTree=false});
   * the servers get them unless the statement sets the same name.
   */
  static Map<String, String> engine(JsonNode options) throws InvalidOptionException {
    Map<String, String> engine = new LinkedHashMap<>();
    for (EngineOption option : EngineOption.values()) {
      Optional<String> value = value(options, option.optionName());
      if (value.isPresent()) {
        try {
          engine.put(option.optionName(), option.parse(value.get()));
        } catch (IllegalArgumentException e) {
          throw new InvalidOptionException(
              "Cannot use queryOptions %s=%s: it must be %s"
                  .formatted(option.optionName(), value.get(), option.expected()));
        }
      }
    }
    return engine;
  }

  /** The value of option {@code name} (the last one given), as text; empty when absent. */
  private static Optional<String> value(JsonNode options, String name)
      throws InvalidOptionException {
    if (options == null || options.isNull()) {
      return Optional.empty();
    }
    if (options.isObject()) {
      JsonNode node = options.get(name);
      return node == null || node.isNull() ? Optional.empty() : Optional.of(node.asText());
    }
    if (options.isTextual()) {
      String value = null;
      for (String option : options.asText().split(";")) {
        int equals = option.indexOf('=');
        if (equals > 0 && option.substring(0, equals).trim().equals(name)) {
          value = option.substring(equals + 1).trim();
        }
      }
      return Optional.ofNullable(value);
    }
    throw new InvalidOptionException(
        "Cannot read queryOptions: expected a string such as \"timeoutMs=500\" or an object"
            + " such as {\"timeoutMs\": 500}, got "
            + options.getNodeType());
  }
}
