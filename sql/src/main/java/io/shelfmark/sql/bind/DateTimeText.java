package io.shelfmark.sql.bind;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.tree.FunctionNode;
import io.shelfmark.sql.tree.LiteralNode;
import io.shelfmark.sql.tree.Node;
import io.shelfmark.sql.type.PrimitiveType;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalQueries;
import java.util.Locale;

/**
 * Pinot's conversions between epoch milliseconds and formatted text, for literals: {@code
 * FromDateTime('2026-01-02 10:00:00', 'yyyy-MM-dd HH:mm:ss')} is the BIGINT 1767348000000, so a
 * dashboard's {@code WHERE ts >= FromDateTime(...)} is a plain range an index answers; {@code
 * ToDateTime(1767348000000, 'yyyy-MM-dd')} is {@code '2026-01-02'}. Times are UTC (an optional
 * third argument must be {@code 'UTC'}, unless the text itself carries an offset). Patterns are
 * Java's {@link DateTimeFormatter} patterns, which agree with Pinot's Joda patterns on the usual
 * letters ({@code yyyy MM dd HH mm ss SSS}).
 *
 * <p>Formatting a column's values is refused: it would be per-row text formatting that the executor
 * does not have; dashboards format times themselves from the epoch millis of {@code dateTrunc} or
 * {@code DATETIMECONVERT}.
 */
final class DateTimeText {
  private DateTimeText() {}

  static Expression fromDateTime(FunctionNode node) {
    String text = stringLiteral(node, node.arguments().get(0), "the text to parse");
    DateTimeFormatter formatter = formatter(node);
    try {
      TemporalAccessor parsed = formatter.parse(text);
      LocalDate date = parsed.query(TemporalQueries.localDate());
      if (date == null) {
        throw new DateTimeException("the pattern has no date");
      }
      LocalTime time = parsed.query(TemporalQueries.localTime());
      ZoneOffset offset =
          parsed.isSupported(ChronoField.OFFSET_SECONDS)
              ? ZoneOffset.ofTotalSeconds(parsed.get(ChronoField.OFFSET_SECONDS))
              : ZoneOffset.UTC;
      Instant instant = date.atTime(time == null ? LocalTime.MIDNIGHT : time).toInstant(offset);
      return Literal.ofLong(instant.toEpochMilli());
    } catch (DateTimeException e) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          node.arguments().get(0).position(),
          "parse '" + text + "' with pattern " + node.arguments().get(1).sql(),
          e.getMessage(),
          null);
    }
  }

  static Expression toDateTime(FunctionNode node, Expression value) {
    if (!(value instanceof Literal literal)
        || (value.type() != PrimitiveType.LONG && value.type() != PrimitiveType.INT)) {
      throw SqlException.of(
          SqlErrorKind.UNSUPPORTED,
          node.position(),
          "call " + node.sql(),
          "ToDateTime formats literal epoch milliseconds only, not a column's values",
          "select the epoch millis (dateTrunc or DATETIMECONVERT) and format them in the client");
    }
    DateTimeFormatter formatter = formatter(node);
    if (literal.isNull()) {
      return Literal.nullOf(PrimitiveType.STRING);
    }
    long millis = ((Number) literal.value()).longValue();
    return Literal.ofString(
        formatter.format(Instant.ofEpochMilli(millis).atOffset(ZoneOffset.UTC)));
  }

  private static DateTimeFormatter formatter(FunctionNode node) {
    String pattern = stringLiteral(node, node.arguments().get(1), "the pattern");
    if (node.arguments().size() == 3) {
      String zone = stringLiteral(node, node.arguments().get(2), "the time zone");
      if (!zone.equalsIgnoreCase("UTC")) {
        throw SqlException.of(
            SqlErrorKind.UNSUPPORTED,
            node.arguments().get(2).position(),
            "use time zone '" + zone + "' in " + node.name(),
            "only 'UTC' is supported",
            "drop the argument, or write 'UTC'");
      }
    }
    try {
      return DateTimeFormatter.ofPattern(pattern, Locale.ROOT);
    } catch (IllegalArgumentException e) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          node.arguments().get(1).position(),
          "use pattern '" + pattern + "' in " + node.name(),
          e.getMessage(),
          "write a pattern such as 'yyyy-MM-dd HH:mm:ss'");
    }
  }

  private static String stringLiteral(FunctionNode node, Node argument, String what) {
    if (argument instanceof LiteralNode literal && literal.kind() == LiteralNode.Kind.STRING) {
      return literal.value();
    }
    throw SqlException.of(
        SqlErrorKind.UNSUPPORTED,
        argument.position(),
        "use " + argument.sql() + " as " + what + " of " + node.name(),
        "it must be a string literal",
        null);
  }
}
