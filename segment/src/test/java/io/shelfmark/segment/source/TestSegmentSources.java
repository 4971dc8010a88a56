package io.shelfmark.segment.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.segment.filter.FilterEvaluator;
import io.shelfmark.segment.filter.FilterResult;
import io.shelfmark.segment.predicate.Predicate;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.testing.MixedTable;
import io.shelfmark.segment.testing.RandomPredicates;
import io.shelfmark.segment.testing.TestingSegments;
import io.shelfmark.segment.testing.TestingTable;
import io.shelfmark.storage.local.LocalObjectStore;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.StorageStats;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pinned (memory-mapped) segment and a remote one (ranged reads through the object store SPI,
 * here over {@link LocalObjectStore}) answer identically, and the remote one reads only what a
 * query needs.
 */
class TestSegmentSources {
  @TempDir Path directory;

  @Test
  void testMappedAndRangedReadsGiveIdenticalAnswers() throws IOException {
    long seed = 0x5007CEL;
    TestingTable table = MixedTable.generate(20_000, seed);
    Path file = directory.resolve("segment.shfm");
    Files.write(file, table.build(TestingSegments.INDEXES));
    LocalObjectStore store = LocalObjectStore.unconfined();
    Location location = Location.parse(file.toString());
    try (Segment mapped = Segment.open(MappedSegmentSource.open(file), TestingSegments.INDEXES);
        Segment remote =
            Segment.open(
                new ObjectStoreSegmentSource(store, location, Files.size(file)),
                TestingSegments.INDEXES)) {
      assertThat(remote.metadata()).isEqualTo(mapped.metadata());
      assertThat(remote.tableOfContents().entries()).isEqualTo(mapped.tableOfContents().entries());
      RandomPredicates predicates =
          new RandomPredicates(table, MixedTable.predicateColumns(), seed);
      for (int i = 0; i < 30; i++) {
        Predicate predicate = predicates.next(3);
        FilterResult fromMapping = new FilterEvaluator(mapped).evaluate(predicate);
        FilterResult fromStore = new FilterEvaluator(remote).evaluate(predicate);
        assertThat(fromStore).as("seed %d, %s", seed, predicate).isEqualTo(fromMapping);
      }
      assertThat(remote.statistics()).isEqualTo(mapped.statistics());
    }
  }

  @Test
  void testRemoteSegmentReadsOnlyTheTailThenTheQueriedParts() throws IOException {
    TestingTable table = MixedTable.generate(20_000, 9);
    Path file = directory.resolve("segment.shfm");
    Files.write(file, table.build(TestingSegments.INDEXES));
    LocalObjectStore store = new LocalObjectStore(java.util.Optional.empty(), new StorageStats());
    Location location = Location.parse(file.toString());
    try (Segment segment =
        Segment.open(
            new ObjectStoreSegmentSource(store, location, Files.size(file)),
            TestingSegments.INDEXES)) {
      // Trailer, table of contents and metadata arrive in one ranged read of the tail.
      assertThat(store.stats().snapshot().getRequests()).isEqualTo(1);
      assertThat(store.stats().snapshot().headRequests()).isZero();
      new FilterEvaluator(segment).evaluate(Predicate.eq("long_inverted", 7));
      // nulls, dictionary and inverted index of one column: three more reads, a fraction of the
      // file.
      assertThat(store.stats().snapshot().getRequests()).isEqualTo(4);
      assertThat(store.stats().snapshot().bytesRead()).isLessThan(Files.size(file) / 4);
      new FilterEvaluator(segment).evaluate(Predicate.eq("long_inverted", 8));
      assertThat(store.stats().snapshot().getRequests()).as("parts are read once").isEqualTo(4);
    }
  }

  @Test
  void testReadsPastTheEndAreRefused() throws IOException {
    Path file = directory.resolve("small.shfm");
    Files.write(file, new byte[100]);
    try (MappedSegmentSource mapped = MappedSegmentSource.open(file)) {
      assertThatThrownBy(() -> mapped.read(90, 20))
          .isInstanceOf(EOFException.class)
          .hasMessage(
              "Cannot read 20 bytes at offset 90 of segment %s: it has 100 bytes".formatted(file));
    }
    ObjectStoreSegmentSource remote =
        new ObjectStoreSegmentSource(
            LocalObjectStore.unconfined(), Location.parse(file.toString()), 100);
    assertThatThrownBy(() -> remote.read(-1, 5))
        .isInstanceOf(EOFException.class)
        .hasMessage(
            "Cannot read 5 bytes at offset -1 of segment file:%s: it has 100 bytes"
                .formatted(file));
  }
}
