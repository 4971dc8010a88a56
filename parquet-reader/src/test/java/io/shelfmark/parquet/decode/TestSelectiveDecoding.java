package io.shelfmark.parquet.decode;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.PrimitiveValues;
import io.shelfmark.parquet.schema.ColumnRole;
import io.shelfmark.parquet.schema.ColumnSchema;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.Type;
import org.junit.jupiter.api.Test;

/**
 * Decoding only wanted entries ({@link ColumnBatch.Builder#decodeOnly}): wanted entries hold
 * exactly what a full decode gives, unwanted ones are not null, and the decoders stay in step
 * across runs.
 */
class TestSelectiveDecoding {
  private static final ColumnSchema STRINGS = column(Type.BYTE_ARRAY);
  private static final ColumnSchema LONGS = column(Type.INT64);
  private static final int VALUES = 100;

  @Test
  void plainBinaryDecodesOnlyWantedValues() throws MalformedPageException {
    boolean[] wanted = wanted(VALUES);
    ColumnBatch.Builder builder = ColumnBatch.builder(STRINGS).decodeOnly(wanted);
    byte[] page = plainPage(VALUES);
    ValueDecoder decoder =
        new SelectiveValueDecoder(new PlainBinaryDecoder(page, 0, page.length, -1, VALUES), wanted);
    readInSlices(decoder, builder, VALUES);
    ColumnBatch batch = builder.build();

    assertThat(batch.valueCount()).isEqualTo(VALUES);
    assertThat(batch.hasNulls()).isFalse();
    for (int i = 0; i < VALUES; i++) {
      if (wanted[i]) {
        assertThat(batch.values().string(i)).isEqualTo(value(i));
      } else {
        assertThat(batch.values().string(i)).isEmpty();
      }
    }
  }

  @Test
  void dictionaryIdsOfUnwantedEntriesAreMinusOneAndNotNull() throws MalformedPageException {
    boolean[] wanted = wanted(VALUES);
    PrimitiveValues dictionary = dictionary(5);
    ColumnBatch.Builder builder = ColumnBatch.builder(STRINGS).decodeOnly(wanted);
    byte[] page = rlePage(VALUES);
    ValueDecoder decoder =
        new SelectiveValueDecoder(
            new DictionaryIdDecoder(page, 0, page.length, dictionary), wanted);
    readInSlices(decoder, builder, VALUES);
    ColumnBatch batch = builder.build();

    assertThat(batch.isDictionaryEncoded()).isTrue();
    assertThat(batch.hasNulls()).isFalse();
    for (int i = 0; i < VALUES; i++) {
      assertThat(batch.dictionaryIds()[i]).isEqualTo(wanted[i] ? rleId(i) : -1);
    }
  }

  @Test
  void dictionaryPagesThenPlainPagesKeepWantedValues() throws MalformedPageException {
    // A writer falls back to PLAIN when its dictionary fills: the batch materialises the ids.
    boolean[] wanted = wanted(2 * VALUES);
    PrimitiveValues dictionary = dictionary(5);
    ColumnBatch.Builder builder = ColumnBatch.builder(STRINGS).expect(2 * VALUES, 2 * VALUES, 4096);
    builder.decodeOnly(wanted);
    byte[] ids = rlePage(VALUES);
    readInSlices(
        new SelectiveValueDecoder(new DictionaryIdDecoder(ids, 0, ids.length, dictionary), wanted),
        builder,
        VALUES);
    builder.appendNulls(1);
    byte[] plain = plainPage(VALUES - 1);
    readInSlices(
        new SelectiveValueDecoder(
            new PlainBinaryDecoder(plain, 0, plain.length, -1, VALUES - 1), wanted),
        builder,
        VALUES - 1);
    ColumnBatch batch = builder.build();

    assertThat(batch.isDictionaryEncoded()).isFalse();
    assertThat(batch.valueCount()).isEqualTo(2 * VALUES);
    for (int i = 0; i < VALUES; i++) {
      assertThat(batch.isNull(i)).isFalse();
      if (wanted[i]) {
        assertThat(batch.values().string(i)).isEqualTo("d" + rleId(i));
      }
    }
    assertThat(batch.isNull(VALUES)).isTrue();
    for (int i = 0; i < VALUES - 1; i++) {
      int entry = VALUES + 1 + i;
      assertThat(batch.isNull(entry)).isFalse();
      if (wanted[entry]) {
        assertThat(batch.values().string(entry)).isEqualTo(value(i));
      }
    }
  }

  @Test
  void otherEncodingsReadAndSkipRuns() throws MalformedPageException {
    boolean[] wanted = wanted(VALUES);
    byte[] page = new byte[VALUES * 8];
    for (int i = 0; i < VALUES; i++) {
      ByteBuffer.wrap(page).order(ByteOrder.LITTLE_ENDIAN).putLong(i * 8, 1000L + i);
    }
    ColumnBatch.Builder builder = ColumnBatch.builder(LONGS).decodeOnly(wanted);
    readInSlices(
        new SelectiveValueDecoder(
            new PlainFixedWidthDecoder(Type.INT64, page, 0, page.length, VALUES), wanted),
        builder,
        VALUES);
    ColumnBatch batch = builder.build();

    for (int i = 0; i < VALUES; i++) {
      assertThat(batch.values().longs()[i]).isEqualTo(wanted[i] ? 1000L + i : 0L);
    }
  }

  @Test
  void entriesPastTheWantedFlagsAreDecoded() throws MalformedPageException {
    boolean[] wanted = new boolean[10]; // none of the first 10, every one after
    ColumnBatch.Builder builder = ColumnBatch.builder(STRINGS).decodeOnly(wanted);
    byte[] page = plainPage(30);
    readInSlices(
        new SelectiveValueDecoder(new PlainBinaryDecoder(page, 0, page.length, -1, 30), wanted),
        builder,
        30);
    ColumnBatch batch = builder.build();

    assertThat(batch.values().string(9)).isEmpty();
    for (int i = 10; i < 30; i++) {
      assertThat(batch.values().string(i)).isEqualTo(value(i));
    }
  }

  /** Reads {@code count} values in uneven slices, as the page assembler does between nulls. */
  private static void readInSlices(ValueDecoder decoder, ColumnBatch.Builder out, int count)
      throws MalformedPageException {
    int done = 0;
    int slice = 1;
    while (done < count) {
      int n = Math.min(slice, count - done);
      decoder.read(n, out);
      done += n;
      slice = slice % 7 + 1;
    }
  }

  /** Irregular runs of wanted and unwanted entries. */
  private static boolean[] wanted(int count) {
    boolean[] wanted = new boolean[count];
    for (int i = 0; i < count; i++) {
      wanted[i] = (i % 5 == 0) || (i % 7 == 3) || (i / 10) % 3 == 1;
    }
    return wanted;
  }

  private static String value(int i) {
    return "value-" + i;
  }

  private static byte[] plainPage(int count) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < count; i++) {
      byte[] bytes = value(i).getBytes(StandardCharsets.UTF_8);
      out.writeBytes(
          ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(bytes.length).array());
      out.writeBytes(bytes);
    }
    return out.toByteArray();
  }

  /** Id of entry {@code i} in {@link #rlePage}: runs of 4 equal ids cycling through 0..4. */
  private static int rleId(int i) {
    return (i / 4) % 5;
  }

  /** Bit width 3, then RLE runs of 4 values each (header = run length << 1, one value byte). */
  private static byte[] rlePage(int count) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(3);
    for (int i = 0; i < count; i += 4) {
      out.write(Math.min(4, count - i) << 1);
      out.write(rleId(i));
    }
    return out.toByteArray();
  }

  private static PrimitiveValues dictionary(int size) {
    ColumnBatch.Builder builder = ColumnBatch.builder(column(Type.BYTE_ARRAY));
    for (int id = 0; id < size; id++) {
      byte[] bytes = ("d" + id).getBytes(StandardCharsets.UTF_8);
      builder.appendBinary(bytes, 0, bytes.length);
    }
    return builder.build().values();
  }

  private static ColumnSchema column(Type type) {
    return new ColumnSchema(
        0,
        List.of("c"),
        type,
        0,
        Optional.empty(),
        Optional.empty(),
        0,
        0,
        FieldRepetitionType.OPTIONAL,
        1,
        0,
        List.of(),
        ColumnRole.FIELD,
        "c");
  }
}
