package io.shelfmark.config.table;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A function–column pair a star-tree pre-aggregates ({@code star-trees[i].functions}): {@code
 * COUNT(*)}, {@code SUM(col)}, {@code MIN(col)}, {@code MAX(col)}, {@code AVG(col)} (kept as a sum
 * and a count), {@code COUNT(col)} or {@code DISTINCTCOUNTHLL(col)} (kept as a sketch per record).
 *
 * @param function the aggregate function
 * @param column its column; empty for {@code COUNT(*)}
 */
public record StarTreeFunction(Function function, Optional<String> column) {
  public enum Function {
    COUNT,
    SUM,
    MIN,
    MAX,
    AVG,
    DISTINCTCOUNTHLL
  }

  private static final Pattern PAIR =
      Pattern.compile("([A-Za-z]+)\\s*\\(\\s*(\\*|[A-Za-z_][A-Za-z0-9_]*)\\s*\\)");

  public StarTreeFunction {
    requireNonNull(function, "function is null");
    requireNonNull(column, "column is null");
  }

  /** {@code COUNT(*)}, {@code SUM(sum_rollup)}: the config's form. */
  public String text() {
    return function.name() + "(" + column.orElse("*") + ")";
  }

  /** Parses {@code FUNCTION(column)} or {@code COUNT(*)}; empty when the text is neither. */
  public static Optional<StarTreeFunction> parse(String text) {
    Matcher matcher = PAIR.matcher(text.strip());
    if (!matcher.matches()) {
      return Optional.empty();
    }
    Function function;
    try {
      function = Function.valueOf(matcher.group(1).toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    boolean star = matcher.group(2).equals("*");
    if (star && function != Function.COUNT) {
      return Optional.empty();
    }
    return Optional.of(
        new StarTreeFunction(function, star ? Optional.empty() : Optional.of(matcher.group(2))));
  }

  @Override
  public String toString() {
    return text();
  }
}
