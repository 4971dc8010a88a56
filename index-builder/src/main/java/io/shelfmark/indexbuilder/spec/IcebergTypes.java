package io.shelfmark.indexbuilder.spec;

import io.shelfmark.segment.spi.ValueType;
import java.util.Optional;
import org.apache.iceberg.types.Type;

/**
 * Which Iceberg types segments index, and as what {@link ValueType}. Integers, booleans (0 and 1),
 * dates, times and timestamps become LONG (timestamps in the unit the file stores), floats and
 * doubles DOUBLE, strings STRING. Decimals, binary, fixed and UUID values are not indexed yet:
 * segments could hold their bytes, but queries cannot compare literals with them.
 */
final class IcebergTypes {
  private IcebergTypes() {}

  /** The value type of a primitive column, empty when segments do not index the type. */
  static Optional<ValueType> valueType(Type type) {
    return switch (type.typeId()) {
      case BOOLEAN, INTEGER, LONG, DATE, TIME, TIMESTAMP, TIMESTAMP_NANO ->
          Optional.of(ValueType.LONG);
      case FLOAT, DOUBLE -> Optional.of(ValueType.DOUBLE);
      case STRING -> Optional.of(ValueType.STRING);
      default -> Optional.empty();
    };
  }

  /** Whether a range index fits: numbers, dates, times and timestamps (not booleans, strings). */
  static boolean isOrderedNumber(Type type) {
    return switch (type.typeId()) {
      case INTEGER, LONG, FLOAT, DOUBLE, DATE, TIME, TIMESTAMP, TIMESTAMP_NANO -> true;
      default -> false;
    };
  }

  /** Why a primitive type is not indexed, for messages. */
  static String whyNotIndexed(Type type) {
    return switch (type.typeId()) {
      case DECIMAL -> "decimal columns are not indexed yet";
      case BINARY, FIXED, UUID ->
          "binary, fixed and uuid columns are not indexed yet (queries cannot compare them)";
      default -> type + " columns are not indexed";
    };
  }
}
