package io.shelfmark.segment.metadata;

import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.format.PartWriter;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How metadata parts store values: a type code byte, then a zig-zag varint (LONG), 8 bytes (DOUBLE)
 * or a length-prefixed UTF-8 string (STRING). Optional values and longs are prefixed by a presence
 * byte.
 */
final class ValueCodec {
  private ValueCodec() {}

  static void write(PartWriter out, Value value) {
    out.putByte(value.type().code());
    switch (value) {
      case Value.LongValue(long v) -> out.putZigZag(v);
      case Value.DoubleValue(double v) -> out.putDouble(v);
      case Value.StringValue(String v) -> out.putString(v);
    }
  }

  static Value read(PartReader in) throws CorruptSegmentException {
    int code = in.getByte();
    Optional<ValueType> type = ValueType.fromCode(code);
    if (type.isEmpty()) {
      throw in.corrupt("unknown value type code " + code);
    }
    return switch (type.get()) {
      case LONG -> Value.of(in.getZigZag());
      case DOUBLE -> Value.of(in.getDouble());
      case STRING -> Value.of(in.getString());
    };
  }

  static void writeOptional(PartWriter out, Optional<Value> value) {
    out.putByte(value.isPresent() ? 1 : 0);
    value.ifPresent(v -> write(out, v));
  }

  static Optional<Value> readOptional(PartReader in) throws CorruptSegmentException {
    return readPresence(in) ? Optional.of(read(in)) : Optional.empty();
  }

  static void writeOptionalLong(PartWriter out, OptionalLong value) {
    out.putByte(value.isPresent() ? 1 : 0);
    if (value.isPresent()) {
      out.putZigZag(value.getAsLong());
    }
  }

  static OptionalLong readOptionalLong(PartReader in) throws CorruptSegmentException {
    return readPresence(in) ? OptionalLong.of(in.getZigZag()) : OptionalLong.empty();
  }

  static void writeOptionalString(PartWriter out, Optional<String> value) {
    out.putByte(value.isPresent() ? 1 : 0);
    value.ifPresent(out::putString);
  }

  static Optional<String> readOptionalString(PartReader in) throws CorruptSegmentException {
    return readPresence(in) ? Optional.of(in.getString()) : Optional.empty();
  }

  private static boolean readPresence(PartReader in) throws CorruptSegmentException {
    int flag = in.getByte();
    if (flag > 1) {
      throw in.corrupt("presence flag " + flag + " is neither 0 nor 1");
    }
    return flag == 1;
  }
}
