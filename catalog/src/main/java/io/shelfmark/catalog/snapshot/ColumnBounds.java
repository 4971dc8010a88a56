package io.shelfmark.catalog.snapshot;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * What an Iceberg manifest records about one column of one data file: counts and lower/upper
 * bounds, as the writer computed them. What a broker prunes files on when they have no segment.
 *
 * <p>Bounds are inclusive and conservative, not exact: Iceberg writers truncate string and binary
 * bounds (a prefix as the lower bound, an incremented prefix as the upper bound), and float/double
 * bounds exclude NaN (see {@link #nanCount()}). A missing value means unknown, never "none".
 *
 * @param valueCount values in the column including nulls and NaN, when recorded
 * @param nullCount null values, when recorded
 * @param nanCount NaN values of a float or double column, when recorded
 * @param lower the smallest non-null, non-NaN value, in Iceberg's representation of the field's
 *     type in the table's current schema ({@code Integer} for int and date, {@code Long} for long,
 *     time and timestamps (micros), {@code Float}, {@code Double}, {@code String}, {@code Boolean},
 *     {@code BigDecimal}, {@code UUID}, a read-only {@code ByteBuffer} for fixed and binary)
 * @param upper the largest non-null, non-NaN value, in the same representation
 */
public record ColumnBounds(
    OptionalLong valueCount,
    OptionalLong nullCount,
    OptionalLong nanCount,
    Optional<Object> lower,
    Optional<Object> upper) {
  public ColumnBounds {
    requireNonNull(valueCount, "valueCount is null");
    requireNonNull(nullCount, "nullCount is null");
    requireNonNull(nanCount, "nanCount is null");
    requireNonNull(lower, "lower is null");
    requireNonNull(upper, "upper is null");
  }

  /**
   * The bounds of every column of {@code file} that {@code schema} still has, by field id. Bounds
   * are decoded with the field's type in {@code schema}: field ids never change meaning, and
   * Iceberg decodes bounds written before a type promotion (int to long, float to double) as the
   * promoted type. Fields the schema no longer has (dropped columns) are left out.
   *
   * @return an unmodifiable map, empty when the manifest kept no column statistics
   */
  static Map<Integer, ColumnBounds> of(ContentFile<?> file, Schema schema) {
    requireNonNull(file, "file is null");
    requireNonNull(schema, "schema is null");
    Map<Integer, Long> values = orEmpty(file.valueCounts());
    Map<Integer, Long> nulls = orEmpty(file.nullValueCounts());
    Map<Integer, Long> nans = orEmpty(file.nanValueCounts());
    Map<Integer, ByteBuffer> lowers = orEmpty(file.lowerBounds());
    Map<Integer, ByteBuffer> uppers = orEmpty(file.upperBounds());
    TreeSet<Integer> ids = new TreeSet<>();
    ids.addAll(values.keySet());
    ids.addAll(nulls.keySet());
    ids.addAll(nans.keySet());
    ids.addAll(lowers.keySet());
    ids.addAll(uppers.keySet());
    Map<Integer, ColumnBounds> bounds = new LinkedHashMap<>();
    for (int id : ids) {
      Types.NestedField field = schema.findField(id);
      if (field == null) {
        continue;
      }
      bounds.put(
          id,
          new ColumnBounds(
              count(values.get(id)),
              count(nulls.get(id)),
              count(nans.get(id)),
              decode(field.type(), lowers.get(id)),
              decode(field.type(), uppers.get(id))));
    }
    return Collections.unmodifiableMap(bounds);
  }

  private static <K, V> Map<K, V> orEmpty(Map<K, V> map) {
    return map == null ? Map.of() : map;
  }

  private static OptionalLong count(Long count) {
    return count == null ? OptionalLong.empty() : OptionalLong.of(count);
  }

  private static Optional<Object> decode(Type type, ByteBuffer bytes) {
    if (bytes == null || !type.isPrimitiveType()) {
      return Optional.empty();
    }
    Object value = Conversions.fromByteBuffer(type, bytes.duplicate());
    if (value instanceof CharSequence text) {
      return Optional.of(text.toString());
    }
    if (value instanceof ByteBuffer buffer) {
      ByteBuffer copy = ByteBuffer.allocate(buffer.remaining());
      copy.put(buffer.duplicate()).flip();
      return Optional.of(copy.asReadOnlyBuffer());
    }
    return Optional.ofNullable(value);
  }
}
