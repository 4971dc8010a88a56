package io.shelfmark.exchange.fragment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.exchange.result.AggregateState;
import io.shelfmark.exchange.result.ExecutionStatistics;
import io.shelfmark.exchange.result.Group;
import io.shelfmark.exchange.result.PartialResult;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.junit.jupiter.api.Test;

/**
 * The wire format's golden files: the v1 bytes of a plan fragment and of a fragment response (a
 * partial result inside) are committed under {@code src/test/resources/golden/v1/} and must decode
 * to exactly these values, field by field. A later version must keep decoding them, or fail here.
 * To write them again (only with a new version directory): run this test with {@code
 * -Dshelfmark.golden.write=<dir>}.
 */
class TestWireFormat {
  private static final ExecutionStatistics STATISTICS =
      new ExecutionStatistics(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13);
  // Partial results of version 3 (golden/partial-v3/) carry files answered from a star-tree too.
  private static final ExecutionStatistics STATISTICS_V3 =
      new ExecutionStatistics(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);
  // Version 4 (golden/partial-v4/): pages answered from statistics and chunks read whole too.
  private static final ExecutionStatistics STATISTICS_V4 =
      new ExecutionStatistics(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);

  static PlanFragment fragment() {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("timeoutMs", "2500");
    options.put("useIndexes", "true");
    return new PlanFragment(
        "q-000042",
        "SELECT service, COUNT(*) FROM metrics WHERE org_id = 'ü7' GROUP BY service",
        Optional.of("obs"),
        "obs.metrics",
        3,
        8_765_432_109_876L,
        List.of(
            "s3://lake/obs/metrics/data/part-00000.parquet",
            "s3://lake/obs/metrics/data/part-00001.parquet"),
        Duration.ofMillis(1_234),
        PlanFragment.Lane.HEAVY,
        new QueryLimits(1_000, 2_000, 3_000),
        options);
  }

  static FragmentResponse response() {
    return response(STATISTICS);
  }

  static FragmentResponse response(ExecutionStatistics statistics) {
    HllSketch sketch = new HllSketch(AggregateState.HLL_LG_K, TgtHllType.HLL_4);
    sketch.update("a");
    sketch.update("b");
    PartialResult partial =
        PartialResult.ofGroups(
            List.of(
                new Group(
                    List.of("checkout", 7L),
                    List.of(
                        new AggregateState.Count(5),
                        new AggregateState.LongSum(0, 1_000, 5),
                        new AggregateState.DoubleSum(2.5, 2),
                        new AggregateState.DecimalSum(new BigDecimal("12.345"), 3),
                        new AggregateState.Extreme(99L, true),
                        new AggregateState.Distinct(Set.of("x", "y")),
                        new AggregateState.Hll(sketch))),
                new Group(
                    java.util.Arrays.asList(null, 8L),
                    List.of(
                        new AggregateState.Count(1),
                        new AggregateState.LongSum(0, -4, 1),
                        new AggregateState.DoubleSum(0, 0),
                        new AggregateState.DecimalSum(BigDecimal.ZERO, 0),
                        new AggregateState.Extreme(null, true),
                        new AggregateState.Distinct(Set.of()),
                        new AggregateState.Hll(
                            new HllSketch(AggregateState.HLL_LG_K, TgtHllType.HLL_4))))),
            statistics);
    return new FragmentResponse(partial, 21, 4_096, 17, 4);
  }

  static PartialResult rows() {
    return rows(STATISTICS);
  }

  static PartialResult rows(ExecutionStatistics statistics) {
    return PartialResult.ofRows(
        List.of(
            java.util.Arrays.asList(1, 2L, 1.5f, 2.25d, true, "text", new BigDecimal("-0.50")),
            java.util.Arrays.asList(
                null, null, null, null, false, "", ByteBuffer.wrap(new byte[] {1, 2, 3}))),
        statistics);
  }

  @Test
  void decodesTheV1PlanFragmentFieldByField() throws IOException {
    PlanFragment decoded = PlanFragment.decode(golden("fragment.bin"));
    assertThat(decoded.requestId()).isEqualTo("q-000042");
    assertThat(decoded.sql())
        .isEqualTo("SELECT service, COUNT(*) FROM metrics WHERE org_id = 'ü7' GROUP BY service");
    assertThat(decoded.database()).contains("obs");
    assertThat(decoded.table()).isEqualTo("obs.metrics");
    assertThat(decoded.schemaId()).isEqualTo(3);
    assertThat(decoded.snapshotId()).isEqualTo(8_765_432_109_876L);
    assertThat(decoded.files())
        .containsExactly(
            "s3://lake/obs/metrics/data/part-00000.parquet",
            "s3://lake/obs/metrics/data/part-00001.parquet");
    assertThat(decoded.timeout()).isEqualTo(Duration.ofMillis(1_234));
    assertThat(decoded.lane()).isEqualTo(PlanFragment.Lane.HEAVY);
    assertThat(decoded.limits()).isEqualTo(new QueryLimits(1_000, 2_000, 3_000));
    assertThat(decoded.options())
        .containsExactly(Map.entry("timeoutMs", "2500"), Map.entry("useIndexes", "true"));
    assertThat(decoded).isEqualTo(fragment());
    // The encoder still writes v1 byte for byte: a change to it must come with a new version.
    assertThat(fragment().encode()).isEqualTo(golden("fragment.bin"));
  }

  @Test
  void decodesTheV1ResponseAndItsPartialResultFieldByField() throws IOException {
    FragmentResponse decoded = FragmentResponse.decode(golden("response.bin"));
    assertThat(decoded.storageRequests()).isEqualTo(21);
    assertThat(decoded.storageBytesRead()).isEqualTo(4_096);
    assertThat(decoded.cacheHits()).isEqualTo(17);
    assertThat(decoded.cacheMisses()).isEqualTo(4);
    PartialResult partial = decoded.partial();
    assertThat(partial.aggregated()).isTrue();
    assertThat(partial.statistics()).isEqualTo(STATISTICS);
    assertThat(partial.groups()).hasSize(2);
    Group first = partial.groups().get(0);
    assertThat(first.key()).containsExactly("checkout", 7L);
    List<AggregateState> states = first.states();
    assertThat(states.get(0)).isEqualTo(new AggregateState.Count(5));
    assertThat(states.get(1)).isEqualTo(new AggregateState.LongSum(0, 1_000, 5));
    assertThat(states.get(2)).isEqualTo(new AggregateState.DoubleSum(2.5, 2));
    assertThat(states.get(3)).isEqualTo(new AggregateState.DecimalSum(new BigDecimal("12.345"), 3));
    assertThat(states.get(4)).isEqualTo(new AggregateState.Extreme(99L, true));
    assertThat(states.get(5)).isEqualTo(new AggregateState.Distinct(Set.of("x", "y")));
    assertThat(((AggregateState.Hll) states.get(6)).sketch().getEstimate())
        .isCloseTo(2.0, org.assertj.core.data.Offset.offset(1e-6));
    Group second = partial.groups().get(1);
    assertThat(second.key()).containsExactly(null, 8L);
    assertThat(second.states().get(1)).isEqualTo(new AggregateState.LongSum(0, -4, 1));
    assertThat(second.states().get(4)).isEqualTo(new AggregateState.Extreme(null, true));
    assertThat(second.states().get(5)).isEqualTo(new AggregateState.Distinct(Set.of()));
    assertThat(((AggregateState.Hll) second.states().get(6)).sketch().isEmpty()).isTrue();
  }

  @Test
  void decodesTheV1SelectionRowsFieldByField() throws IOException {
    PartialResult decoded = PartialResult.deserialize(golden("partial-rows.bin"));
    assertThat(decoded.aggregated()).isFalse();
    assertThat(decoded.statistics()).isEqualTo(STATISTICS);
    assertThat(decoded.rows().get(0))
        .containsExactly(1, 2L, 1.5f, 2.25d, true, "text", new BigDecimal("-0.50"));
    List<Object> second = decoded.rows().get(1);
    assertThat(second.subList(0, 6)).containsExactly(null, null, null, null, false, "");
    assertThat(second.get(6)).isEqualTo(ByteBuffer.wrap(new byte[] {1, 2, 3}));
  }

  @Test
  void decodesTheV3PartialResults() throws IOException {
    FragmentResponse response = FragmentResponse.decode(golden("partial-v3", "response.bin"));
    assertThat(response.partial().statistics()).isEqualTo(STATISTICS_V3);
    assertThat(response.partial().statistics().filesAnsweredFromStarTree()).isEqualTo(14);
    assertThat(response.partial().groups()).hasSize(2);
    // Not re-encoded byte for byte: Set.of's iteration order (the Distinct state) varies by JVM.
    PartialResult decoded = PartialResult.deserialize(golden("partial-v3", "partial-rows.bin"));
    assertThat(decoded.statistics()).isEqualTo(STATISTICS_V3);
    assertThat(decoded.rows()).isEqualTo(rows(STATISTICS_V3).rows());
    assertThat(decoded.statistics().parquetPagesFromStatistics()).isZero();
    assertThat(decoded.statistics().parquetChunksReadWhole()).isZero();
  }

  @Test
  void decodesAndWritesTheV4PartialResults() throws IOException {
    FragmentResponse response = FragmentResponse.decode(golden("partial-v4", "response.bin"));
    assertThat(response.partial().statistics()).isEqualTo(STATISTICS_V4);
    assertThat(response.partial().statistics().parquetPagesFromStatistics()).isEqualTo(15);
    assertThat(response.partial().statistics().parquetChunksReadWhole()).isEqualTo(16);
    assertThat(response.partial().groups()).hasSize(2);
    PartialResult decoded = PartialResult.deserialize(golden("partial-v4", "partial-rows.bin"));
    assertThat(decoded.statistics()).isEqualTo(STATISTICS_V4);
    assertThat(decoded.rows()).isEqualTo(rows(STATISTICS_V4).rows());
    assertThat(rows(STATISTICS_V4).serialize()).isEqualTo(golden("partial-v4", "partial-rows.bin"));
  }

  @Test
  void refusesAnUnknownVersionNamingBoth() throws IOException {
    byte[] bytes = golden("fragment.bin");
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putShort(4, (short) 9);
    assertThatThrownBy(() -> PlanFragment.decode(bytes))
        .isInstanceOf(WireFormatException.class)
        .hasMessage(
            "Cannot read a plan fragment of version 9: this node reads versions 1 to 2 (run brokers and"
                + " servers of the same release, or upgrade the older side)");
    byte[] partial = rows().serialize();
    partial[4] = 7;
    assertThatThrownBy(() -> PartialResult.deserialize(partial))
        .hasMessage(
            "Cannot read a partial result of version 7: this node reads versions 2 to 4 (run brokers"
                + " and servers of the same release, or upgrade the older side)");
  }

  @Test
  void refusesOtherBytesTruncationAndDamage() {
    byte[] bytes = fragment().encode();
    assertThatThrownBy(() -> FragmentResponse.decode(bytes))
        .isInstanceOf(WireFormatException.class)
        .hasMessageStartingWith("Cannot read a fragment response of " + bytes.length + " bytes:")
        .hasMessageContaining("magic");
    byte[] truncated = java.util.Arrays.copyOf(bytes, bytes.length - 9);
    assertThatThrownBy(() -> PlanFragment.decode(truncated))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("(the bytes are truncated or corrupt)");
    byte[] damaged = bytes.clone();
    damaged[20] ^= 0x10;
    assertThatThrownBy(() -> PlanFragment.decode(damaged))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("checksum")
        .hasMessageEndingWith("(the bytes are corrupt)");
  }

  @Test
  void roundTripsAFragmentWithoutDatabaseOrOptions() {
    PlanFragment plain =
        new PlanFragment(
            "r",
            "SELECT 1 FROM t",
            Optional.empty(),
            "t",
            0,
            -1,
            List.of(),
            Duration.ZERO,
            PlanFragment.Lane.CHEAP,
            QueryLimits.NONE,
            Map.of());
    assertThat(PlanFragment.decode(plain.encode())).isEqualTo(plain);
  }

  private static byte[] golden(String name) throws IOException {
    return golden("v1", name);
  }

  private static byte[] golden(String version, String name) throws IOException {
    String write = System.getProperty("shelfmark.golden.write");
    if (write != null && version.equals("partial-v4")) {
      // Only the newest version's files are ever written.
      Path dir = Path.of(write);
      Files.createDirectories(dir);
      Files.write(dir.resolve("response.bin"), response(STATISTICS_V4).encode());
      Files.write(dir.resolve("partial-rows.bin"), rows(STATISTICS_V4).serialize());
    }
    String resource = "/golden/" + version + "/" + name;
    try (InputStream in = TestWireFormat.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("Cannot find golden file " + resource + " on the class path");
      }
      return in.readAllBytes();
    }
  }
}
