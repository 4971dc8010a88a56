package io.shelfmark.parquet.decode;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Little-endian reads from byte arrays, the byte order of every Parquet encoding. */
final class LittleEndianBytes {
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle FLOAT =
      MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle DOUBLE =
      MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

  private LittleEndianBytes() {}

  static int getInt(byte[] data, int offset) {
    return (int) INT.get(data, offset);
  }

  static long getLong(byte[] data, int offset) {
    return (long) LONG.get(data, offset);
  }

  static float getFloat(byte[] data, int offset) {
    return (float) FLOAT.get(data, offset);
  }

  static double getDouble(byte[] data, int offset) {
    return (double) DOUBLE.get(data, offset);
  }
}
