package io.shelfmark.sql.bind;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.expression.Arithmetic;
import io.shelfmark.sql.expression.ArithmeticOperator;
import io.shelfmark.sql.expression.Cast;
import io.shelfmark.sql.expression.DateTrunc;
import io.shelfmark.sql.expression.DateTruncUnit;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.tree.FunctionNode;
import io.shelfmark.sql.tree.LiteralNode;
import io.shelfmark.sql.tree.Node;
import io.shelfmark.sql.type.PrimitiveType;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Pinot's time bucketing functions, bound to {@link DateTrunc} so that they group through the same
 * time-bucket machinery as {@code dateTrunc} and leave the time column's filters and indexes as
 * they are:
 *
 * <ul>
 *   <li>{@code DATETIMECONVERT(col, inputFormat, outputFormat, 'N:UNIT')} (Grafana's time series):
 *       the input is epoch time ({@code '1:MILLISECONDS:EPOCH'}, {@code 'EPOCH|SECONDS|1'}, {@code
 *       'EPOCH_MILLIS'}...), the output epoch milliseconds, the bucket N milliseconds, seconds,
 *       minutes, hours or days since the epoch (UTC). With N = 1 it is exactly {@code
 *       dateTrunc('unit', millis)}. SIMPLE_DATE_FORMAT and other output units are refused;
 *   <li>{@code ROUND(time, width)} (Superset's 5/10/15/30-minute grains): a TIMESTAMP or epoch
 *       milliseconds rounded down to a multiple of {@code width} milliseconds since the epoch, as
 *       Pinot's {@code round(timeValue, roundToNearest)} does for times after 1970. Other uses of
 *       ROUND are refused.
 * </ul>
 */
final class TimeFunctions {
  // Legacy "size:UNIT:EPOCH", v0.12 "EPOCH|UNIT|size", and the shorthands.
  private static final Pattern LEGACY = Pattern.compile("(\\d+):([A-Z]+):EPOCH");
  private static final Pattern PIPES = Pattern.compile("EPOCH(?:\\|([A-Z]+)(?:\\|(\\d+))?)?");
  private static final Pattern SHORTHAND = Pattern.compile("EPOCH_([A-Z]+)");
  private static final Pattern GRANULARITY = Pattern.compile("(\\d+):([A-Z]+)");

  private TimeFunctions() {}

  static Expression dateTimeConvert(FunctionNode node, Expression value) {
    if (value.type() != PrimitiveType.LONG && value.type() != PrimitiveType.INT) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          node.arguments().get(0).position(),
          "apply DATETIMECONVERT to " + node.arguments().get(0).sql(),
          "it is " + value.type().displayName() + ", not epoch time (BIGINT)",
          null);
    }
    long inputMillis = epochFormatMillis(node, node.arguments().get(1));
    long outputMillis = epochFormatMillis(node, node.arguments().get(2));
    if (outputMillis != 1) {
      throw SqlException.of(
          SqlErrorKind.UNSUPPORTED,
          node.arguments().get(2).position(),
          "use output format " + node.arguments().get(2).sql() + " in DATETIMECONVERT",
          "only epoch milliseconds are supported as the output",
          "write '1:MILLISECONDS:EPOCH'");
    }
    Node granularityNode = node.arguments().get(3);
    Matcher granularity = GRANULARITY.matcher(text(node, granularityNode));
    DateTruncUnit unit = granularity.matches() ? unit(granularity.group(2)) : null;
    long count = granularity.matches() ? parseCount(granularity.group(1)) : 0;
    if (unit == null || count < 1) {
      throw SqlException.of(
          SqlErrorKind.UNSUPPORTED,
          granularityNode.position(),
          "use granularity " + granularityNode.sql() + " in DATETIMECONVERT",
          "the granularity must be 'N:UNIT' with a positive N and a unit of MILLISECONDS,"
              + " SECONDS, MINUTES, HOURS or DAYS",
          "write '5:MINUTES'");
    }
    Expression millis =
        value.type() == PrimitiveType.INT ? new Cast(value, PrimitiveType.LONG) : value;
    if (inputMillis != 1) {
      millis =
          new Arithmetic(
              ArithmeticOperator.MULTIPLY, millis, Literal.ofLong(inputMillis), PrimitiveType.LONG);
    }
    return bucket(unit, count, millis);
  }

  static Expression round(FunctionNode node, Expression value) {
    Node widthNode = node.arguments().get(1);
    long width =
        widthNode instanceof LiteralNode literal
                && literal.kind() == LiteralNode.Kind.EXACT_NUMBER
                && new BigDecimal(literal.value()).scale() <= 0
            ? parseCount(literal.value())
            : 0;
    boolean time =
        value.type() == PrimitiveType.TIMESTAMP
            || value.type() == PrimitiveType.TIMESTAMP_TZ
            || value.type() == PrimitiveType.LONG;
    if (!time || width < 1) {
      throw SqlException.of(
          SqlErrorKind.UNSUPPORTED,
          node.position(),
          "call " + node.sql(),
          "ROUND is supported as a time grain only: a TIMESTAMP or epoch milliseconds (BIGINT)"
              + " and a positive integer width in milliseconds",
          "write ROUND(DATE_TRUNC('minute', CAST(col AS TIMESTAMP)), 300000)");
    }
    // Rounding a truncation down to a multiple of its own unit is rounding the value itself.
    Expression base = value;
    if (value instanceof DateTrunc trunc
        && trunc.count() == 1
        && trunc.unit().compareTo(DateTruncUnit.DAY) <= 0
        && width % unitMillis(trunc.unit()) == 0) {
      base = trunc.value();
    }
    return bucket(DateTruncUnit.MILLISECOND, width, base);
  }

  /**
   * Pinot's longer {@code dateTrunc(unit, value, inputTimeUnit[, timeZone[, outputTimeUnit]])}:
   * accepted when it says what the two-argument form means (epoch milliseconds in and out, UTC).
   */
  static void checkPinotDateTruncArguments(FunctionNode node) {
    java.util.List<Node> arguments = node.arguments();
    if (arguments.size() > 5) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          node.position(),
          "call " + node.name(),
          "it takes 2 to 5 arguments, not " + arguments.size(),
          "write " + node.name() + "('second', millis)");
    }
    for (int i = 2; i < arguments.size(); i++) {
      String expected = i == 3 ? "UTC" : "MILLISECONDS";
      Node argument = arguments.get(i);
      boolean matches =
          argument instanceof LiteralNode literal
              && literal.kind() == LiteralNode.Kind.STRING
              && literal.value().trim().equalsIgnoreCase(expected);
      if (!matches) {
        throw SqlException.of(
            SqlErrorKind.UNSUPPORTED,
            argument.position(),
            "use " + argument.sql() + " in " + node.name(),
            i == 3
                ? "only the time zone 'UTC' is supported"
                : "only epoch milliseconds ('MILLISECONDS') are supported as the time unit",
            "drop the argument, or write '" + expected + "'");
      }
    }
  }

  /** The largest fixed unit dividing {@code count} units, so that TimeBucket's fast paths apply. */
  private static Expression bucket(DateTruncUnit unit, long count, Expression value) {
    long millis = Math.multiplyExact(count, unitMillis(unit));
    for (DateTruncUnit candidate :
        new DateTruncUnit[] {
          DateTruncUnit.DAY, DateTruncUnit.HOUR, DateTruncUnit.MINUTE, DateTruncUnit.SECOND
        }) {
      long size = unitMillis(candidate);
      if (millis % size == 0) {
        return new DateTrunc(candidate, millis / size, value);
      }
    }
    return new DateTrunc(DateTruncUnit.MILLISECOND, millis, value);
  }

  private static long epochFormatMillis(FunctionNode node, Node formatNode) {
    String format = text(node, formatNode);
    String unitName = null;
    long size = 1;
    Matcher legacy = LEGACY.matcher(format);
    Matcher pipes = PIPES.matcher(format);
    Matcher shorthand = SHORTHAND.matcher(format);
    if (legacy.matches()) {
      size = parseCount(legacy.group(1));
      unitName = legacy.group(2);
    } else if (pipes.matches()) {
      unitName = pipes.group(1) == null ? "MILLISECONDS" : pipes.group(1);
      size = pipes.group(2) == null ? 1 : parseCount(pipes.group(2));
    } else if (shorthand.matches()) {
      unitName = shorthand.group(1) + "S";
    }
    DateTruncUnit unit =
        unitName == null ? null : unit(unitName.replace("MILLISS", "MILLISECONDS"));
    if (unit == null || size < 1) {
      throw SqlException.of(
          SqlErrorKind.UNSUPPORTED,
          formatNode.position(),
          "use format " + formatNode.sql() + " in DATETIMECONVERT",
          "only epoch formats of milliseconds to days are supported (SIMPLE_DATE_FORMAT is"
              + " not)",
          "write '1:MILLISECONDS:EPOCH'");
    }
    return Math.multiplyExact(size, unitMillis(unit));
  }

  private static String text(FunctionNode node, Node argument) {
    if (argument instanceof LiteralNode literal && literal.kind() == LiteralNode.Kind.STRING) {
      return literal.value().trim().toUpperCase(Locale.ROOT);
    }
    throw SqlException.of(
        SqlErrorKind.INVALID,
        argument.position(),
        "use " + argument.sql() + " in " + node.name(),
        "formats and granularities are string literals",
        "write '1:MILLISECONDS:EPOCH' or '1:MINUTES'");
  }

  private static DateTruncUnit unit(String plural) {
    return switch (plural) {
      case "MILLISECONDS" -> DateTruncUnit.MILLISECOND;
      case "SECONDS" -> DateTruncUnit.SECOND;
      case "MINUTES" -> DateTruncUnit.MINUTE;
      case "HOURS" -> DateTruncUnit.HOUR;
      case "DAYS" -> DateTruncUnit.DAY;
      default -> null;
    };
  }

  private static long unitMillis(DateTruncUnit unit) {
    return switch (unit) {
      case MILLISECOND -> 1L;
      case SECOND -> 1_000L;
      case MINUTE -> 60_000L;
      case HOUR -> 3_600_000L;
      case DAY -> 86_400_000L;
      default -> throw new IllegalArgumentException("not a fixed-width unit: " + unit);
    };
  }

  private static long parseCount(String digits) {
    try {
      return Long.parseLong(digits);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
