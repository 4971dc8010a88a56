package io.shelfmark.testing.query;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** SQL text pieces both dialects read the same way: identifiers, map access, literals. */
final class QuerySql {
  private static final Pattern SIMPLE = Pattern.compile("[a-z_][a-z0-9_]*");

  // Words that are keywords in Calcite's or DuckDB's grammar and likely column names: quoted.
  private static final Set<String> RESERVED =
      Set.of(
          "all",
          "and",
          "as",
          "asc",
          "between",
          "by",
          "case",
          "cast",
          "count",
          "date",
          "day",
          "desc",
          "distinct",
          "end",
          "false",
          "from",
          "group",
          "having",
          "hour",
          "in",
          "is",
          "like",
          "limit",
          "minute",
          "month",
          "not",
          "null",
          "offset",
          "on",
          "or",
          "order",
          "second",
          "select",
          "time",
          "timestamp",
          "true",
          "user",
          "value",
          "values",
          "when",
          "where",
          "year");

  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS", Locale.ROOT);

  private QuerySql() {}

  static String identifier(String name) {
    if (SIMPLE.matcher(name).matches() && !RESERVED.contains(name)) {
      return name;
    }
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  /** {@code col['key']}: Pinot's map access, which DuckDB reads as the value (or NULL). */
  static String mapAccess(String column, String key) {
    return identifier(column) + "[" + string(key) + "]";
  }

  /** The {@link ValueDomain} term name of a map key. */
  static String mapTerm(String column, String key) {
    return column + "['" + key + "']";
  }

  static String string(String value) {
    return "'" + value.replace("'", "''") + "'";
  }

  /** A literal of a normalised value, as both dialects read it. */
  static String literal(Object value) {
    return switch (value) {
      case Long l -> Long.toString(l);
      case Double d -> doubleLiteral(d);
      case String s -> string(s);
      case Boolean b -> b ? "TRUE" : "FALSE";
      case LocalDate date -> "DATE '" + date + "'";
      case LocalDateTime dateTime -> "TIMESTAMP '" + TIMESTAMP.format(dateTime) + "'";
      default ->
          throw new IllegalArgumentException(
              "Cannot write a literal of "
                  + value
                  + ": type "
                  + value.getClass().getSimpleName()
                  + " (expected Long, Double, String, Boolean, LocalDate or LocalDateTime)");
    };
  }

  // A plain decimal literal is exact in both dialects; very long ones fall back to scientific
  // notation, which both read as a double.
  private static String doubleLiteral(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(
          "Cannot write a literal of " + value + " (no SQL literal for it in both dialects)");
    }
    String plain = BigDecimal.valueOf(value).toPlainString();
    return plain.length() <= 30 ? plain : Double.toString(value);
  }
}
