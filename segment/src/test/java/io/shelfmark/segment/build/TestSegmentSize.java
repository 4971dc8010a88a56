package io.shelfmark.segment.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.segment.filter.FilterEvaluator;
import io.shelfmark.segment.filter.FilterResult;
import io.shelfmark.segment.format.TocEntry;
import io.shelfmark.segment.index.mapkey.MapKeySelection;
import io.shelfmark.segment.predicate.Predicate;
import io.shelfmark.segment.predicate.Range;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.spi.ColumnDescriptor;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.segment.testing.TestingSegments;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The size budget on a synthetic file resembling one data file of {@code obs.metrics} (one org, one
 * day, rows in timestamp order, the bundled table config's indexes). Reports bytes per million rows
 * per part kind; asserts the total stays below 25% of the generator's Parquet bytes per row. The
 * rows default to 200,000 to keep the build quick on shared machines; set {@code
 * -Dshelfmark.segment.size-rows=1000000} for a full-size measurement. The ratio to Parquet bytes
 * needs real files (the index builder's tests), so it is not claimed here.
 */
class TestSegmentSize {
  private static final Logger log = LoggerFactory.getLogger(TestSegmentSize.class);

  /**
   * The generator's Parquet files take about 33 bytes per row (docs/generator.md); 25% of that is
   * the segment budget.
   */
  private static final double BUDGET_BYTES_PER_ROW = 0.25 * 33;

  /** With a forward index on every extracted key, node's included (see the docs). */
  private static final double ALL_FORWARD_BYTES_PER_ROW = 10;

  @Test
  void testObservabilityFileFitsTheBudget() throws IOException {
    int rows = Integer.getInteger("shelfmark.segment.size-rows", 200_000);
    long seed = 0xB3E7L;
    SplittableRandom random = new SplittableRandom(seed);
    SegmentBuilder builder = new SegmentBuilder(TestingSegments.INDEXES, "obs-metrics-like");
    ColumnWriter orgId = builder.addColumn("org_id", ValueType.LONG, List.of("inverted"));
    ColumnWriter metric = builder.addColumn("metric", ValueType.STRING, List.of("inverted"));
    ColumnWriter resolution = builder.addColumn("resolution", ValueType.LONG, List.of("inverted"));
    ColumnWriter timestamp =
        builder.addColumn("logical_timestamp", ValueType.LONG, List.of("range"));
    ColumnWriter shuffledTimestamp =
        builder.addColumn("unsorted_timestamp", ValueType.LONG, List.of("range"));
    MapColumnWriter dimensions =
        builder.addMapColumn(
            "dimensions",
            MapKeySelection.listed("node", "service"),
            List.of("inverted", "forward"));
    long dayStart = 1754179200000L;
    long[] timestamps = new long[rows];
    for (int i = 0; i < rows; i++) {
      timestamps[i] = dayStart + random.nextLong(86_400_000L);
    }
    Arrays.sort(timestamps);
    int batch = 8192;
    for (int start = 0; start < rows; start += batch) {
      int count = Math.min(batch, rows - start);
      long[] orgs = new long[count];
      Arrays.fill(orgs, 184833768L);
      orgId.addLongs(orgs, null, count);
      long[] resolutions = new long[count];
      long[] shuffled = new long[count];
      ByteArrayOutputStream metricBytes = new ByteArrayOutputStream();
      int[] metricOffsets = new int[count + 1];
      for (int i = 0; i < count; i++) {
        int draw = random.nextInt(10);
        resolutions[i] = draw < 6 ? 15000 : draw < 9 ? 60000 : 300000;
        shuffled[i] = dayStart + random.nextLong(86_400_000L);
        String name =
            random.nextInt(10) < 4
                ? "tk_cache"
                : "metric_%03d".formatted(1 + METRIC_RANKS.draw(random));
        metricBytes.writeBytes(name.getBytes(StandardCharsets.UTF_8));
        metricOffsets[i + 1] = metricBytes.size();
      }
      resolution.addLongs(resolutions, null, count);
      metric.addBinary(metricBytes.toByteArray(), metricOffsets, null, count);
      timestamp.addLongs(Arrays.copyOfRange(timestamps, start, start + count), null, count);
      shuffledTimestamp.addLongs(shuffled, null, count);
      addDimensions(dimensions, random, count, rows);
    }
    byte[] segmentBytes = builder.toByteArray();
    Map<String, Long> bytesByKind = new TreeMap<>();
    Map<String, Long> bytesByPart = new TreeMap<>();
    try (Segment segment = TestingSegments.open(segmentBytes)) {
      for (TocEntry entry : segment.tableOfContents().entries()) {
        String key =
            entry.key().name().equals("unsorted_timestamp")
                ? "range (unsorted timestamps)"
                : entry.key().kind();
        bytesByKind.merge(key, entry.length(), Long::sum);
        bytesByPart.put(entry.key().toString(), entry.length());
      }
      StringBuilder report =
          new StringBuilder("Segment bytes per million rows, measured on %d rows:".formatted(rows));
      for (Map.Entry<String, Long> kind : bytesByKind.entrySet()) {
        report.append("%n  %-28s %,12.0f".formatted(kind.getKey(), kind.getValue() * 1e6 / rows));
      }
      report.append("%nper part:".formatted());
      for (Map.Entry<String, Long> part : bytesByPart.entrySet()) {
        report.append("%n  %-36s %,12.0f".formatted(part.getKey(), part.getValue() * 1e6 / rows));
      }
      long withoutUnsorted = segmentBytes.length - bytesByKind.get("range (unsorted timestamps)");
      report.append(
          "%n  %-28s %,12.0f".formatted("total (sorted timestamps)", withoutUnsorted * 1e6 / rows));
      log.info("{}", report);
      System.out.println(report);
      assertThat(segment.indexIds("logical_timestamp"))
          .as("timestamps in file order: sorted index")
          .containsExactly("sorted");
      assertThat(segment.indexIds("unsorted_timestamp")).containsExactly("range");
      assertThat((double) withoutUnsorted / rows).isLessThan(ALL_FORWARD_BYTES_PER_ROW);
      // Forward indexes on the low-cardinality keys only (service, not node): within 25% of
      // Parquet.
      long nodeForward =
          bytesByPart.get("forward[" + ColumnDescriptor.mapKeyName("dimensions", "node") + "]");
      assertThat((double) (withoutUnsorted - nodeForward) / rows).isLessThan(BUDGET_BYTES_PER_ROW);
      // And the benchmark's Q4 filter is answered from the segment alone.
      Predicate q4 =
          Predicate.and(
              Predicate.eq("metric", "tk_cache"),
              Predicate.eq("org_id", 184833768L),
              Predicate.eq("resolution", 15000),
              Predicate.eq(ColumnDescriptor.mapKeyName("dimensions", "node"), "node-17"),
              Range.between(
                  "logical_timestamp",
                  Value.of(dayStart + 36_000_000L),
                  Value.of(dayStart + 36_360_000L)));
      FilterResult result = new FilterEvaluator(segment).evaluate(q4);
      assertThat(result.isExact()).isTrue();
    }
  }

  /** Zipf(1) ranks 0 .. n-1, as the generator draws services and metric names. */
  private record Zipf(double[] cumulative) {
    static Zipf of(int n) {
      double[] cumulative = new double[n];
      double sum = 0;
      for (int k = 0; k < n; k++) {
        sum += 1.0 / (k + 1);
        cumulative[k] = sum;
      }
      for (int k = 0; k < n; k++) {
        cumulative[k] /= sum;
      }
      return new Zipf(cumulative);
    }

    int draw(SplittableRandom random) {
      int index = Arrays.binarySearch(cumulative, random.nextDouble());
      return Math.min(cumulative.length - 1, index < 0 ? -index - 1 : index);
    }
  }

  private static final Zipf METRIC_RANKS = Zipf.of(499);
  private static final Zipf SERVICES = Zipf.of(50);

  /**
   * Like the generator: service and region always, node in 95% of rows, then the first k of env,
   * az, cluster, pod, host, team, for 3 to 8 entries in all. The generator has 100,000 nodes, about
   * ten rows per node in a file of a million rows; smaller test files keep that ratio.
   */
  private static void addDimensions(
      MapColumnWriter dimensions, SplittableRandom random, int count, int rows) {
    int nodes = Math.max(10, Math.min(100_000, rows / 10));
    ByteArrayOutputStream keyBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream valueBytes = new ByteArrayOutputStream();
    int[] entryOffsets = new int[count + 1];
    int[] keyOffsets = new int[count * 8 + 1];
    int[] valueOffsets = new int[count * 8 + 1];
    int entries = 0;
    String[] optional = {"env", "az", "cluster", "pod", "host", "team"};
    for (int i = 0; i < count; i++) {
      List<String> keys = new java.util.ArrayList<>(List.of("service", "region"));
      if (random.nextInt(100) < 95) {
        keys.add("node");
      }
      int total = 3 + random.nextInt(6);
      for (int k = 0; keys.size() < total && k < optional.length; k++) {
        keys.add(optional[k]);
      }
      for (String key : keys) {
        String value =
            switch (key) {
              case "node" -> "node-%06d".formatted(random.nextInt(nodes));
              case "service" -> "service-" + SERVICES.draw(random);
              case "region" -> "region-" + random.nextInt(10);
              case "env" ->
                  random.nextInt(10) < 7 ? "prod" : random.nextBoolean() ? "staging" : "dev";
              case "az" -> "az-" + random.nextInt(30);
              case "cluster" -> "cluster-" + random.nextInt(40);
              case "pod" -> "pod-" + random.nextInt(Math.max(1, nodes / 2));
              case "host" -> "host-" + random.nextInt(Math.max(1, nodes / 5));
              default -> "team-" + random.nextInt(12);
            };
        keyBytes.writeBytes(key.getBytes(StandardCharsets.UTF_8));
        valueBytes.writeBytes(value.getBytes(StandardCharsets.UTF_8));
        entries++;
        keyOffsets[entries] = keyBytes.size();
        valueOffsets[entries] = valueBytes.size();
      }
      entryOffsets[i + 1] = entries;
    }
    dimensions.addMaps(
        count,
        entryOffsets,
        null,
        keyBytes.toByteArray(),
        keyOffsets,
        valueBytes.toByteArray(),
        valueOffsets,
        null);
  }
}
