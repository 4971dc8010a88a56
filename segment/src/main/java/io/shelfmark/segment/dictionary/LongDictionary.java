package io.shelfmark.segment.dictionary;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.encoding.MonotoneLongs;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;

/**
 * A LONG or DOUBLE dictionary over {@link MonotoneLongs}: the sorted values (doubles as sortable
 * bits). Immutable and thread safe.
 */
final class LongDictionary implements Dictionary {
  private final ValueType type;
  private final MonotoneLongs values;

  LongDictionary(ValueType type, MonotoneLongs values) {
    this.type = requireNonNull(type, "type is null");
    this.values = requireNonNull(values, "values is null");
  }

  @Override
  public ValueType type() {
    return type;
  }

  @Override
  public int size() {
    return values.count();
  }

  @Override
  public int indexOf(Value value) {
    return switch (value) {
      case Value.LongValue(long v) when type == ValueType.LONG -> values.indexOf(v);
      case Value.DoubleValue(double v) when type == ValueType.DOUBLE ->
          values.indexOf(Value.sortableBits(v));
      default ->
          throw new IllegalArgumentException(
              "Cannot look up %s value %s in a %s dictionary (cast the literal)"
                  .formatted(value.type(), value, type));
    };
  }

  @Override
  public Value value(int id) {
    return type == ValueType.LONG ? Value.of(longValue(id)) : Value.of(doubleValue(id));
  }

  @Override
  public long longValue(int id) {
    requireType(ValueType.LONG);
    return values.get(id);
  }

  @Override
  public double doubleValue(int id) {
    requireType(ValueType.DOUBLE);
    return Value.fromSortableBits(values.get(id));
  }

  @Override
  public byte[] bytes(int id) {
    throw new IllegalStateException("Cannot read bytes from a " + type + " dictionary");
  }

  private void requireType(ValueType expected) {
    if (type != expected) {
      throw new IllegalStateException(
          "Cannot read a %s value from a %s dictionary".formatted(expected, type));
    }
  }

  @Override
  public long sizeInBytes() {
    return values.sizeInBytes();
  }

  @Override
  public String toString() {
    return "LongDictionary[" + type + ", " + size() + " values]";
  }
}
