package io.shelfmark.server.aggregate;

import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;

/** Boxes the raw values held by vectors (long, double, objects) in a SQL type's representation. */
public final class KeyValues {
  private KeyValues() {}

  public static Object box(SqlType type, Object raw) {
    if (raw == null) {
      return null;
    }
    if (type instanceof PrimitiveType primitive) {
      return switch (primitive) {
        case BOOLEAN -> ((Long) raw) != 0;
        case INT, DATE -> (int) (long) (Long) raw;
        case LONG, TIMESTAMP, TIMESTAMP_TZ -> (Long) raw;
        case FLOAT -> (float) (double) (Double) raw;
        case DOUBLE -> (Double) raw;
        case STRING -> raw;
        // Byte arrays compare by identity: keys and states hold them as buffers (equal by content).
        case BINARY ->
            raw instanceof byte[] bytes ? java.nio.ByteBuffer.wrap(bytes).asReadOnlyBuffer() : raw;
      };
    }
    return raw;
  }
}
