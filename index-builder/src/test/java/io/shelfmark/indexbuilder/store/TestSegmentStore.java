package io.shelfmark.indexbuilder.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.config.ConfigLoader;
import io.shelfmark.generator.MetricsTable;
import io.shelfmark.indexbuilder.spec.SegmentSpec;
import io.shelfmark.indexbuilder.testing.TestingMetricsLake;
import io.shelfmark.segment.build.ColumnWriter;
import io.shelfmark.segment.build.SegmentBuilder;
import io.shelfmark.segment.filter.FilterEvaluator;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.segment.predicate.Predicate;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectNotFoundException;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestSegmentStore {
  private static final IndexService INDEXES = IndexService.installed();
  private static final SegmentSpec SPEC =
      SegmentSpec.from(
          ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE),
          MetricsTable.SCHEMA);

  @TempDir Path directory;

  @Test
  void testLocationsAreDeterministicPerFileAndSpec() {
    SegmentStore store =
        new SegmentStore(
            io.shelfmark.storage.ObjectStores.local(),
            Location.parse("s3://lake/_shelfmark/segments"));
    String path = "s3://lake/warehouse/obs/metrics/data/org_id=7/f.parquet";

    Location location = store.locationOf(SPEC, path, 1234);

    assertThat(location.toString())
        .matches(
            "s3://lake/_shelfmark/segments/obs\\.metrics/"
                + SPEC.fingerprint()
                + "/[0-9a-f]{32}-1234\\.shfm");
    assertThat(store.locationOf(SPEC, path, 1234)).isEqualTo(location);
    assertThat(store.locationOf(SPEC, path, 1235)).isNotEqualTo(location);
    assertThat(store.locationOf(SPEC, path + "x", 1234)).isNotEqualTo(location);
    assertThat(store.locationOf(SPEC.withForwardMaxCardinality(1), path, 1234))
        .isNotEqualTo(location);
    assertThat(SegmentStore.segmentName(path, 1234))
        .isEqualTo(location.key().substring(location.key().lastIndexOf('/') + 1));
    assertThatThrownBy(() -> SegmentStore.segmentName(path, -1))
        .hasMessage("Cannot name the segment of " + path + ": negative size -1");
  }

  @Test
  void testLocalDirectoryWriteFindListOpenPinDelete() throws IOException {
    SegmentStore store = SegmentStore.inDirectory(directory.resolve("segments"));
    checkLifecycle(store, directory.resolve("pins"));
  }

  @Test
  void testObjectStorePrefixOverS3() throws IOException {
    TestingMetricsLake lake = TestingMetricsLake.shared();
    SegmentStore store =
        new SegmentStore(lake.store(), Location.parse("s3://lake/_shelfmark/store-test/"));
    StorageStats.Snapshot before = lake.store().stats().snapshot();
    checkLifecycle(store, directory.resolve("pins"));
    StorageStats.Snapshot used = lake.store().stats().snapshot().minus(before);
    assertThat(used.putRequests()).isEqualTo(1);
    assertThat(used.listRequests()).isEqualTo(2);
  }

  private static void checkLifecycle(SegmentStore store, Path pins) throws IOException {
    byte[] segmentBytes = segment();
    Location location = store.locationOf(SPEC, "s3://lake/data/a.parquet", 100);
    assertThat(store.exists(location)).isFalse();
    assertThat(store.list(SPEC)).isEmpty();

    store.write(location, segmentBytes);

    assertThat(store.exists(location)).isTrue();
    assertThat(store.find(location).orElseThrow().size()).isEqualTo(segmentBytes.length);
    assertThat(store.list(SPEC)).isEqualTo(Map.of(location, (long) segmentBytes.length));
    try (Segment remote = store.open(location, INDEXES)) {
      assertMatches(remote);
    }
    try (Segment remote = store.open(location, segmentBytes.length, INDEXES)) {
      assertMatches(remote);
    }

    Path pinned = store.pin(location, pins);
    assertThat(pinned)
        .startsWith(pins)
        .hasFileName(location.key().substring(location.key().lastIndexOf('/') + 1));
    assertThat(Files.readAllBytes(pinned)).isEqualTo(segmentBytes);
    assertThat(store.pin(location, pins)).isEqualTo(pinned);
    try (Stream<Path> files = Files.walk(pins)) {
      assertThat(files.filter(Files::isRegularFile).toList())
          .as("no temporary file left behind")
          .containsExactly(pinned);
    }
    try (Segment mapped = SegmentStore.openPinned(pinned, INDEXES)) {
      assertMatches(mapped);
    }

    assertThat(store.delete(location)).isTrue();
    assertThat(store.exists(location)).isFalse();
    assertThatThrownBy(() -> store.pin(location, pins))
        .isInstanceOf(ObjectNotFoundException.class)
        .hasMessageContaining(location.toString());
  }

  private static void assertMatches(Segment segment) throws IOException {
    assertThat(
            new FilterEvaluator(segment)
                .evaluate(Predicate.eq("metric", "tk_cache"))
                .definite()
                .toArray())
        .containsExactly(0, 2);
  }

  private static byte[] segment() throws IOException {
    SegmentBuilder builder = new SegmentBuilder(INDEXES, "test");
    ColumnWriter metric = builder.addColumn("metric", ValueType.STRING, List.of("inverted"));
    metric.addStrings(java.util.Arrays.asList("tk_cache", "cpu", "tk_cache", null));
    return builder.toByteArray();
  }
}
