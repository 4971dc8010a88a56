package io.shelfmark.segment.index.mapkey;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.segment.filter.FilterEvaluator;
import io.shelfmark.segment.filter.FilterResult;
import io.shelfmark.segment.index.forward.ForwardIndexReader;
import io.shelfmark.segment.metadata.MapColumnInfo;
import io.shelfmark.segment.predicate.Predicate;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.spi.ColumnDescriptor;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.segment.testing.ScanOracle;
import io.shelfmark.segment.testing.TestingSegments;
import io.shelfmark.segment.testing.TestingTable;
import java.io.IOException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class TestMapKeyExtraction {
  private static final String NODE = ColumnDescriptor.mapKeyName("dimensions", "node");
  private static final String SERVICE = ColumnDescriptor.mapKeyName("dimensions", "service");
  private static final String QUOTED = ColumnDescriptor.mapKeyName("dimensions", "it's");

  private static List<Map.Entry<String, String>> row(String... keysAndValues) {
    List<Map.Entry<String, String>> entries = new ArrayList<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      entries.add(new AbstractMap.SimpleEntry<>(keysAndValues[i], keysAndValues[i + 1]));
    }
    return entries;
  }

  private static TestingTable dimensions(MapKeySelection selection) {
    List<List<Map.Entry<String, String>>> rows = new ArrayList<>();
    rows.add(row("node", "xyz", "service", "api"));
    rows.add(row("service", "db"));
    rows.add(null);
    rows.add(row("node", "abc", "node", "xyz")); // repeated key: the last wins
    rows.add(row("node", null, "service", "api")); // a null value
    rows.add(row());
    rows.add(row("it's", "quoted", "service", "api"));
    rows.add(row("node", "xyz", "region", "eu"));
    rows.add(row("service", "api", "region", "us"));
    rows.add(row("service", "db"));
    return new TestingTable(rows.size())
        .mapColumn("dimensions", rows, selection, "inverted", "forward");
  }

  @Test
  void testListedKeysAreVirtualColumnsWithNullsWhereAbsent() throws IOException {
    TestingTable table = dimensions(MapKeySelection.listed("node", "service", "it's", "absent"));
    try (Segment segment = TestingSegments.open(table)) {
      assertThat(segment.metadata().mapColumns())
          .containsExactly(
              new MapColumnInfo(
                  "dimensions",
                  OptionalDouble.empty(),
                  List.of("absent", "it's", "node", "service")));
      assertThat(segment.column(NODE))
          .contains(ColumnDescriptor.mapKey("dimensions", "node", ValueType.STRING));
      assertThat(segment.indexIds(NODE)).containsExactly("forward", "inverted");
      FilterEvaluator evaluator = new FilterEvaluator(segment);
      ScanOracle oracle = new ScanOracle(table);
      for (Predicate predicate :
          List.of(
              Predicate.eq(NODE, "xyz"),
              Predicate.not(Predicate.eq(NODE, "xyz")),
              Predicate.isNull(NODE),
              Predicate.eq(QUOTED, "quoted"),
              Predicate.isNull(ColumnDescriptor.mapKeyName("dimensions", "absent")),
              Predicate.and(Predicate.eq(NODE, "xyz"), Predicate.eq(SERVICE, "api")))) {
        FilterResult result = evaluator.evaluate(predicate);
        assertThat(result.isExact()).as(predicate.toString()).isTrue();
        assertThat(result.definite())
            .as(predicate.toString())
            .isEqualTo(oracle.matches(predicate, segment.allDocs()));
      }
      assertThat(evaluator.evaluate(Predicate.eq(NODE, "xyz")).definite().toArray())
          .containsExactly(0, 3, 7);
      assertThat(evaluator.evaluate(Predicate.isNull(NODE)).definite().toArray())
          .containsExactly(1, 2, 4, 5, 6, 8, 9);
      // GROUP BY dimensions['service'] reads ids from the forward index.
      ForwardIndexReader services =
          (ForwardIndexReader) segment.index(SERVICE, "forward").orElseThrow();
      assertThat(services.dictionary().value(services.dictionaryId(1)).toString())
          .isEqualTo("'db'");
      assertThat(services.dictionaryId(2)).isEqualTo(services.nullId());
    }
  }

  @Test
  void testAutomaticSelectionKeepsKeysAboveTheShare() throws IOException {
    // service is in 7 of 10 rows, node in 4 (the repeated key counts once), region in 2.
    TestingTable table = dimensions(MapKeySelection.auto(0.4));
    try (Segment segment = TestingSegments.open(table)) {
      assertThat(segment.metadata().mapColumn("dimensions").orElseThrow().extractedKeys())
          .containsExactly("node", "service");
      assertThat(segment.metadata().mapColumn("dimensions").orElseThrow().minShare()).hasValue(0.4);
      FilterResult region =
          new FilterEvaluator(segment)
              .evaluate(Predicate.eq(ColumnDescriptor.mapKeyName("dimensions", "region"), "eu"));
      assertThat(region.isExact()).as("a key not extracted is residual").isFalse();
      assertThat(region.candidates().getCardinality()).isEqualTo(10);
    }
  }

  @Test
  void testExtractorTracksAtMostTheKeyLimit() {
    MapKeyExtractor extractor = new MapKeyExtractor(MapKeySelection.auto(0.5));
    int keys = MapKeyExtractor.MAX_TRACKED_KEYS + 10;
    StringBuilder keyData = new StringBuilder();
    int[] keyOffsets = new int[keys + 1];
    int[] valueOffsets = new int[keys + 1];
    for (int k = 0; k < keys; k++) {
      keyData.append("k").append(k);
      keyOffsets[k + 1] = keyData.length();
    }
    byte[] keyBytes = keyData.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    // One row holding every key, empty values: each key is in 100% of rows.
    extractor.addMaps(
        1, new int[] {0, keys}, null, keyBytes, keyOffsets, new byte[0], valueOffsets, null);
    assertThat(extractor.seal()).hasSize(MapKeyExtractor.MAX_TRACKED_KEYS);
  }
}
