package io.shelfmark.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import io.shelfmark.cache.memory.MemoryTier;
import io.shelfmark.cache.spi.CacheTier;
import io.shelfmark.cache.stats.StatsCounter;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.read.ParquetFileReader;
import io.shelfmark.parquet.read.ParquetRead;
import io.shelfmark.parquet.read.ReadRequest;
import io.shelfmark.parquet.read.ReaderOptions;
import io.shelfmark.parquet.read.RowGroupBatch;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/** The Parquet reader's footer and page reads going through the tiered cache. */
class TestCachingObjectStore {
  private static final Path CORPUS =
      Path.of(System.getProperty("shelfmark.shared.dir", "../../shared"))
          .resolve("parquet-testing/data/alltypes_tiny_pages.parquet");

  @TempDir Path temp;

  private ObjectStore store;
  private TieredCache cache;
  private Location file;
  private long size;

  @BeforeEach
  void setUp() throws IOException {
    Path local = temp.resolve("alltypes_tiny_pages.parquet");
    Files.copy(CORPUS, local);
    store = ObjectStores.local();
    file = Location.parse(local.toString());
    size = Files.size(local);
    cache =
        new TieredCache(
            new MemoryTier(64 << 20, Runnable::run, StatsCounter.concurrent()),
            CacheTier.disabled("disk"),
            Runnable::run,
            Ticker.systemTicker(),
            StatsCounter.concurrent());
  }

  @AfterEach
  void tearDown() throws IOException {
    cache.close();
    store.close();
  }

  private List<Integer> readIds(ObjectStore through, RowSelection rows) throws IOException {
    ParquetFileReader reader =
        new ParquetFileReader(through, Runnable::run, ReaderOptions.defaults());
    List<Integer> ids = new ArrayList<>();
    try (ParquetRead read = reader.start(ReadRequest.of(file, size, List.of("id"), rows))) {
      for (RowGroupBatch batch : read.readAll()) {
        int[] values = batch.column("id").values().ints();
        for (int i = 0; i < batch.column("id").rowCount(); i++) {
          ids.add(values[i]);
        }
      }
    }
    return ids;
  }

  @Test
  void secondReadOfFooterAndPagesCostsNoRequest() throws IOException {
    RoaringBitmap rows = RoaringBitmap.bitmapOf(3, 700, 5000, 7299);
    CachingObjectStore cached =
        new CachingObjectStore(
            store, cache, CachePolicy.MEMORY_ONLY, IdentityResolver.immutable(Map.of(file, size)));

    StorageStats.Snapshot before = store.stats().snapshot();
    List<Integer> first = readIds(cached, RowSelection.of(rows));
    StorageStats.Snapshot afterFirst = store.stats().snapshot();
    List<Integer> second = readIds(cached, RowSelection.of(rows));
    StorageStats.Snapshot afterSecond = store.stats().snapshot();

    assertThat(afterFirst.minus(before).getRequests()).isPositive();
    assertThat(afterSecond.minus(afterFirst).requests()).isZero();
    assertThat(afterSecond.minus(afterFirst).bytesRead()).isZero();
    assertThat(second).isEqualTo(first).isEqualTo(readIds(store, RowSelection.of(rows)));
    assertThat(first).hasSize(4);
    assertThat(cache.stats().overall().hitCount()).isPositive();
  }

  @Test
  void policyNoneReadsThroughEveryTime() throws IOException {
    CachingObjectStore uncached =
        new CachingObjectStore(
            store, cache, CachePolicy.NONE, IdentityResolver.immutable(Map.of(file, size)));
    readIds(uncached, RowSelection.all());
    StorageStats.Snapshot before = store.stats().snapshot();
    readIds(uncached, RowSelection.all());
    assertThat(store.stats().snapshot().minus(before).getRequests()).isPositive();
  }

  @Test
  void unknownFileIsRefusedNotGuessed() {
    CachingObjectStore cached =
        new CachingObjectStore(
            store, cache, CachePolicy.MEMORY_ONLY, IdentityResolver.immutable(Map.of()));
    assertThatThrownBy(() -> cached.readRange(file, 0, 4))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "Cannot cache reads of "
                + file
                + ": its size is not known (it is not a file of the snapshot being read)");
  }

  @Test
  void versionedIdentityTakesOneHeadPerObject() throws IOException {
    IdentityResolver resolver = IdentityResolver.versionedByStat(store);
    StorageStats.Snapshot before = store.stats().snapshot();
    resolver.identify(file);
    resolver.identify(file);
    assertThat(store.stats().snapshot().minus(before).headRequests()).isEqualTo(1);
  }
}
