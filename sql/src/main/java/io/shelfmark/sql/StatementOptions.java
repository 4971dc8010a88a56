package io.shelfmark.sql;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Query options written in the SQL text, as Pinot's clients send them: {@code SET timeoutMs=2000;}
 * statements before the query (the Pinot JDBC driver, Grafana) and a trailing {@code
 * OPTION(timeoutMs=5000)} clause (pinotdb). Names are kept as written and matched exactly, as Pinot
 * does; a later occurrence of a name replaces an earlier one. Only {@link #TIMEOUT_MS} means
 * something to Shelfmark; other options are kept but ignored, as Pinot ignores options it does not
 * know.
 *
 * @param values option name to its value as text (quotes removed)
 */
public record StatementOptions(Map<String, Option> values) {
  /** The query's time limit in milliseconds, a positive integer. */
  public static final String TIMEOUT_MS = "timeoutMs";

  /** No options. */
  public static final StatementOptions NONE = new StatementOptions(Map.of());

  /** One option and where it was written, for messages. */
  public record Option(String value, SqlPosition position) {
    public Option {
      requireNonNull(value, "value is null");
      requireNonNull(position, "position is null");
    }
  }

  public StatementOptions {
    values = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  public Optional<String> value(String name) {
    return Optional.ofNullable(values.get(name)).map(Option::value);
  }

  /**
   * The time limit the text sets.
   *
   * @throws SqlException if {@code timeoutMs} is not a positive integer
   */
  public Optional<Duration> timeout() {
    Option option = values.get(TIMEOUT_MS);
    if (option == null) {
      return Optional.empty();
    }
    long millis;
    try {
      millis = Long.parseLong(option.value().trim());
    } catch (NumberFormatException e) {
      millis = -1;
    }
    if (millis <= 0) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          option.position(),
          "use query option " + TIMEOUT_MS + "=" + option.value(),
          "it must be a positive number of milliseconds",
          "for example SET timeoutMs=5000;");
    }
    return Optional.of(Duration.ofMillis(millis));
  }
}
