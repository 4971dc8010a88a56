package io.shelfmark.server.column;

import io.shelfmark.exchange.error.UnsupportedQueryException;
import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.Int96;
import io.shelfmark.parquet.batch.PrimitiveValues;
import io.shelfmark.parquet.schema.ColumnSchema;
import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.TimeUnit;
import org.apache.parquet.format.Type;

/**
 * Converts a decoded Parquet column batch (physical values) into a {@link Vector} of the table
 * column's SQL type, entry for entry:
 *
 * <pre>
 * SQL type        Parquet physical (annotation)                 conversion
 * BOOLEAN         BOOLEAN                                       0/1
 * INT, LONG       INT32, INT64                                  as is (INT32 widens to LONG)
 * FLOAT, DOUBLE   FLOAT, DOUBLE                                 as is (FLOAT widens to DOUBLE)
 * DATE            INT32 (DATE)                                  days since 1970-01-01
 * TIMESTAMP[_TZ]  INT64 (TIMESTAMP MILLIS/MICROS/NANOS), INT96   micros (nanos floor-divided)
 * DECIMAL(p,s)    INT32, INT64, FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY unscaled → BigDecimal, rescaled
 *                 (DECIMAL(p',s'))                                to s exactly
 * STRING          BYTE_ARRAY                                     UTF-8 → String (dictionary ids
 *                                                                kept, entries decoded lazily)
 * BINARY          BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY               byte[]
 * </pre>
 *
 * Any other pairing is refused with {@link UnsupportedQueryException} naming the file and column.
 * Stateless.
 */
public final class ParquetVectors {
  private ParquetVectors() {}

  /** Every entry of {@code batch} as a vector of {@code type}. */
  public static Vector convert(ColumnBatch batch, SqlType type, String file) {
    ColumnSchema column = batch.column();
    int size = batch.valueCount();
    boolean[] nulls = batch.nulls();
    Type physical = column.physicalType();
    if (type instanceof DecimalType decimal) {
      return decimals(batch, decimal, file);
    }
    PrimitiveType primitive = (PrimitiveType) type;
    switch (primitive) {
      case BOOLEAN -> {
        require(physical == Type.BOOLEAN, column, type, file);
        boolean[] in = batch.values().booleans();
        long[] out = new long[size];
        for (int i = 0; i < size; i++) {
          out[i] = in[i] ? 1 : 0;
        }
        return Vector.ofLongs(type, size, out, nulls);
      }
      case INT, LONG, DATE -> {
        return Vector.ofLongs(type, size, integers(batch, column, type, file), nulls);
      }
      case TIMESTAMP, TIMESTAMP_TZ -> {
        return Vector.ofLongs(type, size, timestamps(batch, column, type, file), nulls);
      }
      case FLOAT, DOUBLE -> {
        double[] out = new double[size];
        if (physical == Type.FLOAT) {
          float[] in = batch.values().floats();
          for (int i = 0; i < size; i++) {
            out[i] = in[i];
          }
        } else {
          require(physical == Type.DOUBLE && type == PrimitiveType.DOUBLE, column, type, file);
          System.arraycopy(batch.values().doubles(), 0, out, 0, size);
        }
        return Vector.ofDoubles(type, size, out, nulls);
      }
      case STRING, BINARY -> {
        require(
            physical == Type.BYTE_ARRAY
                || (physical == Type.FIXED_LEN_BYTE_ARRAY && type == PrimitiveType.BINARY),
            column,
            type,
            file);
        boolean text = type == PrimitiveType.STRING;
        if (batch.isDictionaryEncoded()) {
          return Vector.ofIds(
              type, size, batch.dictionaryIds(), new LazyDictionary(batch.dictionary(), text));
        }
        PrimitiveValues values = batch.values();
        Object[] out = new Object[size];
        for (int i = 0; i < size; i++) {
          if (nulls == null || !nulls[i]) {
            out[i] = binary(values, i, text);
          }
        }
        return Vector.ofObjects(type, size, out, nulls);
      }
    }
    throw new IllegalStateException("unreachable: " + type);
  }

  private static long[] integers(ColumnBatch batch, ColumnSchema column, SqlType type, String f) {
    int size = batch.valueCount();
    long[] out = new long[size];
    Type physical = column.physicalType();
    if (physical == Type.INT32) {
      int[] in = batch.values().ints();
      for (int i = 0; i < size; i++) {
        out[i] = in[i];
      }
      return out;
    }
    require(physical == Type.INT64 && type == PrimitiveType.LONG, column, type, f);
    System.arraycopy(batch.values().longs(), 0, out, 0, size);
    return out;
  }

  private static long[] timestamps(ColumnBatch batch, ColumnSchema column, SqlType type, String f) {
    int size = batch.valueCount();
    long[] out = new long[size];
    if (column.physicalType() == Type.INT96) {
      PrimitiveValues values = batch.values();
      byte[] data = values.binaryData();
      int[] offsets = values.binaryOffsets();
      for (int i = 0; i < size; i++) {
        if (!batch.isNull(i)) {
          out[i] = Int96.toEpochMicros(data, offsets[i]);
        }
      }
      return out;
    }
    require(column.physicalType() == Type.INT64, column, type, f);
    long[] in = batch.values().longs();
    TimeUnitKind unit = unit(column);
    for (int i = 0; i < size; i++) {
      out[i] =
          switch (unit) {
            case MILLIS -> in[i] * 1000;
            case MICROS -> in[i];
            case NANOS -> Math.floorDiv(in[i], 1000L);
          };
    }
    return out;
  }

  /** The unit of a timestamp column's values. */
  public enum TimeUnitKind {
    MILLIS,
    MICROS,
    NANOS
  }

  /** The unit of an INT64 timestamp column (MICROS when it carries no annotation). */
  public static TimeUnitKind unit(ColumnSchema column) {
    Optional<LogicalType> logical = column.logicalType();
    if (logical.isPresent() && logical.get().isSetTIMESTAMP()) {
      TimeUnit unit = logical.get().getTIMESTAMP().getUnit();
      if (unit.isSetMILLIS()) {
        return TimeUnitKind.MILLIS;
      }
      return unit.isSetNANOS() ? TimeUnitKind.NANOS : TimeUnitKind.MICROS;
    }
    if (column.convertedType().isPresent()
        && column.convertedType().get() == ConvertedType.TIMESTAMP_MILLIS) {
      return TimeUnitKind.MILLIS;
    }
    return TimeUnitKind.MICROS;
  }

  private static Vector decimals(ColumnBatch batch, DecimalType type, String file) {
    ColumnSchema column = batch.column();
    int size = batch.valueCount();
    int scale = column.scale();
    PrimitiveValues values = batch.values();
    Object[] out = new Object[size];
    for (int i = 0; i < size; i++) {
      if (batch.isNull(i)) {
        continue;
      }
      BigDecimal value =
          switch (column.physicalType()) {
            case INT32 -> BigDecimal.valueOf(values.ints()[i], scale);
            case INT64 -> BigDecimal.valueOf(values.longs()[i], scale);
            case FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY ->
                new BigDecimal(new BigInteger(values.binary(i)), scale);
            default -> {
              require(false, column, type, file);
              yield null;
            }
          };
      // Iceberg only widens a decimal's precision, never its scale: this is exact.
      out[i] = value.setScale(type.scale(), RoundingMode.UNNECESSARY);
    }
    return Vector.ofObjects(type, size, out, batch.nulls());
  }

  private static Object binary(PrimitiveValues values, int index, boolean text) {
    byte[] data = values.binaryData();
    int[] offsets = values.binaryOffsets();
    int start = offsets[index];
    int length = offsets[index + 1] - start;
    return text
        ? new String(data, start, length, StandardCharsets.UTF_8)
        : Arrays.copyOfRange(data, start, start + length);
  }

  private static void require(boolean ok, ColumnSchema column, SqlType type, String file) {
    if (!ok) {
      throw new UnsupportedQueryException(
          "Cannot read column %s of %s as %s: the file stores it as %s (this pairing of types is not supported)"
              .formatted(column.dottedPath(), file, type.displayName(), column));
    }
  }

  /** A column chunk's dictionary, each entry decoded on first use. */
  private static final class LazyDictionary implements Vector.Dictionary {
    private final PrimitiveValues values;
    private final boolean text;
    private final Object[] decoded;

    LazyDictionary(PrimitiveValues values, boolean text) {
      this.values = values;
      this.text = text;
      this.decoded = new Object[values.size()];
    }

    @Override
    public Object value(int id) {
      Object value = decoded[id];
      if (value == null) {
        value = binary(values, id, text);
        decoded[id] = value;
      }
      return value;
    }

    @Override
    public int size() {
      return values.size();
    }
  }
}
