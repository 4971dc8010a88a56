package io.shelfmark.testing.oracle;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Array;
import java.sql.Blob;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns values of either engine into the few types {@link QueryResult} holds, so that equal answers
 * look equal whichever engine and driver produced them.
 *
 * <ul>
 *   <li>Byte, Short, Integer, Long, BigInteger (DuckDB's HUGEINT sums) → {@link Long}; a BigInteger
 *       beyond a long's range → {@link Double}.
 *   <li>Float, Double, BigDecimal → {@link Double}.
 *   <li>Character, CharSequence → {@link String}; byte[] and BLOB → {@code "0x<hex>"}.
 *   <li>java.sql.Date → {@link LocalDate}; java.sql.Timestamp → {@link LocalDateTime} (its
 *       wall-clock fields, no zone); OffsetDateTime/ZonedDateTime → {@link Instant}.
 *   <li>arrays, {@link java.sql.Array} and {@link List} → unmodifiable {@link List}; {@link Map} →
 *       unmodifiable {@link Map} keeping its order; elements normalised the same way.
 * </ul>
 */
public final class ResultValues {
  private ResultValues() {}

  /**
   * The normalised form of a value.
   *
   * @throws IllegalArgumentException for a type with no normal form, naming it
   */
  public static Object normalize(Object value) {
    return switch (value) {
      case null -> null;
      case Long l -> l;
      case Integer i -> (long) i;
      case Short s -> (long) s;
      case Byte b -> (long) b;
      case BigInteger big -> big.bitLength() < 64 ? (Object) big.longValue() : big.doubleValue();
      case Double d -> d;
      case Float f -> (double) f;
      case BigDecimal decimal -> decimal.doubleValue();
      case String s -> s;
      case Character c -> String.valueOf(c);
      case CharSequence chars -> chars.toString();
      case Boolean b -> b;
      case LocalDate date -> date;
      case LocalDateTime dateTime -> dateTime;
      case Instant instant -> instant;
      case java.sql.Date date -> date.toLocalDate();
      case Timestamp timestamp -> timestamp.toLocalDateTime();
      case OffsetDateTime offset -> offset.toInstant();
      case ZonedDateTime zoned -> zoned.toInstant();
      case byte[] bytes -> "0x" + HexFormat.of().formatHex(bytes);
      case Blob blob -> blobHex(blob);
      case Array array -> normalizeArray(array);
      case Object[] array -> normalizeList(List.of(array));
      case List<?> list -> normalizeList(list);
      case Map<?, ?> map -> normalizeMap(map);
      default ->
          throw new IllegalArgumentException(
              "Cannot normalise result value "
                  + value
                  + ": type "
                  + value.getClass().getName()
                  + " has no normal form (convert it to a number, string, date or list first)");
    };
  }

  private static List<Object> normalizeList(List<?> list) {
    List<Object> values = new ArrayList<>(list.size());
    for (Object element : list) {
      values.add(normalize(element));
    }
    return Collections.unmodifiableList(values);
  }

  private static Map<Object, Object> normalizeMap(Map<?, ?> map) {
    Map<Object, Object> values = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      values.put(normalize(entry.getKey()), normalize(entry.getValue()));
    }
    return Collections.unmodifiableMap(values);
  }

  private static List<Object> normalizeArray(Array array) {
    try {
      Object elements = array.getArray();
      if (elements instanceof Object[] objects) {
        return normalizeList(java.util.Arrays.asList(objects));
      }
      throw new IllegalArgumentException(
          "Cannot normalise SQL array: elements come as "
              + elements.getClass().getName()
              + " (expected an object array)");
    } catch (SQLException e) {
      throw new IllegalArgumentException("Cannot read SQL array: " + e.getMessage(), e);
    }
  }

  private static String blobHex(Blob blob) {
    try {
      return "0x" + HexFormat.of().formatHex(blob.getBytes(1, Math.toIntExact(blob.length())));
    } catch (SQLException e) {
      throw new IllegalArgumentException("Cannot read BLOB value: " + e.getMessage(), e);
    }
  }
}
