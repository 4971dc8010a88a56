package io.shelfmark.broker.flightsql;

import io.shelfmark.broker.query.QueryErrorCode;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.util.Text;

/**
 * Bound prepared-statement parameters, substituted into the SQL text as literals before planning.
 * Each value becomes a literal of its own kind, never raw client text: numbers as digits, strings
 * (and dates and timestamps, which a comparison parses as its column's type) between single quotes
 * with every quote doubled. Only {@code ?} outside quoted text and comments is a parameter.
 */
final class Parameters {
  private Parameters() {}

  /** The literals of the parameter row {@code row} of {@code root}, in parameter order. */
  static List<String> literals(VectorSchemaRoot root, int row) {
    List<String> literals = new ArrayList<>(root.getFieldVectors().size());
    for (FieldVector vector : root.getFieldVectors()) {
      literals.add(literal(vector, row));
    }
    return literals;
  }

  private static String literal(FieldVector vector, int row) {
    if (vector.isNull(row)) {
      return "NULL";
    }
    ArrowType type = vector.getField().getType();
    if (vector instanceof DateDayVector days) {
      return quoted(LocalDate.ofEpochDay(days.get(row)).toString());
    }
    if (vector instanceof DateMilliVector millis) {
      return quoted(
          LocalDate.ofInstant(Instant.ofEpochMilli(millis.get(row)), ZoneOffset.UTC).toString());
    }
    if (vector instanceof TimeStampVector timestamps) {
      ArrowType.Timestamp timestamp = (ArrowType.Timestamp) type;
      long micros =
          switch (timestamp.getUnit()) {
            case SECOND -> Math.multiplyExact(timestamps.get(row), 1_000_000L);
            case MILLISECOND -> Math.multiplyExact(timestamps.get(row), 1_000L);
            case MICROSECOND -> timestamps.get(row);
            case NANOSECOND -> Math.floorDiv(timestamps.get(row), 1_000L);
          };
      LocalDateTime time =
          LocalDateTime.ofEpochSecond(
              Math.floorDiv(micros, 1_000_000L),
              (int) Math.floorMod(micros, 1_000_000L) * 1000,
              ZoneOffset.UTC);
      return quoted(
          time.toLocalDate()
              + " "
              + String.format(
                  Locale.ROOT,
                  "%02d:%02d:%02d.%06d",
                  time.getHour(),
                  time.getMinute(),
                  time.getSecond(),
                  time.getNano() / 1000));
    }
    Object value = vector.getObject(row);
    return switch (value) {
      case Boolean bool -> bool ? "TRUE" : "FALSE";
      case Byte number -> number.toString();
      case Short number -> number.toString();
      case Integer number -> number.toString();
      case Long number -> number.toString();
      case BigDecimal decimal -> decimal.toPlainString();
      case Float number -> floating(number.doubleValue(), vector);
      case Double number -> floating(number, vector);
      case Text text -> quoted(text.toString());
      case String text -> quoted(text);
      default ->
          throw FlightErrors.of(
              QueryErrorCode.UNSUPPORTED,
              "Cannot bind parameter "
                  + vector.getField().getName()
                  + ": Arrow type "
                  + type
                  + " is not supported (bind a number, string, boolean, date or timestamp)");
    };
  }

  private static String floating(double value, FieldVector vector) {
    if (!Double.isFinite(value)) {
      throw FlightErrors.of(
          QueryErrorCode.BAD_REQUEST,
          "Cannot bind parameter "
              + vector.getField().getName()
              + ": "
              + value
              + " has no SQL literal (bind a finite number)");
    }
    // An exponent makes the literal a DOUBLE, as the bound value is.
    return Double.toString(value).contains("E") ? Double.toString(value) : value + "E0";
  }

  static String quoted(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  /**
   * {@code sql} with its parameters replaced by {@code literals}, in order.
   *
   * @throws org.apache.arrow.flight.FlightRuntimeException when the counts differ
   */
  static String substitute(String sql, List<String> literals) {
    StringBuilder out = new StringBuilder(sql.length() + 16 * literals.size());
    int next = 0;
    int i = 0;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      int end = skipQuotedOrComment(sql, i);
      if (end > i) {
        out.append(sql, i, end);
        i = end;
        continue;
      }
      if (c == '?') {
        if (next == literals.size()) {
          throw tooFew(sql, literals.size());
        }
        out.append(literals.get(next++));
      } else {
        out.append(c);
      }
      i++;
    }
    if (next != literals.size()) {
      throw FlightErrors.of(
          QueryErrorCode.BAD_REQUEST,
          "Cannot bind %d parameters: the statement has %d placeholders (?)"
              .formatted(literals.size(), next));
    }
    return out.toString();
  }

  /** The number of {@code ?} placeholders in {@code sql}. */
  static int count(String sql) {
    int count = 0;
    int i = 0;
    while (i < sql.length()) {
      int end = skipQuotedOrComment(sql, i);
      if (end > i) {
        i = end;
        continue;
      }
      if (sql.charAt(i) == '?') {
        count++;
      }
      i++;
    }
    return count;
  }

  /** Where the quoted text or comment starting at {@code i} ends; {@code i} when none starts. */
  private static int skipQuotedOrComment(String sql, int i) {
    char c = sql.charAt(i);
    if (c == '\'' || c == '"' || c == '`') {
      int j = i + 1;
      while (j < sql.length()) {
        if (sql.charAt(j) == c) {
          if (j + 1 < sql.length() && sql.charAt(j + 1) == c) {
            j += 2; // a doubled quote stays inside
            continue;
          }
          return j + 1;
        }
        j++;
      }
      return sql.length();
    }
    if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
      int newline = sql.indexOf('\n', i);
      return newline < 0 ? sql.length() : newline + 1;
    }
    if (c == '/' && i + 1 < sql.length() && sql.charAt(i + 1) == '*') {
      int close = sql.indexOf("*/", i + 2);
      return close < 0 ? sql.length() : close + 2;
    }
    return i;
  }

  private static RuntimeException tooFew(String sql, int bound) {
    return FlightErrors.of(
        QueryErrorCode.BAD_REQUEST,
        "Cannot bind %d parameters: the statement has %d placeholders (?)"
            .formatted(bound, count(sql)));
  }
}
