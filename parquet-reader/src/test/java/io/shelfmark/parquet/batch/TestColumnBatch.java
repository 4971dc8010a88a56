package io.shelfmark.parquet.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.parquet.schema.ColumnRole;
import io.shelfmark.parquet.schema.ColumnSchema;
import io.shelfmark.parquet.schema.RepeatedLevel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.Type;
import org.junit.jupiter.api.Test;

class TestColumnBatch {
  private static final ColumnSchema LONGS = column(Type.INT64, 1, 0);
  private static final ColumnSchema STRINGS = column(Type.BYTE_ARRAY, 1, 0);

  @Test
  void flatValuesWithNulls() {
    ColumnBatch.Builder builder = ColumnBatch.builder(LONGS);
    builder.appendLongs(new long[] {7, 8, 9}, 1, 2);
    builder.appendNulls(2);
    builder.appendLongs(new long[] {10}, 0, 1);
    ColumnBatch batch = builder.build();

    assertThat(batch.rowCount()).isEqualTo(5);
    assertThat(batch.valueCount()).isEqualTo(5);
    assertThat(batch.hasNulls()).isTrue();
    assertThat(batch.isNull(2)).isTrue();
    assertThat(batch.isNull(4)).isFalse();
    assertThat(batch.values().longs()).startsWith(8, 9, 0, 0, 10);
    assertThat(batch.isDictionaryEncoded()).isFalse();
    assertThat(batch.repetitionLevels()).isZero();
  }

  @Test
  void noNullFlagsWithoutNulls() {
    ColumnBatch.Builder builder = ColumnBatch.builder(LONGS);
    builder.appendLongs(new long[] {1, 2}, 0, 2);
    assertThat(builder.build().nulls()).isNull();
  }

  @Test
  void dictionaryIdsStayIdsUntilValuesAreAskedFor() {
    PrimitiveValues dictionary = strings("a", "bb", "ccc");
    ColumnBatch.Builder builder = ColumnBatch.builder(STRINGS);
    builder.appendNulls(1);
    builder.appendDictionaryIds(new int[] {2, 0, 2}, 0, 3, dictionary);
    builder.appendNulls(1);
    ColumnBatch batch = builder.build();

    assertThat(batch.isDictionaryEncoded()).isTrue();
    assertThat(batch.dictionary()).isSameAs(dictionary);
    assertThat(batch.dictionaryIds()).startsWith(-1, 2, 0, 2, -1);
    PrimitiveValues values = batch.values();
    assertThat(values.size()).isEqualTo(5);
    assertThat(values.string(0)).isEmpty();
    assertThat(values.string(1)).isEqualTo("ccc");
    assertThat(values.string(2)).isEqualTo("a");
    assertThat(values.string(4)).isEmpty();
  }

  /** A writer falls back to PLAIN when its dictionary grows too large: ids are materialised. */
  @Test
  void plainPageAfterDictionaryPagesMaterialisesIds() {
    PrimitiveValues dictionary = strings("x", "y");
    ColumnBatch.Builder builder = ColumnBatch.builder(STRINGS);
    builder.appendDictionaryIds(new int[] {1, 0}, 0, 2, dictionary);
    builder.appendNulls(1);
    byte[] plain = "plain".getBytes(StandardCharsets.UTF_8);
    builder.appendBinary(plain, 0, plain.length);
    builder.appendDictionaryIds(new int[] {1}, 0, 1, dictionary);
    ColumnBatch batch = builder.build();

    assertThat(batch.isDictionaryEncoded()).isFalse();
    assertThat(batch.isNull(2)).isTrue();
    PrimitiveValues values = batch.values();
    assertThat(
            List.of(
                values.string(0),
                values.string(1),
                values.string(2),
                values.string(3),
                values.string(4)))
        .containsExactly("y", "x", "", "plain", "y");
  }

  /** Rows [1, 2], null, [], [3] of a LIST<INT64> whose elements may be null. */
  @Test
  void listOffsetsAndNullLists() {
    ColumnSchema list = column(Type.INT64, 3, 1);
    ColumnBatch.Builder builder = ColumnBatch.builder(list);
    builder.openList(1, false);
    builder.addListElement(1);
    builder.addListElement(1);
    builder.appendLongs(new long[] {1, 2}, 0, 2);
    builder.openList(1, true);
    builder.openList(1, false);
    builder.openList(1, false);
    builder.addListElement(1);
    builder.appendLongs(new long[] {3}, 0, 1);
    ColumnBatch batch = builder.build();

    assertThat(batch.rowCount()).isEqualTo(4);
    assertThat(batch.valueCount()).isEqualTo(3);
    assertThat(batch.repetitionLevels()).isEqualTo(1);
    assertThat(batch.offsets(1)).containsExactly(0, 2, 2, 2, 3);
    assertThat(batch.listNulls(1)).containsExactly(false, true, false, false);
    assertThatThrownBy(() -> batch.offsets(2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot read repetition level 2 of column c: it has 1");
  }

  @Test
  void listElementsMustMatchValueEntries() {
    ColumnBatch.Builder builder = ColumnBatch.builder(column(Type.INT64, 3, 1));
    builder.openList(1, false);
    builder.addListElement(1);
    assertThatThrownBy(builder::build)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot build the batch of c: 1 innermost list elements but 0 value entries");
  }

  @Test
  void builderIsSingleUse() {
    ColumnBatch.Builder builder = ColumnBatch.builder(LONGS);
    builder.build();
    assertThatThrownBy(() -> builder.appendNulls(1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot append to the batch of c: it was already built");
  }

  @Test
  void wrongAccessorNamesTheType() {
    ColumnBatch.Builder builder = ColumnBatch.builder(LONGS);
    builder.appendLongs(new long[] {1}, 0, 1);
    ColumnBatch batch = builder.build();
    assertThatThrownBy(() -> batch.values().ints())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot read INT64 values as INT32: use the accessor of the physical type");
  }

  @Test
  void int96ToEpoch() {
    // 2019-01-01T00:00:00.000001 UTC: Julian day 2458485, 1000 nanoseconds into the day.
    byte[] value = new byte[12];
    value[0] = (byte) 0xE8;
    value[1] = 0x03;
    int day = 2_458_485;
    value[8] = (byte) day;
    value[9] = (byte) (day >> 8);
    value[10] = (byte) (day >> 16);
    assertThat(Int96.toEpochMicros(value, 0)).isEqualTo(1_546_300_800_000_001L);
    assertThat(Int96.toEpochNanos(value, 0)).isEqualTo(1_546_300_800_000_001_000L);
  }

  @Test
  void float16ToFloat() {
    // 0x3C00 is 1.0, 0xC000 is -2.0, 0x7E00 a NaN.
    byte[] values = {0x00, 0x3C, 0x00, (byte) 0xC0, 0x00, 0x7E};
    assertThat(Float16.toFloat(values, 0)).isEqualTo(1.0f);
    assertThat(Float16.toFloat(values, 2)).isEqualTo(-2.0f);
    assertThat(Float16.toFloat(values, 4)).isNaN();
  }

  private static PrimitiveValues strings(String... values) {
    ColumnBatch.Builder builder = ColumnBatch.builder(column(Type.BYTE_ARRAY, 0, 0));
    for (String value : values) {
      byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
      builder.appendBinary(bytes, 0, bytes.length);
    }
    return builder.build().values();
  }

  private static ColumnSchema column(Type type, int maxDefinition, int maxRepetition) {
    List<RepeatedLevel> levels =
        maxRepetition == 0 ? List.of() : List.of(new RepeatedLevel(1, "c.list", 2, true));
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
        maxDefinition,
        maxRepetition,
        levels,
        maxRepetition == 0 ? ColumnRole.FIELD : ColumnRole.LIST_ELEMENT,
        "c");
  }
}
