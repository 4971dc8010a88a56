package io.shelfmark.exchange.vector;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.MapType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.math.BigDecimal;

/**
 * The values of one expression for the rows of one batch, in one primitive array chosen by the SQL
 * type, with null flags. Batches are what execution works on: a row group's selected rows, or the
 * groups of a finished aggregation.
 *
 * <pre>
 * type                                          held in
 * BOOLEAN (0/1), INT, LONG, DATE (days),        longs
 *   TIMESTAMP, TIMESTAMP_TZ (micros)
 * FLOAT, DOUBLE                                 doubles (a FLOAT widens to double exactly)
 * DECIMAL(p,s)                                  objects: BigDecimal of scale s
 * STRING                                        objects: String, or ids into a {@link Dictionary}
 * BINARY                                        objects: byte[]
 * </pre>
 *
 * A null row's slot holds 0, 0.0 or null. {@code nulls} is {@code null} when no row is null. Arrays
 * may be longer than {@link #size()} and are shared, not copied: a vector is immutable by
 * convention once built.
 */
public final class Vector {
  /** Values by id, for dictionary-encoded strings; decoding may be lazy. */
  public interface Dictionary {
    /** The value of {@code id}: a String (STRING) or byte[] (BINARY). */
    Object value(int id);

    int size();
  }

  private final SqlType type;
  private final int size;
  private final boolean[] nulls;
  private final long[] longs;
  private final double[] doubles;
  private final Object[] objects;
  private final int[] ids;
  private final Dictionary dictionary;

  private Vector(
      SqlType type,
      int size,
      boolean[] nulls,
      long[] longs,
      double[] doubles,
      Object[] objects,
      int[] ids,
      Dictionary dictionary) {
    this.type = requireNonNull(type, "type is null");
    this.size = size;
    this.nulls = nulls;
    this.longs = longs;
    this.doubles = doubles;
    this.objects = objects;
    this.ids = ids;
    this.dictionary = dictionary;
  }

  /** Whether values of {@code type} are held in {@link #longs()}. */
  public static boolean isLongType(SqlType type) {
    return type instanceof PrimitiveType primitive
        && switch (primitive) {
          case BOOLEAN, INT, LONG, DATE, TIMESTAMP, TIMESTAMP_TZ -> true;
          default -> false;
        };
  }

  /** Whether values of {@code type} are held in {@link #doubles()}. */
  public static boolean isDoubleType(SqlType type) {
    return type == PrimitiveType.FLOAT || type == PrimitiveType.DOUBLE;
  }

  public static Vector ofLongs(SqlType type, int size, long[] values, boolean[] nulls) {
    if (!isLongType(type)) {
      throw new IllegalArgumentException("Cannot hold " + type + " values as longs");
    }
    return new Vector(type, size, nulls, values, null, null, null, null);
  }

  public static Vector ofDoubles(SqlType type, int size, double[] values, boolean[] nulls) {
    if (!isDoubleType(type)) {
      throw new IllegalArgumentException("Cannot hold " + type + " values as doubles");
    }
    return new Vector(type, size, nulls, null, values, null, null, null);
  }

  /**
   * DECIMAL (BigDecimal), STRING (String), BINARY (byte[]) or MAP ({@code Map<String, Object>})
   * values; null entries are null.
   */
  public static Vector ofObjects(SqlType type, int size, Object[] values, boolean[] nulls) {
    if (isLongType(type)
        || isDoubleType(type)
        || (!type.isPrimitive() && !(type instanceof MapType))) {
      throw new IllegalArgumentException("Cannot hold " + type + " values as objects");
    }
    return new Vector(type, size, nulls, null, null, values, null, null);
  }

  /** STRING or BINARY values as dictionary ids; id -1 is a null row. */
  public static Vector ofIds(SqlType type, int size, int[] ids, Dictionary dictionary) {
    if (type != PrimitiveType.STRING && type != PrimitiveType.BINARY) {
      throw new IllegalArgumentException("Cannot hold " + type + " values as dictionary ids");
    }
    boolean[] nulls = null;
    for (int i = 0; i < size; i++) {
      if (ids[i] < 0) {
        if (nulls == null) {
          nulls = new boolean[size];
        }
        nulls[i] = true;
      }
    }
    return new Vector(
        type, size, nulls, null, null, null, ids, requireNonNull(dictionary, "dictionary"));
  }

  /** {@code size} rows of NULL. */
  public static Vector allNull(SqlType type, int size) {
    boolean[] nulls = new boolean[size];
    java.util.Arrays.fill(nulls, true);
    if (isLongType(type)) {
      return new Vector(type, size, nulls, new long[size], null, null, null, null);
    }
    if (isDoubleType(type)) {
      return new Vector(type, size, nulls, null, new double[size], null, null, null);
    }
    return new Vector(type, size, nulls, null, null, new Object[size], null, null);
  }

  /** One value (of the type's Java representation, see {@code SqlType}) repeated. */
  public static Vector constant(SqlType type, Object value, int size) {
    if (value == null) {
      return allNull(type, size);
    }
    if (isLongType(type)) {
      long[] values = new long[size];
      java.util.Arrays.fill(values, Values.toLong(value));
      return ofLongs(type, size, values, null);
    }
    if (isDoubleType(type)) {
      double[] values = new double[size];
      java.util.Arrays.fill(values, ((Number) value).doubleValue());
      return ofDoubles(type, size, values, null);
    }
    Object[] values = new Object[size];
    java.util.Arrays.fill(values, value);
    return ofObjects(type, size, values, null);
  }

  public SqlType type() {
    return type;
  }

  public int size() {
    return size;
  }

  /** Null flags, or {@code null} when no row is null. */
  public boolean[] nulls() {
    return nulls;
  }

  public boolean isNull(int row) {
    return nulls != null && nulls[row];
  }

  public long[] longs() {
    if (longs == null) {
      throw new IllegalStateException("Cannot read " + type + " values as longs");
    }
    return longs;
  }

  public double[] doubles() {
    if (doubles == null) {
      throw new IllegalStateException("Cannot read " + type + " values as doubles");
    }
    return doubles;
  }

  /** Whether the values are dictionary ids ({@link #ids()}, {@link #dictionary()}). */
  public boolean isDictionaryEncoded() {
    return ids != null;
  }

  public int[] ids() {
    return ids;
  }

  public Dictionary dictionary() {
    return dictionary;
  }

  /** The object value of row {@code row} (DECIMAL, STRING, BINARY), null when null. */
  public Object object(int row) {
    if (ids != null) {
      int id = ids[row];
      return id < 0 ? null : dictionary.value(id);
    }
    if (objects == null) {
      throw new IllegalStateException("Cannot read " + type + " values as objects");
    }
    return objects[row];
  }

  /**
   * Row {@code row} boxed in the type's Java representation (see {@code SqlType}): Boolean, Integer
   * (INT, DATE), Long, Float, Double, BigDecimal, String, byte[]; null when null.
   */
  public Object boxed(int row) {
    if (isNull(row)) {
      return null;
    }
    if (longs != null) {
      long value = longs[row];
      return switch ((PrimitiveType) type) {
        case BOOLEAN -> value != 0;
        case INT, DATE -> (int) value;
        default -> value;
      };
    }
    if (doubles != null) {
      return type == PrimitiveType.FLOAT ? (Object) (float) doubles[row] : (Object) doubles[row];
    }
    return object(row);
  }

  /** The decimal of row {@code row}. */
  public BigDecimal decimal(int row) {
    if (!(type instanceof DecimalType)) {
      throw new IllegalStateException("Cannot read " + type + " values as decimals");
    }
    return (BigDecimal) object(row);
  }

  @Override
  public String toString() {
    return "Vector[" + type + " x " + size + (ids != null ? ", dictionary" : "") + "]";
  }
}
