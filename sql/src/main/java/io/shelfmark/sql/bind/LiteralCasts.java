package io.shelfmark.sql.bind;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.SqlPosition;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.tree.LiteralNode;
import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.Optional;

/**
 * Types literals and casts them. A literal written alone gets DuckDB's type: an integer INT, LONG
 * or DECIMAL(p,0) by size; a number with a point DECIMAL(p,s); an exponent DOUBLE. Compared with an
 * expression of another type, it is cast to that type when the cast is exact (a STRING literal is
 * parsed as that type, so {@code org_id = '184833768'} compares LONGs); when it is not exact
 * (comparing an INT column with 1.5) the caller widens both sides instead, so no comparison changes
 * meaning.
 */
final class LiteralCasts {
  private static final BigDecimal INT_MIN = BigDecimal.valueOf(Integer.MIN_VALUE);
  private static final BigDecimal INT_MAX = BigDecimal.valueOf(Integer.MAX_VALUE);
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
  private static final DateTimeFormatter TIMESTAMP =
      new DateTimeFormatterBuilder()
          .parseCaseInsensitive()
          .append(DateTimeFormatter.ISO_LOCAL_DATE)
          .optionalStart()
          .appendLiteral(' ')
          .optionalEnd()
          .optionalStart()
          .appendLiteral('T')
          .optionalEnd()
          .optionalStart()
          .appendValue(ChronoField.HOUR_OF_DAY, 2)
          .appendLiteral(':')
          .appendValue(ChronoField.MINUTE_OF_HOUR, 2)
          .optionalStart()
          .appendLiteral(':')
          .appendValue(ChronoField.SECOND_OF_MINUTE, 2)
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 6, true)
          .optionalEnd()
          .optionalEnd()
          .optionalEnd()
          .optionalStart()
          .appendOffset("+HH:MM", "Z")
          .optionalEnd()
          .parseDefaulting(ChronoField.HOUR_OF_DAY, 0)
          .parseDefaulting(ChronoField.MINUTE_OF_HOUR, 0)
          .parseDefaulting(ChronoField.SECOND_OF_MINUTE, 0)
          .toFormatter(Locale.ROOT);

  private LiteralCasts() {}

  /** The literal with its own type; {@code NULL} must be handled by the caller (it has none). */
  static Literal typed(LiteralNode node) {
    String text = node.value();
    return switch (node.kind()) {
      case EXACT_NUMBER -> exactNumber(new BigDecimal(text), text.contains("."), node.position());
      case APPROXIMATE_NUMBER -> approximateNumber(text, node.position());
      case STRING -> Literal.ofString(text);
      case BOOLEAN -> Literal.of(Boolean.parseBoolean(text));
      case DATE ->
          parseTemporal(text, PrimitiveType.DATE)
              .orElseThrow(() -> badTypedLiteral(node, PrimitiveType.DATE));
      case TIMESTAMP ->
          parseTemporal(text, PrimitiveType.TIMESTAMP)
              .orElseThrow(() -> badTypedLiteral(node, PrimitiveType.TIMESTAMP));
      case NULL -> throw new IllegalArgumentException("NULL has no type of its own");
    };
  }

  private static SqlException badTypedLiteral(LiteralNode node, PrimitiveType type) {
    return SqlException.of(
        SqlErrorKind.INVALID,
        node.position(),
        "parse " + type + " literal " + node.sql(),
        "it is not a valid " + type,
        "write " + format(type));
  }

  static Literal exactNumber(BigDecimal value, boolean hasPoint, SqlPosition position) {
    if (!hasPoint && value.scale() <= 0) {
      if (value.compareTo(INT_MIN) >= 0 && value.compareTo(INT_MAX) <= 0) {
        return Literal.ofInt(value.intValueExact());
      }
      if (value.compareTo(LONG_MIN) >= 0 && value.compareTo(LONG_MAX) <= 0) {
        return Literal.ofLong(value.longValueExact());
      }
    }
    BigDecimal number = value.scale() < 0 ? value.setScale(0) : value;
    int precision = Math.max(number.precision(), number.scale() + 1);
    if (precision > DecimalType.MAX_PRECISION) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          position,
          "type number " + value.toPlainString(),
          "it has more than " + DecimalType.MAX_PRECISION + " digits",
          "write it with an exponent, such as 1.5e40, to make it a DOUBLE");
    }
    return new Literal(number, new DecimalType(precision, number.scale()));
  }

  private static Literal approximateNumber(String text, SqlPosition position) {
    double value = Double.parseDouble(text);
    if (Double.isInfinite(value)) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          position,
          "type number " + text,
          "it is out of the DOUBLE range",
          null);
    }
    return Literal.ofDouble(value);
  }

  /**
   * {@code literal} as a {@code target} literal for a comparison, when that is exact; empty when a
   * numeric literal does not fit exactly (the caller then widens both sides).
   *
   * @param comparedWith the other side as written, for the message of an unparsable string
   * @throws SqlException if a STRING literal does not parse as {@code target}
   */
  static Optional<Literal> castForComparison(
      Literal literal, SqlType target, SqlPosition position, String comparedWith) {
    if (literal.isNull()) {
      return Optional.of(Literal.nullOf(target));
    }
    if (literal.type().equals(target)) {
      return Optional.of(literal);
    }
    Object value = literal.value();
    if (value instanceof String text && target != PrimitiveType.STRING) {
      return Optional.of(parseString(text, target, position, comparedWith));
    }
    if (literal.type().isNumeric() && target.isNumeric()) {
      return exactNumeric(literal, target);
    }
    if (literal.type() == PrimitiveType.DATE
        && (target == PrimitiveType.TIMESTAMP || target == PrimitiveType.TIMESTAMP_TZ)) {
      return Optional.of(new Literal((Integer) value * 86_400_000_000L, target));
    }
    if (literal.type() == PrimitiveType.TIMESTAMP && target == PrimitiveType.TIMESTAMP_TZ) {
      return Optional.of(new Literal(value, target));
    }
    if ((literal.type() == PrimitiveType.TIMESTAMP || literal.type() == PrimitiveType.TIMESTAMP_TZ)
        && target == PrimitiveType.DATE) {
      long micros = (Long) value;
      return micros % 86_400_000_000L == 0
          ? Optional.of(new Literal(Math.toIntExact(micros / 86_400_000_000L), target))
          : Optional.empty();
    }
    return Optional.empty();
  }

  private static Literal parseString(
      String text, SqlType target, SqlPosition position, String comparedWith) {
    String trimmed = text.strip();
    Optional<Literal> parsed = Optional.empty();
    if (target == PrimitiveType.FLOAT || target == PrimitiveType.DOUBLE) {
      parsed = parseFloating(trimmed, (PrimitiveType) target);
    } else if (target.isNumeric()) {
      Optional<Literal> number = parseExact(trimmed, position);
      parsed = number.flatMap(value -> exactNumeric(value, target));
      if (parsed.isEmpty() && number.isPresent()) {
        throw SqlException.of(
            SqlErrorKind.INVALID,
            position,
            "cast " + Literal.ofString(text) + " to " + target.displayName(),
            "the value does not fit in " + target.displayName() + ", the type of " + comparedWith,
            "write " + format(target));
      }
    } else if (target == PrimitiveType.BOOLEAN) {
      parsed =
          trimmed.equalsIgnoreCase("true") || trimmed.equalsIgnoreCase("false")
              ? Optional.of(Literal.of(Boolean.parseBoolean(trimmed)))
              : Optional.empty();
    } else if (target instanceof PrimitiveType primitive && primitive.isTemporal()) {
      parsed = parseTemporal(trimmed, primitive);
    }
    return parsed.orElseThrow(
        () ->
            SqlException.of(
                SqlErrorKind.INVALID,
                position,
                "cast " + Literal.ofString(text) + " to " + target.displayName(),
                "it is compared with " + comparedWith + ", which is " + target.displayName(),
                "write " + format(target)));
  }

  private static Optional<Literal> parseExact(String text, SqlPosition position) {
    try {
      BigDecimal value = new BigDecimal(text);
      return Optional.of(exactNumber(value, value.scale() > 0, position));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static Optional<Literal> parseFloating(String text, PrimitiveType target) {
    try {
      double value = Double.parseDouble(text);
      return Optional.of(
          target == PrimitiveType.FLOAT
              ? new Literal((float) value, target)
              : Literal.ofDouble(value));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  static Optional<Literal> parseTemporal(String text, PrimitiveType target) {
    try {
      if (target == PrimitiveType.DATE) {
        return Optional.of(
            new Literal(Math.toIntExact(LocalDate.parse(text).toEpochDay()), target));
      }
      var parsed = TIMESTAMP.parseBest(text, OffsetDateTime::from, LocalDateTime::from);
      long micros =
          switch (parsed) {
            case OffsetDateTime offset -> micros(offset.toLocalDateTime(), offset.getOffset());
            case LocalDateTime local -> micros(local, ZoneOffset.UTC);
            default -> throw new IllegalStateException("unexpected " + parsed);
          };
      if (target == PrimitiveType.TIMESTAMP && parsed instanceof OffsetDateTime) {
        // A zone on a value compared with a zoneless timestamp would be silently dropped.
        return Optional.empty();
      }
      return Optional.of(new Literal(micros, target));
    } catch (DateTimeParseException | ArithmeticException e) {
      return Optional.empty();
    }
  }

  private static long micros(LocalDateTime time, ZoneOffset offset) {
    long seconds = time.toEpochSecond(offset);
    return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), time.getNano() / 1_000L);
  }

  /** A numeric literal as {@code target} when exact (to FLOAT/DOUBLE: the nearest value). */
  static Optional<Literal> exactNumeric(Literal literal, SqlType target) {
    if (target == PrimitiveType.DOUBLE) {
      return Optional.of(Literal.ofDouble(((Number) literal.value()).doubleValue()));
    }
    if (target == PrimitiveType.FLOAT) {
      return Optional.of(new Literal(((Number) literal.value()).floatValue(), target));
    }
    Optional<BigDecimal> exact = asBigDecimal(literal.value());
    if (exact.isEmpty()) {
      return Optional.empty();
    }
    BigDecimal value = exact.get();
    if (target == PrimitiveType.INT || target == PrimitiveType.LONG) {
      BigDecimal stripped = value.stripTrailingZeros();
      if (stripped.scale() > 0) {
        return Optional.empty();
      }
      BigInteger integer = stripped.toBigIntegerExact();
      if (target == PrimitiveType.INT) {
        return integer.bitLength() < Integer.SIZE
            ? Optional.of(Literal.ofInt(integer.intValueExact()))
            : Optional.empty();
      }
      return integer.bitLength() < Long.SIZE
          ? Optional.of(Literal.ofLong(integer.longValueExact()))
          : Optional.empty();
    }
    DecimalType decimal = (DecimalType) target;
    try {
      BigDecimal scaled = value.setScale(decimal.scale());
      return scaled.precision() - scaled.scale() <= decimal.integerDigits()
          ? Optional.of(new Literal(scaled, decimal))
          : Optional.empty();
    } catch (ArithmeticException e) {
      return Optional.empty();
    }
  }

  private static Optional<BigDecimal> asBigDecimal(Object value) {
    return switch (value) {
      case Integer number -> Optional.of(BigDecimal.valueOf(number));
      case Long number -> Optional.of(BigDecimal.valueOf(number));
      case BigDecimal number -> Optional.of(number);
      case Double number when Double.isFinite(number) -> Optional.of(new BigDecimal(number));
      case Float number when Float.isFinite(number) -> Optional.of(new BigDecimal(number));
      default -> Optional.empty();
    };
  }

  /**
   * {@code literal} widened to {@code target}, a common type from {@link TypeRules#common}: always
   * possible (exact but for FLOAT/DOUBLE targets, which take the nearest value).
   */
  static Literal widen(Literal literal, SqlType target) {
    if (literal.isNull()) {
      return Literal.nullOf(target);
    }
    // Only numbers and dates widen; a STRING literal was parsed (or refused) before, so the
    // position and description below never reach a message.
    return castForComparison(literal, target, new SqlPosition(1, 1), "a value")
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "Cannot widen " + literal + " to " + target.displayName()));
  }

  /** How to write a literal of {@code type}, for hints. */
  static String format(SqlType type) {
    if (type instanceof DecimalType
        || type == PrimitiveType.FLOAT
        || type == PrimitiveType.DOUBLE) {
      return "a number, such as 1.5";
    }
    if (!(type instanceof PrimitiveType primitive)) {
      return "a value of type " + type.displayName();
    }
    return switch (primitive) {
      case INT, LONG -> "an integer, such as 184833768";
      case BOOLEAN -> "TRUE or FALSE";
      case DATE -> "a date as 'YYYY-MM-DD'";
      case TIMESTAMP -> "a timestamp as 'YYYY-MM-DD HH:MM:SS[.ffffff]'";
      case TIMESTAMP_TZ ->
          "a timestamp as 'YYYY-MM-DD HH:MM:SS[.ffffff][+HH:MM]' (UTC if no offset)";
      default -> "a " + primitive + " value";
    };
  }
}
