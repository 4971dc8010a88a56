package io.shelfmark.cache;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.github.benmanes.caffeine.cache.Ticker;
import io.shelfmark.cache.key.CacheKey;
import io.shelfmark.cache.key.ObjectIdentity;
import io.shelfmark.cache.stats.CacheStats;
import io.shelfmark.cache.stats.TieredCacheStats;
import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.storage.spi.Location;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tiered cache over a real data file (read by a counting fetcher) and a real cache directory.
 */
class TestTieredCache {
  private static final int DATA_SIZE = 512 << 10;

  @TempDir Path temp;

  private Path cacheDirectory;
  private ExecutorService executor;
  private byte[] data;
  private ObjectIdentity object;
  private final AtomicInteger fetches = new AtomicInteger();
  private final List<TieredCache> opened = new ArrayList<>();

  /** Reads ranges of the data file, counting every call: the stand-in for a ranged GET. */
  private final Fetcher fileFetcher = this::readFromFile;

  @BeforeEach
  void setUp() throws IOException {
    cacheDirectory = temp.resolve("cache");
    executor = Executors.newFixedThreadPool(2);
    data = new byte[DATA_SIZE];
    new SplittableRandom(42).nextBytes(data);
    Path file = Files.write(temp.resolve("data.parquet"), data);
    object = ObjectIdentity.immutable(Location.parse(file.toString()), DATA_SIZE);
  }

  @AfterEach
  void tearDown() throws IOException {
    for (TieredCache cache : opened) {
      cache.close();
    }
    executor.shutdownNow();
  }

  private byte[] readFromFile(CacheKey key) throws IOException {
    fetches.incrementAndGet();
    ByteBuffer buffer = ByteBuffer.allocate(key.length());
    try (FileChannel channel =
        FileChannel.open(Path.of(key.object().location().key()), StandardOpenOption.READ)) {
      while (buffer.hasRemaining()) {
        if (channel.read(buffer, key.offset() + buffer.position()) < 0) {
          throw new IOException("Cannot read " + key + ": file ended early");
        }
      }
    }
    return buffer.array();
  }

  /** Blocks a fetcher until the test opens the gate. */
  private static void pass(CountDownLatch gate) throws IOException {
    try {
      gate.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while waiting at the test's gate");
    }
  }

  /** Each read tells its listener the tier that answered it, as a query's own counter sees it. */
  @Test
  void aReadTellsWhichTierAnsweredIt() throws IOException {
    TieredCache cache = open(1 << 20, 4 << 20);
    CacheKey key = range(4096, 1000);
    List<ReadSource> sources = new ArrayList<>();
    ReadSource.Listener listener = sources::add;
    assertThat(bytesOf(cache.read(key, CachePolicy.MEMORY_AND_DISK, fileFetcher, listener)))
        .isEqualTo(expected(key));
    assertThat(bytesOf(cache.read(key, CachePolicy.MEMORY_AND_DISK, fileFetcher, listener)))
        .isEqualTo(expected(key));
    cache.memoryTier().invalidate(key);
    assertThat(bytesOf(cache.read(key, CachePolicy.MEMORY_AND_DISK, fileFetcher, listener)))
        .isEqualTo(expected(key));
    assertThat(sources).containsExactly(ReadSource.FETCH, ReadSource.MEMORY, ReadSource.DISK);
    assertThat(fetches.get()).isEqualTo(1);
  }

  private TieredCache open(long memoryBytes, long diskBytes) throws IOException {
    return open(memoryBytes, diskBytes, Ticker.systemTicker());
  }

  private TieredCache open(long memoryBytes, long diskBytes, Ticker ticker) throws IOException {
    CacheConfig config =
        CacheConfig.builder()
            .memoryMaxSize(DataSize.ofBytes(memoryBytes))
            .diskMaxSize(DataSize.ofBytes(diskBytes))
            .diskDirectory(cacheDirectory)
            .build(temp);
    TieredCache cache = TieredCache.open(config, executor, ticker);
    opened.add(cache);
    return cache;
  }

  private CacheKey range(long offset, int length) {
    return CacheKey.of(object, offset, length);
  }

  private byte[] expected(CacheKey key) {
    byte[] bytes = new byte[key.length()];
    System.arraycopy(data, (int) key.offset(), bytes, 0, key.length());
    return bytes;
  }

  private static byte[] bytesOf(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }

  private List<Path> entryFiles() throws IOException {
    Path entries = cacheDirectory.resolve("entries");
    if (!Files.exists(entries)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(entries)) {
      return files.filter(Files::isRegularFile).toList();
    }
  }

  @Test
  void memoryOnlyFetchesOnceAndNeverTouchesDisk() throws IOException {
    TieredCache cache = open(1 << 20, 1 << 20);
    CacheKey key = range(1000, 4096);
    ByteBuffer first = cache.read(key, CachePolicy.MEMORY_ONLY, fileFetcher);
    ByteBuffer second = cache.read(key, CachePolicy.MEMORY_ONLY, fileFetcher);

    assertThat(bytesOf(first)).isEqualTo(expected(key));
    assertThat(bytesOf(second)).isEqualTo(expected(key));
    assertThat(second.isReadOnly()).isTrue();
    assertThat(fetches).hasValue(1);
    TieredCacheStats stats = cache.stats();
    assertThat(stats.overall().hitCount()).isEqualTo(1);
    assertThat(stats.overall().missCount()).isEqualTo(1);
    assertThat(stats.overall().loadSuccessCount()).isEqualTo(1);
    assertThat(stats.overall().bytesLoaded()).isEqualTo(4096);
    assertThat(stats.memory().stats().hitCount()).isEqualTo(1);
    assertThat(stats.memory().stats().loadSuccessCount()).isEqualTo(1);
    assertThat(stats.disk().stats().requestCount()).isZero();
    assertThat(entryFiles()).isEmpty();
  }

  @Test
  void diskOnlyNeverTouchesMemory() throws IOException {
    TieredCache cache = open(1 << 20, 1 << 20);
    CacheKey key = range(0, 100);
    cache.read(key, CachePolicy.DISK_ONLY, fileFetcher);
    assertThat(bytesOf(cache.read(key, CachePolicy.DISK_ONLY, fileFetcher)))
        .isEqualTo(expected(key));

    assertThat(fetches).hasValue(1);
    assertThat(cache.memoryTier().entryCount()).isZero();
    assertThat(cache.stats().memory().stats().requestCount()).isZero();
    assertThat(cache.stats().disk().stats().hitCount()).isEqualTo(1);
    assertThat(entryFiles()).hasSize(1);
  }

  @Test
  void diskHitIsCopiedIntoMemory() throws IOException {
    TieredCache cache = open(1 << 20, 1 << 20);
    CacheKey key = range(5000, 2000);
    cache.read(key, CachePolicy.MEMORY_AND_DISK, fileFetcher);
    cache.memoryTier().invalidate(key);

    assertThat(bytesOf(cache.read(key, CachePolicy.MEMORY_AND_DISK, fileFetcher)))
        .isEqualTo(expected(key));
    assertThat(cache.memoryTier().getQuietly(key)).isPresent();
    assertThat(bytesOf(cache.read(key, CachePolicy.MEMORY_AND_DISK, fileFetcher)))
        .isEqualTo(expected(key));

    assertThat(fetches).hasValue(1);
    TieredCacheStats stats = cache.stats();
    assertThat(stats.disk().stats().hitCount()).isEqualTo(1);
    assertThat(stats.memory().stats().hitCount()).isEqualTo(1);
    // Filled twice: once by the fetch, once from disk.
    assertThat(stats.memory().stats().loadSuccessCount()).isEqualTo(2);
    assertThat(stats.overall().hitCount()).isEqualTo(2);
    assertThat(stats.overall().missCount()).isEqualTo(1);
  }

  @Test
  void invalidateAllEmptiesBothTiersAndTheNextReadFetchesAgain() throws IOException {
    TieredCache cache = open(1 << 20, 1 << 20);
    CacheKey first = range(5000, 2000);
    CacheKey second = range(9000, 1000);
    cache.read(first, CachePolicy.MEMORY_AND_DISK, fileFetcher);
    cache.read(second, CachePolicy.MEMORY_AND_DISK, fileFetcher);
    assertThat(cache.diskTier().entryCount()).isEqualTo(2);

    cache.invalidateAll();

    assertThat(cache.memoryTier().getQuietly(first)).isEmpty();
    assertThat(cache.diskTier().getQuietly(first)).isEmpty();
    assertThat(cache.diskTier().getQuietly(second)).isEmpty();
    assertThat(cache.diskTier().entryCount()).isZero();
    assertThat(bytesOf(cache.read(first, CachePolicy.MEMORY_AND_DISK, fileFetcher)))
        .isEqualTo(expected(first));
    assertThat(fetches).hasValue(3);
  }

  @Test
  void policyNoneNeverStores() throws IOException {
    TieredCache cache = open(1 << 20, 1 << 20);
    CacheKey key = range(0, 512);
    for (int i = 0; i < 3; i++) {
      assertThat(bytesOf(cache.read(key, CachePolicy.NONE, fileFetcher))).isEqualTo(expected(key));
    }
    assertThat(fetches).hasValue(3);
    assertThat(cache.memoryTier().entryCount()).isZero();
    assertThat(cache.diskTier().entryCount()).isZero();
    assertThat(entryFiles()).isEmpty();
    assertThat(cache.stats().memory().stats()).isEqualTo(CacheStats.empty());
    assertThat(cache.stats().disk().stats()).isEqualTo(CacheStats.empty());
    assertThat(cache.stats().overall().missCount()).isEqualTo(3);
  }

  @Test
  void concurrentMissesAreFetchedOnce() throws Exception {
    TieredCache cache = open(1 << 20, 1 << 20);
    CacheKey key = range(100, 10_000);
    CountDownLatch release = new CountDownLatch(1);
    Fetcher gated =
        k -> {
          pass(release);
          return readFromFile(k);
        };
    int readers = 8;
    ExecutorService threads = Executors.newFixedThreadPool(readers);
    try {
      List<Future<ByteBuffer>> results = new ArrayList<>();
      for (int i = 0; i < readers; i++) {
        // NONE stores nothing, so only joining the one fetch in flight explains a single fetch.
        results.add(threads.submit(() -> cache.read(key, CachePolicy.NONE, gated)));
      }
      await()
          .atMost(30, SECONDS)
          .until(() -> cache.stats().overall().coalescedCount() == readers - 1);
      release.countDown();
      for (Future<ByteBuffer> result : results) {
        assertThat(bytesOf(result.get())).isEqualTo(expected(key));
      }
    } finally {
      threads.shutdownNow();
    }
    assertThat(fetches).hasValue(1);
    CacheStats overall = cache.stats().overall();
    assertThat(overall.missCount()).isEqualTo(1);
    assertThat(overall.coalescedCount()).isEqualTo(readers - 1);
    assertThat(overall.loadSuccessCount()).isEqualTo(1);
  }

  @Test
  void failedFetchReachesEveryWaiterAndIsNotCached() throws Exception {
    TieredCache cache = open(1 << 20, 1 << 20);
    CacheKey key = range(0, 1000);
    CountDownLatch release = new CountDownLatch(1);
    IOException failure = new IOException("Cannot read " + key + ": SlowDown (retry budget spent)");
    AtomicInteger calls = new AtomicInteger();
    Fetcher failingOnce =
        k -> {
          if (calls.incrementAndGet() == 1) {
            pass(release);
            throw failure;
          }
          return readFromFile(k);
        };
    int readers = 6;
    ExecutorService threads = Executors.newFixedThreadPool(readers);
    try {
      List<Future<ByteBuffer>> results = new ArrayList<>();
      for (int i = 0; i < readers; i++) {
        results.add(
            threads.submit(() -> cache.read(key, CachePolicy.MEMORY_AND_DISK, failingOnce)));
      }
      await()
          .atMost(30, SECONDS)
          .until(() -> cache.stats().overall().coalescedCount() == readers - 1);
      release.countDown();
      for (Future<ByteBuffer> result : results) {
        assertThatThrownBy(result::get)
            .isInstanceOf(ExecutionException.class)
            .cause()
            .isSameAs(failure);
      }
    } finally {
      threads.shutdownNow();
    }
    assertThat(calls).hasValue(1);
    assertThat(cache.memoryTier().entryCount()).isZero();
    assertThat(cache.diskTier().entryCount()).isZero();
    assertThat(entryFiles()).isEmpty();
    assertThat(cache.stats().overall().loadFailureCount()).isEqualTo(1);
    assertThat(cache.stats().disk().stats().loadFailureCount()).isEqualTo(1);

    // The failure was not remembered: the next read fetches again and succeeds.
    assertThat(bytesOf(cache.read(key, CachePolicy.MEMORY_AND_DISK, failingOnce)))
        .isEqualTo(expected(key));
    assertThat(calls).hasValue(2);
  }

  @Test
  void waiterStoresInTheTiersTheLeaderSkipped() throws Exception {
    TieredCache cache = open(1 << 20, 1 << 20);
    CacheKey key = range(0, 300);
    CountDownLatch release = new CountDownLatch(1);
    Fetcher gated =
        k -> {
          pass(release);
          return readFromFile(k);
        };
    CompletableFuture<ByteBuffer> leader = cache.readAsync(key, CachePolicy.NONE, gated);
    CompletableFuture<ByteBuffer> waiter = cache.readAsync(key, CachePolicy.MEMORY_ONLY, gated);
    release.countDown();
    assertThat(bytesOf(leader.get(30, SECONDS))).isEqualTo(expected(key));
    assertThat(bytesOf(waiter.get(30, SECONDS))).isEqualTo(expected(key));

    assertThat(fetches).hasValue(1);
    assertThat(cache.memoryTier().getQuietly(key)).isPresent();
    assertThat(cache.diskTier().entryCount()).isZero();
  }

  @Test
  void rewrittenObjectIsAMiss() throws IOException {
    TieredCache cache = open(1 << 20, 1 << 20);
    Location location = object.location();
    CacheKey version1 = CacheKey.of(ObjectIdentity.versioned(location, DATA_SIZE, "\"v1\""), 0, 64);
    CacheKey version2 = CacheKey.of(ObjectIdentity.versioned(location, DATA_SIZE, "\"v2\""), 0, 64);
    cache.read(version1, CachePolicy.MEMORY_AND_DISK, fileFetcher);
    cache.read(version2, CachePolicy.MEMORY_AND_DISK, fileFetcher);
    assertThat(fetches).hasValue(2);
    cache.read(version1, CachePolicy.MEMORY_AND_DISK, fileFetcher);
    cache.read(version2, CachePolicy.MEMORY_AND_DISK, fileFetcher);
    assertThat(fetches).hasValue(2);
  }

  @Test
  void fetcherReturningTheWrongLengthIsRefused() throws IOException {
    TieredCache cache = open(1 << 20, 1 << 20);
    CacheKey key = range(0, 100);
    assertThatThrownBy(() -> cache.read(key, CachePolicy.MEMORY_AND_DISK, k -> new byte[99]))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "Cannot cache "
                + key
                + ": the fetcher returned 99 bytes but the range is 100 bytes (the object may have"
                + " changed since it was listed; re-read its size and ETag)");
    assertThat(cache.memoryTier().entryCount()).isZero();
    assertThat(cache.diskTier().entryCount()).isZero();
    assertThat(cache.stats().overall().loadFailureCount()).isEqualTo(1);
  }

  @Test
  void asyncPrefetchRunsOnTheExecutorAndWarmsTheCache() throws Exception {
    TieredCache cache = open(1 << 20, 1 << 20);
    CacheKey key = range(64, 8192);
    AtomicLong fetchThread = new AtomicLong(-1);
    Fetcher recordingThread =
        k -> {
          fetchThread.set(Thread.currentThread().threadId());
          return readFromFile(k);
        };
    ByteBuffer prefetched =
        cache.readAsync(key, CachePolicy.MEMORY_AND_DISK, recordingThread).get(30, SECONDS);
    assertThat(bytesOf(prefetched)).isEqualTo(expected(key));
    assertThat(fetchThread.get()).isNotEqualTo(Thread.currentThread().threadId());

    assertThat(bytesOf(cache.read(key, CachePolicy.MEMORY_AND_DISK, recordingThread)))
        .isEqualTo(expected(key));
    CompletableFuture<ByteBuffer> hit =
        cache.readAsync(key, CachePolicy.MEMORY_ONLY, recordingThread);
    assertThat(hit).isCompleted();
    assertThat(fetches).hasValue(1);
  }

  @Test
  void asyncFailureCompletesTheFutureAndIsNotCached() throws IOException {
    TieredCache cache = open(1 << 20, 1 << 20);
    CacheKey key = range(0, 10);
    IOException failure =
        new IOException("Cannot read " + key + ": access denied (check the IAM role)");
    CompletableFuture<ByteBuffer> result =
        cache.readAsync(
            key,
            CachePolicy.MEMORY_AND_DISK,
            k -> {
              throw failure;
            });
    assertThatThrownBy(() -> result.get(30, SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isSameAs(failure);
    assertThat(bytesOf(cache.read(key, CachePolicy.MEMORY_AND_DISK, fileFetcher)))
        .isEqualTo(expected(key));
    assertThat(fetches).hasValue(1);
  }

  @Test
  void fetchLatencyIsMeasuredWithTheInjectedTicker() throws IOException {
    AtomicLong nanos = new AtomicLong();
    TieredCache cache = open(1 << 20, 1 << 20, nanos::get);
    CacheKey key = range(0, 10);
    cache.read(
        key,
        CachePolicy.DISK_ONLY,
        k -> {
          nanos.addAndGet(7_000_000);
          return readFromFile(k);
        });
    assertThat(cache.stats().overall().totalLoadNanos()).isEqualTo(7_000_000);
    assertThat(cache.stats().overall().averageLoadNanos()).isEqualTo(7_000_000.0);
    assertThat(cache.stats().disk().stats().totalLoadNanos()).isEqualTo(7_000_000);
  }

  @Test
  void boundsHoldUnderConcurrentLoad() throws Exception {
    long memoryBound = 64 << 10;
    long diskBound = 128 << 10;
    TieredCache cache = open(memoryBound, diskBound);
    List<CacheKey> keys = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      keys.add(range(i * 4096L, 1024 + (i % 4) * 1024));
    }
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> results = new ArrayList<>();
      for (int thread = 0; thread < 4; thread++) {
        int seed = thread;
        results.add(
            threads.submit(
                () -> {
                  start.await();
                  SplittableRandom random = new SplittableRandom(seed);
                  CachePolicy[] policies = CachePolicy.values();
                  for (int i = 0; i < 400; i++) {
                    CacheKey key = keys.get(random.nextInt(keys.size()));
                    CachePolicy policy = policies[random.nextInt(policies.length)];
                    ByteBuffer bytes =
                        random.nextBoolean()
                            ? cache.read(key, policy, fileFetcher)
                            : cache.readAsync(key, policy, fileFetcher).get();
                    assertThat(bytesOf(bytes)).isEqualTo(expected(key));
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> result : results) {
        result.get();
      }
    } finally {
      threads.shutdownNow();
    }
    cache.cleanUp();

    TieredCacheStats stats = cache.stats();
    assertThat(stats.memory().weightedSize()).isLessThanOrEqualTo(memoryBound);
    assertThat(stats.disk().weightedSize()).isLessThanOrEqualTo(diskBound);
    long fileBytes = 0;
    for (Path file : entryFiles()) {
      fileBytes += Files.size(file);
    }
    assertThat(fileBytes).isEqualTo(stats.disk().weightedSize());
    assertThat(entryFiles()).hasSize((int) stats.disk().entryCount());
    assertThat(stats.memory().stats().evictionCount()).isPositive();
    assertThat(stats.disk().stats().evictionCount()).isPositive();
    assertThat(stats.overall().requestCount()).isEqualTo(1600);
    assertThat(stats.overall().loadSuccessCount()).isEqualTo(fetches.get());
  }

  @Test
  void restartServesFromDiskWithoutFetching() throws IOException {
    TieredCache cache = open(1 << 20, 1 << 20);
    List<CacheKey> keys = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      keys.add(range(i * 10_000L, 3000));
      cache.read(keys.get(i), CachePolicy.MEMORY_AND_DISK, fileFetcher);
    }
    cache.close();
    opened.remove(cache);

    TieredCache reopened = open(1 << 20, 1 << 20);
    for (CacheKey key : keys) {
      assertThat(bytesOf(reopened.read(key, CachePolicy.MEMORY_AND_DISK, fileFetcher)))
          .isEqualTo(expected(key));
    }
    assertThat(fetches).hasValue(10);
    assertThat(reopened.stats().disk().stats().hitCount()).isEqualTo(10);
  }

  @Test
  void corruptDiskEntryIsRefetchedNeverReturned() throws IOException {
    TieredCache cache = open(1 << 20, 1 << 20);
    CacheKey key = range(2048, 4096);
    cache.read(key, CachePolicy.DISK_ONLY, fileFetcher);
    Path file = entryFiles().getFirst();
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length - 100] ^= 1;
    Files.write(file, bytes);

    assertThat(bytesOf(cache.read(key, CachePolicy.DISK_ONLY, fileFetcher)))
        .isEqualTo(expected(key));
    assertThat(fetches).hasValue(2);
    assertThat(cache.stats().disk().stats().corruptionCount()).isEqualTo(1);
    // Re-fetched bytes were stored again, intact.
    assertThat(bytesOf(cache.read(key, CachePolicy.DISK_ONLY, fileFetcher)))
        .isEqualTo(expected(key));
    assertThat(fetches).hasValue(2);
    assertThat(cache.stats().disk().stats().hitCount()).isEqualTo(1);
  }

  @Test
  void secondCacheOnTheSameDirectoryIsRefused() throws IOException {
    open(1 << 20, 1 << 20);
    assertThatThrownBy(() -> open(1 << 20, 1 << 20))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("Cannot open disk cache " + cacheDirectory.toAbsolutePath())
        .hasMessageContaining("it is already open in this process");
  }

  @Test
  void withoutConfiguredTiersEveryReadFetches() throws IOException {
    CacheConfig config =
        CacheConfig.builder()
            .memoryMaxSize(DataSize.ofBytes(0))
            .diskMaxSize(DataSize.ofBytes(0))
            .build(temp);
    TieredCache cache = TieredCache.open(config, executor, Ticker.systemTicker());
    opened.add(cache);
    CacheKey key = range(0, 16);
    cache.read(key, CachePolicy.MEMORY_AND_DISK, fileFetcher);
    cache.read(key, CachePolicy.MEMORY_AND_DISK, fileFetcher);
    assertThat(fetches).hasValue(2);
    assertThat(cache.stats().memory().maximumWeight()).isZero();
    assertThat(cache.stats().disk().maximumWeight()).isZero();
    assertThat(temp.resolve("cache")).doesNotExist();
  }

  @Test
  void closedCacheRefusesReads() throws IOException {
    TieredCache cache = open(1 << 20, 1 << 20);
    cache.close();
    opened.remove(cache);
    CacheKey key = range(0, 1);
    assertThatThrownBy(() -> cache.read(key, CachePolicy.MEMORY_ONLY, fileFetcher))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot read " + key + " through the cache: it is closed");
  }
}
