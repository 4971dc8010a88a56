package io.shelfmark.segment.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.segment.filter.FilterEvaluator;
import io.shelfmark.segment.filter.FilterResult;
import io.shelfmark.segment.index.mapkey.MapKeySelection;
import io.shelfmark.segment.predicate.Predicate;
import io.shelfmark.segment.predicate.Range;
import io.shelfmark.segment.spi.ColumnDescriptor;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.segment.testing.ScanOracle;
import io.shelfmark.segment.testing.TestingSegments;
import io.shelfmark.segment.testing.TestingTable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A segment written by format 1.0 and kept in {@code src/test/resources/golden/}: today's reader
 * must still read it and answer as the values say, and today's writer must still write it byte for
 * byte. When a layout changes on purpose, bump that part's version (keeping the old reader), then
 * regenerate with {@code -Dshelfmark.golden.regenerate=true} and keep the old file as a reader
 * test.
 */
class TestGoldenSegment {
  private static final String GOLDEN = "golden/segment-v1.0.shfm";

  static TestingTable table() {
    Value[] orgIds = new Value[12];
    Value[] timestamps = new Value[12];
    Value[] sortedTimestamps = new Value[12];
    Value[] latencies = new Value[12];
    Value[] metrics = new Value[12];
    Value[] traces = new Value[12];
    List<List<Map.Entry<String, String>>> dimensions = new ArrayList<>();
    String[] metricNames = {"tk_cache", "cpu_user", "tk_cache", null, "mem_rss"};
    double[] latencyValues = {0.5, -0.0, Double.NaN, 12.25, Double.NEGATIVE_INFINITY, 3};
    for (int doc = 0; doc < 12; doc++) {
      orgIds[doc] = doc % 5 == 4 ? null : Value.of(184833768L + doc % 3);
      timestamps[doc] = Value.of(1754229600000L - 60_000L * ((doc * 7) % 12));
      sortedTimestamps[doc] = doc < 2 ? null : Value.of(1754179200000L + 1000L * (doc / 2));
      latencies[doc] = doc == 7 ? null : Value.of(latencyValues[doc % latencyValues.length]);
      metrics[doc] =
          metricNames[doc % metricNames.length] == null
              ? null
              : Value.of(metricNames[doc % metricNames.length]);
      traces[doc] = Value.of("trace-%04x".formatted(doc * 2654435761L & 0xFFFF));
      List<Map.Entry<String, String>> row = new ArrayList<>();
      if (doc % 4 != 3) {
        row.add(new AbstractMap.SimpleEntry<>("node", doc == 5 ? "xyz" : "node-" + doc % 4));
      }
      row.add(new AbstractMap.SimpleEntry<>("service", doc % 6 == 0 ? null : "svc-" + doc % 3));
      row.add(new AbstractMap.SimpleEntry<>("region", "eu"));
      dimensions.add(doc == 9 ? null : row);
    }
    return new TestingTable(12)
        .column("org_id", ValueType.LONG, orgIds, "inverted")
        .column("logical_timestamp", ValueType.LONG, timestamps, "range")
        .column("sorted_timestamp", ValueType.LONG, sortedTimestamps, "range")
        .column("latency", ValueType.DOUBLE, latencies, "inverted", "range")
        .column("metric", ValueType.STRING, metrics, "inverted", "forward")
        .column("trace_id", ValueType.STRING, traces, "bloom")
        .mapColumn(
            "dimensions",
            dimensions,
            MapKeySelection.listed("node", "service"),
            "inverted",
            "forward");
  }

  private static byte[] golden() throws IOException {
    try (InputStream in = TestGoldenSegment.class.getClassLoader().getResourceAsStream(GOLDEN)) {
      assertThat(in)
          .as("golden file %s (regenerate with -Dshelfmark.golden.regenerate=true)", GOLDEN)
          .isNotNull();
      return in.readAllBytes();
    }
  }

  @Test
  void testWriterReproducesTheGoldenFile() throws IOException {
    byte[] written = table().build(TestingSegments.INDEXES);
    if (Boolean.getBoolean("shelfmark.golden.regenerate")) {
      Files.write(Path.of("src/test/resources").resolve(GOLDEN), written);
    }
    assertThat(written)
        .as("the writer's output changed: bump the changed part's version")
        .isEqualTo(golden());
  }

  @Test
  void testGoldenFileReadsAndAnswers() throws IOException {
    TestingTable table = table();
    ScanOracle oracle = new ScanOracle(table);
    try (Segment segment = TestingSegments.open(golden())) {
      assertThat(segment.docCount()).isEqualTo(12);
      assertThat(segment.skippedParts()).isEmpty();
      assertThat(segment.indexIds("sorted_timestamp")).containsExactly("sorted");
      assertThat(segment.indexIds("trace_id")).containsExactly("bloom");
      String node = ColumnDescriptor.mapKeyName("dimensions", "node");
      String service = ColumnDescriptor.mapKeyName("dimensions", "service");
      FilterEvaluator evaluator = new FilterEvaluator(segment);
      for (Predicate predicate :
          List.of(
              Predicate.eq("org_id", 184833769L),
              Predicate.not(Predicate.eq("metric", "tk_cache")),
              Range.between(
                  "logical_timestamp",
                  Value.of(1754229600000L - 300_000),
                  Value.of(1754229600000L)),
              Range.greaterThan("sorted_timestamp", Value.of(1754179202000L)),
              Range.atMost("latency", Value.of(0.0)),
              Predicate.eq("latency", Value.of(Double.NaN)),
              Predicate.eq(node, "xyz"),
              Predicate.and(Predicate.isNull(service), Predicate.not(Predicate.isNull(node))),
              Predicate.eq("trace_id", table.value("trace_id", 3)))) {
        FilterResult result = evaluator.evaluate(predicate);
        var actual = result.definite().clone();
        if (!result.isExact()) {
          actual.or(oracle.matches(result.residual().orElseThrow(), result.candidates()));
        }
        assertThat(actual)
            .as(predicate.toString())
            .isEqualTo(oracle.matches(predicate, segment.allDocs()));
      }
      assertThat(evaluator.evaluate(Predicate.eq(node, "xyz")).definite().toArray())
          .containsExactly(5);
    }
  }
}
