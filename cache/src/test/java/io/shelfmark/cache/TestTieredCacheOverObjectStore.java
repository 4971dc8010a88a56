package io.shelfmark.cache;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import io.shelfmark.cache.disk.DiskTier;
import io.shelfmark.cache.key.CacheKey;
import io.shelfmark.cache.key.ObjectIdentity;
import io.shelfmark.cache.memory.MemoryTier;
import io.shelfmark.cache.stats.StatsCounter;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectInfo;
import io.shelfmark.storage.spi.ObjectNotFoundException;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cache in front of a real object store (the local one), counting the requests it makes. */
class TestTieredCacheOverObjectStore {
  private static final Location SEGMENT = Location.parse("s3://lake/_shelfmark/t/seg-1.smk");

  @TempDir Path temp;

  private ObjectStore store;
  private TieredCache cache;
  private Fetcher fetcher;

  @BeforeEach
  void setUp() throws IOException {
    store = ObjectStores.local(temp.resolve("store"));
    cache =
        new TieredCache(
            new MemoryTier(1 << 20, Runnable::run, StatsCounter.concurrent()),
            DiskTier.open(temp.resolve("cache"), 1 << 20, Runnable::run, StatsCounter.concurrent()),
            Runnable::run,
            Ticker.systemTicker(),
            StatsCounter.concurrent());
    fetcher = Fetcher.fromObjectStore(store);
  }

  @AfterEach
  void tearDown() throws IOException {
    cache.close();
    store.close();
  }

  private static String text(ByteBuffer buffer) {
    return UTF_8.decode(buffer.duplicate()).toString();
  }

  @Test
  void repeatedReadsCostOneGet() throws IOException {
    store.write(SEGMENT, "header|dictionary|postings".getBytes(UTF_8));
    ObjectIdentity segment = ObjectIdentity.versioned(store.stat(SEGMENT));
    long getsBefore = store.stats().snapshot().getRequests();
    CacheKey dictionary = CacheKey.of(segment, 7, 10);
    for (int i = 0; i < 5; i++) {
      assertThat(text(cache.read(dictionary, CachePolicy.MEMORY_AND_DISK, fetcher)))
          .isEqualTo("dictionary");
    }
    assertThat(store.stats().snapshot().getRequests() - getsBefore).isEqualTo(1);
  }

  @Test
  void rewrittenObjectIsReadUnderItsNewEtag() throws IOException {
    store.write(SEGMENT, "version-one".getBytes(UTF_8));
    ObjectInfo first = store.stat(SEGMENT);
    CacheKey firstKey = CacheKey.of(ObjectIdentity.versioned(first), 0, 7);
    assertThat(text(cache.read(firstKey, CachePolicy.DISK_ONLY, fetcher))).isEqualTo("version");

    // A different size guarantees a different local ETag whatever the clock's resolution.
    store.write(SEGMENT, "VERSION-TWO!".getBytes(UTF_8));
    ObjectInfo second = store.stat(SEGMENT);
    assertThat(second.etag()).isNotEqualTo(first.etag());
    CacheKey secondKey = CacheKey.of(ObjectIdentity.versioned(second), 0, 7);
    assertThat(text(cache.read(secondKey, CachePolicy.DISK_ONLY, fetcher))).isEqualTo("VERSION");
    assertThat(cache.stats().overall().missCount()).isEqualTo(2);
  }

  @Test
  void missingObjectFailsWithTheStoresErrorAndIsNotCached() throws IOException {
    CacheKey missing = CacheKey.of(ObjectIdentity.immutable(SEGMENT, 100), 0, 10);
    assertThatThrownBy(() -> cache.read(missing, CachePolicy.MEMORY_AND_DISK, fetcher))
        .isInstanceOf(ObjectNotFoundException.class)
        .hasMessageStartingWith(
            "Cannot read object: s3://lake/_shelfmark/t/seg-1.smk does not exist");

    store.write(SEGMENT, new byte[100]);
    assertThat(cache.read(missing, CachePolicy.MEMORY_AND_DISK, fetcher).remaining()).isEqualTo(10);
  }
}
