package io.shelfmark.exchange.result;

import io.shelfmark.exchange.vector.Values;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.datasketches.hll.HllSketch;

/**
 * The wire form of a {@link PartialResult}, big-endian ({@code DataOutputStream}):
 *
 * <pre>
 * magic "SMPR" | version u8 = 4 | aggregated u8 | statistics: 16 x i64 (version 3: 14, without
 *   parquetPagesFromStatistics and parquetChunksReadWhole; version 2: 13, without
 *   filesAnsweredFromStarTree; both still read)
 * aggregated: groups i32 | per group: keys i32, value... | states i32, state...
 * selection:  rows i32   | per row: values i32, value...
 * value: tag u8 | payload — 0 NULL | 1 BOOLEAN u8 | 2 INT i32 | 3 LONG i64 | 4 FLOAT f32
 *        | 5 DOUBLE f64 | 6 DECIMAL scale i32, unscaled bytes (i32 length) | 7 STRING UTF
 *        bytes (i32 length) | 8 BINARY bytes (i32 length)
 * state: tag u8 | 1 Count i64 | 2 LongSum high i64, low i64, count i64 | 3 DoubleSum f64, i64
 *        | 4 DecimalSum value, i64 | 5 Extreme max u8, value | 6 Distinct i32, value...
 *        | 7 Hll bytes (i32 length, DataSketches compact form)
 * </pre>
 */
final class PartialResultCodec {
  private static final int MAGIC = 0x534d5052;
  private static final int VERSION = 4;
  // Version 2 lacked files answered from a star-tree, version 3 pages answered from statistics and
  // chunks read whole: read as 0.
  private static final int OLDEST_READ = 2;

  private PartialResultCodec() {}

  static byte[] encode(PartialResult result) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeByte(VERSION);
      out.writeBoolean(result.aggregated());
      for (long value : result.statistics().toArray()) {
        out.writeLong(value);
      }
      if (result.aggregated()) {
        out.writeInt(result.groups().size());
        for (Group group : result.groups()) {
          writeValues(out, group.key());
          out.writeInt(group.states().size());
          for (AggregateState state : group.states()) {
            writeState(out, state);
          }
        }
      } else {
        out.writeInt(result.rows().size());
        for (List<Object> row : result.rows()) {
          writeValues(out, row);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  static PartialResult decode(byte[] bytes) {
    if (bytes.length < 5 || ByteBuffer.wrap(bytes).getInt() != MAGIC) {
      throw new IllegalArgumentException(
          "Cannot read a partial result of %d bytes: it does not start with the partial result magic (is the sender a Shelfmark server?)"
              .formatted(bytes.length));
    }
    int version = bytes[4] & 0xff;
    if (version < OLDEST_READ || version > VERSION) {
      throw new IllegalArgumentException(
          "Cannot read a partial result of version %d: this node reads versions %d to %d (run brokers and servers of the same release, or upgrade the older side)"
              .formatted(version, OLDEST_READ, VERSION));
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
      in.readInt();
      in.readUnsignedByte();
      boolean aggregated = in.readBoolean();
      long[] statistics = new long[version == 2 ? 13 : version == 3 ? 14 : 16];
      for (int i = 0; i < statistics.length; i++) {
        statistics[i] = in.readLong();
      }
      ExecutionStatistics stats = ExecutionStatistics.fromArray(statistics);
      int count = in.readInt();
      if (aggregated) {
        List<Group> groups = new ArrayList<>(Math.min(count, 1 << 16));
        for (int i = 0; i < count; i++) {
          List<Object> key = readValues(in);
          int states = in.readInt();
          List<AggregateState> list = new ArrayList<>(Math.min(states, 1024));
          for (int s = 0; s < states; s++) {
            list.add(readState(in));
          }
          groups.add(new Group(key, list));
        }
        return PartialResult.ofGroups(groups, stats);
      }
      List<List<Object>> rows = new ArrayList<>(Math.min(count, 1 << 16));
      for (int i = 0; i < count; i++) {
        rows.add(readValues(in));
      }
      return PartialResult.ofRows(rows, stats);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "Cannot read a partial result of %d bytes: %s (the bytes are truncated or corrupt)"
              .formatted(bytes.length, e.getMessage()),
          e);
    }
  }

  private static void writeValues(DataOutputStream out, List<Object> values) throws IOException {
    out.writeInt(values.size());
    for (Object value : values) {
      writeValue(out, value);
    }
  }

  private static List<Object> readValues(DataInputStream in) throws IOException {
    int count = in.readInt();
    List<Object> values = new ArrayList<>(Math.min(count, 1024));
    for (int i = 0; i < count; i++) {
      values.add(readValue(in));
    }
    return values;
  }

  private static void writeValue(DataOutputStream out, Object value) throws IOException {
    switch (value) {
      case null -> out.writeByte(0);
      case Boolean b -> {
        out.writeByte(1);
        out.writeBoolean(b);
      }
      case Integer i -> {
        out.writeByte(2);
        out.writeInt(i);
      }
      case Long l -> {
        out.writeByte(3);
        out.writeLong(l);
      }
      case Float f -> {
        out.writeByte(4);
        out.writeFloat(f);
      }
      case Double d -> {
        out.writeByte(5);
        out.writeDouble(d);
      }
      case BigDecimal d -> {
        out.writeByte(6);
        out.writeInt(d.scale());
        writeBytes(out, d.unscaledValue().toByteArray());
      }
      case String s -> {
        out.writeByte(7);
        writeBytes(out, s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
      case ByteBuffer buffer -> {
        out.writeByte(8);
        writeBytes(out, Values.bytes(buffer));
      }
      case byte[] array -> {
        out.writeByte(8);
        writeBytes(out, array);
      }
      case java.util.Map<?, ?> map -> {
        // A whole MAP column's value (a preview's SELECT *): its entries in order.
        out.writeByte(9);
        out.writeInt(map.size());
        for (java.util.Map.Entry<?, ?> entry : map.entrySet()) {
          writeBytes(
              out, ((String) entry.getKey()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
          writeValue(out, entry.getValue());
        }
      }
      default ->
          throw new IllegalArgumentException(
              "Cannot serialise value %s of type %s".formatted(value, value.getClass()));
    }
  }

  private static Object readValue(DataInputStream in) throws IOException {
    int tag = in.readUnsignedByte();
    return switch (tag) {
      case 0 -> null;
      case 1 -> in.readBoolean();
      case 2 -> in.readInt();
      case 3 -> in.readLong();
      case 4 -> in.readFloat();
      case 5 -> in.readDouble();
      case 6 -> {
        int scale = in.readInt();
        yield new BigDecimal(new BigInteger(readBytes(in)), scale);
      }
      case 7 -> new String(readBytes(in), java.nio.charset.StandardCharsets.UTF_8);
      case 8 -> ByteBuffer.wrap(readBytes(in)).asReadOnlyBuffer();
      case 9 -> {
        int size = in.readInt();
        java.util.Map<String, Object> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < size; i++) {
          String key = new String(readBytes(in), java.nio.charset.StandardCharsets.UTF_8);
          map.put(key, readValue(in));
        }
        yield java.util.Collections.unmodifiableMap(map);
      }
      default -> throw new IOException("unknown value tag " + tag);
    };
  }

  private static void writeState(DataOutputStream out, AggregateState state) throws IOException {
    switch (state) {
      case AggregateState.Count count -> {
        out.writeByte(1);
        out.writeLong(count.count());
      }
      case AggregateState.LongSum sum -> {
        out.writeByte(2);
        out.writeLong(sum.high());
        out.writeLong(sum.low());
        out.writeLong(sum.count());
      }
      case AggregateState.DoubleSum sum -> {
        out.writeByte(3);
        out.writeDouble(sum.sum());
        out.writeLong(sum.count());
      }
      case AggregateState.DecimalSum sum -> {
        out.writeByte(4);
        writeValue(out, sum.sum());
        out.writeLong(sum.count());
      }
      case AggregateState.Extreme extreme -> {
        out.writeByte(5);
        out.writeBoolean(extreme.max());
        writeValue(out, extreme.value());
      }
      case AggregateState.Distinct distinct -> {
        out.writeByte(6);
        writeValues(out, new ArrayList<>(distinct.values()));
      }
      case AggregateState.Hll hll -> {
        out.writeByte(7);
        writeBytes(out, hll.sketch().toCompactByteArray());
      }
    }
  }

  private static AggregateState readState(DataInputStream in) throws IOException {
    int tag = in.readUnsignedByte();
    return switch (tag) {
      case 1 -> new AggregateState.Count(in.readLong());
      case 2 -> new AggregateState.LongSum(in.readLong(), in.readLong(), in.readLong());
      case 3 -> new AggregateState.DoubleSum(in.readDouble(), in.readLong());
      case 4 -> new AggregateState.DecimalSum((BigDecimal) readValue(in), in.readLong());
      case 5 -> {
        boolean max = in.readBoolean();
        yield new AggregateState.Extreme(readValue(in), max);
      }
      case 6 -> {
        Set<Object> values = new HashSet<>(readValues(in));
        yield new AggregateState.Distinct(values);
      }
      case 7 -> new AggregateState.Hll(HllSketch.heapify(readBytes(in)));
      default -> throw new IOException("unknown state tag " + tag);
    };
  }

  private static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static byte[] readBytes(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 0 || length > in.available()) {
      throw new IOException("a length of " + length + " runs past the end");
    }
    byte[] bytes = new byte[length];
    in.readFully(bytes);
    return bytes;
  }
}
