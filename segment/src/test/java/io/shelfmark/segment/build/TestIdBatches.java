package io.shelfmark.segment.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.segment.index.mapkey.MapKeySelection;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.segment.testing.TestingSegments;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Values handed over as ids into a batch dictionary (as Parquet's dictionary pages give them) make
 * exactly the segment the same values handed over one by one make, with or without a segment
 * dictionary, across batches whose dictionaries differ; and the forward index cardinality cap.
 */
class TestIdBatches {
  private static final int DOCS = 5000;
  private static final int BATCH = 1200;

  /** Per batch: a batch dictionary (shuffled, with unused entries) and ids into it (-1 null). */
  private record IdBatch(String[] dictionary, int[] ids) {}

  private static List<IdBatch> batches(long seed, int distinct) {
    SplittableRandom random = new SplittableRandom(seed);
    List<IdBatch> batches = new ArrayList<>();
    for (int start = 0; start < DOCS; start += BATCH) {
      int count = Math.min(BATCH, DOCS - start);
      String[] dictionary = new String[distinct + 3];
      for (int d = 0; d < dictionary.length; d++) {
        dictionary[d] = Integer.toString(Math.floorMod(random.nextInt(), distinct * 2) - distinct);
      }
      int[] ids = new int[count];
      for (int i = 0; i < count; i++) {
        ids[i] = random.nextInt(10) == 0 ? -1 : random.nextInt(dictionary.length);
      }
      batches.add(new IdBatch(dictionary, ids));
    }
    return batches;
  }

  private static byte[] build(
      List<String> indexes, ValueType type, List<IdBatch> batches, boolean asIds)
      throws IOException {
    SegmentBuilder builder = new SegmentBuilder(TestingSegments.INDEXES, "ids");
    ColumnWriter writer = builder.addColumn("c", type, indexes);
    for (IdBatch batch : batches) {
      int count = batch.ids().length;
      int size = batch.dictionary().length;
      boolean[] nulls = new boolean[count];
      for (int i = 0; i < count; i++) {
        nulls[i] = batch.ids()[i] < 0;
      }
      switch (type) {
        case LONG -> {
          long[] dictionary = new long[size];
          long[] values = new long[count];
          for (int d = 0; d < size; d++) {
            dictionary[d] = Long.parseLong(batch.dictionary()[d]);
          }
          for (int i = 0; i < count; i++) {
            values[i] = nulls[i] ? 0 : dictionary[batch.ids()[i]];
          }
          if (asIds) {
            writer.addLongIds(dictionary, size, batch.ids(), count);
          } else {
            writer.addLongs(values, nulls, count);
          }
        }
        case DOUBLE -> {
          double[] dictionary = new double[size];
          double[] values = new double[count];
          for (int d = 0; d < size; d++) {
            dictionary[d] = Long.parseLong(batch.dictionary()[d]) / 4.0;
          }
          for (int i = 0; i < count; i++) {
            values[i] = nulls[i] ? 0 : dictionary[batch.ids()[i]];
          }
          if (asIds) {
            writer.addDoubleIds(dictionary, size, batch.ids(), count);
          } else {
            writer.addDoubles(values, nulls, count);
          }
        }
        case STRING -> {
          Utf8 dictionary = Utf8.of(batch.dictionary(), null);
          if (asIds) {
            writer.addBinaryIds(dictionary.data(), dictionary.offsets(), size, batch.ids(), count);
          } else {
            String[] values = new String[count];
            for (int i = 0; i < count; i++) {
              values[i] = nulls[i] ? null : batch.dictionary()[batch.ids()[i]];
            }
            Utf8 utf8 = Utf8.of(values, nulls);
            writer.addBinary(utf8.data(), utf8.offsets(), nulls, count);
          }
        }
      }
    }
    return builder.toByteArray();
  }

  private record Utf8(byte[] data, int[] offsets) {
    static Utf8 of(String[] values, boolean[] nulls) {
      ByteArrayOutputStream data = new ByteArrayOutputStream();
      int[] offsets = new int[values.length + 1];
      for (int i = 0; i < values.length; i++) {
        if (nulls == null || !nulls[i]) {
          data.writeBytes(values[i].getBytes(StandardCharsets.UTF_8));
        }
        offsets[i + 1] = data.size();
      }
      return new Utf8(data.toByteArray(), offsets);
    }
  }

  @Test
  void testIdsBuildTheSameSegmentAsValues() throws IOException {
    for (ValueType type : ValueType.values()) {
      for (List<String> indexes :
          List.of(
              List.of("inverted", "forward"),
              List.of("range"),
              List.of("bloom"),
              List.of("sorted", "range"))) {
        List<IdBatch> batches = batches(type.code() * 31L + indexes.hashCode(), 300);
        assertThat(build(indexes, type, batches, true))
            .as("%s with %s", type, indexes)
            .isEqualTo(build(indexes, type, batches, false));
      }
    }
  }

  @Test
  void testIdsOutsideTheBatchDictionaryAreRefused() {
    SegmentBuilder builder = new SegmentBuilder(TestingSegments.INDEXES, "ids");
    ColumnWriter writer = builder.addColumn("c", ValueType.LONG, List.of("inverted"));
    assertThatThrownBy(() -> writer.addLongIds(new long[] {1, 2}, 2, new int[] {0, 2}, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot add id 2 to column c: the batch dictionary has 2 values");
    assertThatThrownBy(() -> writer.addLongIds(new long[] {1}, 2, new int[] {0}, 1))
        .hasMessage("Cannot add ids into a dictionary of 2 values held in 1 to column c");
  }

  @Test
  void testMapKeysAndValuesAsIdsBuildTheSameSegmentAsBytes() throws IOException {
    SplittableRandom random = new SplittableRandom(77);
    String[] keyDictionary = {"region", "node", "service", "pod", "it's"};
    for (MapKeySelection selection :
        List.of(MapKeySelection.listed("node", "service", "absent"), MapKeySelection.auto(0.3))) {
      SegmentBuilder byBytes = new SegmentBuilder(TestingSegments.INDEXES, "maps");
      SegmentBuilder byIds = new SegmentBuilder(TestingSegments.INDEXES, "maps");
      SegmentBuilder byValueIds = new SegmentBuilder(TestingSegments.INDEXES, "maps");
      MapColumnWriter bytesWriter = byBytes.addMapColumn("m", selection, List.of("inverted"));
      MapColumnWriter idsWriter = byIds.addMapColumn("m", selection, List.of("inverted"));
      MapColumnWriter valueIdsWriter = byValueIds.addMapColumn("m", selection, List.of("inverted"));
      for (int batch = 0; batch < 4; batch++) {
        int rows = 700;
        int[] entryOffsets = new int[rows + 1];
        boolean[] mapNulls = new boolean[rows];
        List<Integer> keyIds = new ArrayList<>();
        List<String> values = new ArrayList<>();
        List<Integer> valueIdList = new ArrayList<>();
        for (int row = 0; row < rows; row++) {
          mapNulls[row] = random.nextInt(20) == 0;
          int entries = mapNulls[row] ? 0 : random.nextInt(5);
          for (int e = 0; e < entries; e++) {
            // Repeated keys happen: the last entry must win in both paths.
            keyIds.add(random.nextInt(keyDictionary.length));
            int value = random.nextInt(40);
            values.add(random.nextInt(15) == 0 ? null : "v" + value);
            valueIdList.add(value);
          }
          entryOffsets[row + 1] = keyIds.size();
        }
        int[] ids = keyIds.stream().mapToInt(Integer::intValue).toArray();
        String[] keys = new String[ids.length];
        boolean[] valueNulls = new boolean[ids.length];
        for (int e = 0; e < ids.length; e++) {
          keys[e] = keyDictionary[ids[e]];
          valueNulls[e] = values.get(e) == null;
        }
        Utf8 keyBytes = Utf8.of(keys, null);
        Utf8 valueBytes = Utf8.of(values.toArray(new String[0]), valueNulls);
        Utf8 dictionary = Utf8.of(keyDictionary, null);
        bytesWriter.addMaps(
            rows,
            entryOffsets,
            mapNulls,
            keyBytes.data(),
            keyBytes.offsets(),
            valueBytes.data(),
            valueBytes.offsets(),
            valueNulls);
        idsWriter.addMapsWithKeyIds(
            rows,
            entryOffsets,
            mapNulls,
            dictionary.data(),
            dictionary.offsets(),
            keyDictionary.length,
            ids,
            valueBytes.data(),
            valueBytes.offsets(),
            null,
            valueNulls);
        // Values as ids into a dictionary listing them in another order than first seen.
        String[] valueDictionary = new String[40];
        for (int v = 0; v < valueDictionary.length; v++) {
          valueDictionary[v] = "v" + (39 - v);
        }
        int[] valueIds = valueIdList.stream().mapToInt(v -> 39 - v).toArray();
        Utf8 valueDictionaryBytes = Utf8.of(valueDictionary, null);
        valueIdsWriter.addMapsWithKeyIds(
            rows,
            entryOffsets,
            mapNulls,
            dictionary.data(),
            dictionary.offsets(),
            keyDictionary.length,
            ids,
            valueDictionaryBytes.data(),
            valueDictionaryBytes.offsets(),
            valueIds,
            valueNulls);
      }
      byte[] expected = byBytes.toByteArray();
      assertThat(byIds.toByteArray()).as("%s", selection).isEqualTo(expected);
      assertThat(byValueIds.toByteArray()).as("%s", selection).isEqualTo(expected);
    }
  }

  @Test
  void testForwardIndexIsLeftOutAboveTheCardinalityCap() throws IOException {
    for (int cap : new int[] {299, 300}) {
      SegmentBuilder builder =
          new SegmentBuilder(TestingSegments.INDEXES, "cap").forwardIndexMaxCardinality(cap);
      ColumnWriter writer = builder.addColumn("c", ValueType.LONG, List.of("inverted", "forward"));
      long[] values = new long[DOCS];
      for (int i = 0; i < DOCS; i++) {
        values[i] = (i * 7919L) % 300; // 300 distinct values, unsorted
      }
      writer.addLongs(values, null, DOCS);
      try (Segment segment = TestingSegments.open(builder.toByteArray())) {
        assertThat(segment.dictionary("c").orElseThrow().size()).isEqualTo(300);
        assertThat(segment.indexIds("c"))
            .as("cap %d", cap)
            .containsExactlyElementsOf(
                cap >= 300 ? List.of("forward", "inverted") : List.of("inverted"));
      }
    }
    assertThatThrownBy(
            () -> new SegmentBuilder(TestingSegments.INDEXES, "cap").forwardIndexMaxCardinality(-1))
        .hasMessage("Cannot limit forward indexes to a negative cardinality: -1");
  }
}
