package io.shelfmark.cache.disk;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.cache.key.CacheKey;
import io.shelfmark.cache.key.ObjectIdentity;
import io.shelfmark.cache.stats.CacheStats;
import io.shelfmark.cache.stats.StatsCounter;
import io.shelfmark.storage.spi.Location;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TestDiskTier {
  private static final ObjectIdentity SEGMENT =
      ObjectIdentity.versioned(
          Location.parse("s3://lake/_shelfmark/t/seg-1.smk"), 1L << 30, "\"e1\"");

  @TempDir Path directory;

  private final StatsCounter stats = StatsCounter.concurrent();

  private DiskTier open(long maximumBytes) throws IOException {
    return DiskTier.open(directory, maximumBytes, Runnable::run, stats);
  }

  private static CacheKey key(long offset, int length) {
    return CacheKey.of(SEGMENT, offset, length);
  }

  /** Content that differs per key, so a mix-up between entries would show. */
  private static byte[] content(CacheKey key) {
    byte[] bytes = new byte[key.length()];
    SplittableRandom random = new SplittableRandom(key.offset() * 31 + key.length());
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) random.nextInt(256);
    }
    return bytes;
  }

  private Path fileOf(CacheKey key) {
    String name = DiskEntryCodec.entryName(DiskEntryCodec.encodeKey(key));
    return directory.resolve("entries").resolve(name.substring(0, 2)).resolve(name);
  }

  private List<Path> filesUnderEntries() throws IOException {
    try (Stream<Path> files = Files.walk(directory.resolve("entries"))) {
      return files.filter(Files::isRegularFile).toList();
    }
  }

  private long totalFileBytes() throws IOException {
    long total = 0;
    for (Path file : filesUnderEntries()) {
      total += Files.size(file);
    }
    return total;
  }

  @Test
  void storesAndFindsRanges() throws IOException {
    try (DiskTier tier = open(1 << 20)) {
      CacheKey key = key(4096, 100);
      assertThat(tier.get(key)).isEmpty();
      tier.put(key, content(key));
      assertThat(tier.get(key))
          .hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(content(key)));
      assertThat(tier.getQuietly(key)).isPresent();
      // Should miss: same range of a rewritten segment (new ETag).
      CacheKey rewritten =
          CacheKey.of(
              ObjectIdentity.versioned(SEGMENT.location(), SEGMENT.size(), "\"e2\""), 4096, 100);
      assertThat(tier.get(rewritten)).isEmpty();

      long fileSize = Files.size(fileOf(key));
      assertThat(tier.weightedSize()).isEqualTo(fileSize);
      assertThat(filesUnderEntries()).containsExactly(fileOf(key));
      assertThat(stats.snapshot())
          .isEqualTo(new CacheStats(1, 2, 0, 100, 1, fileSize, 0, 0, 0, 0, 0, 0, 0, 0));
    }
  }

  @Test
  void restartRebuildsTheIndexFromTheDirectory() throws IOException {
    List<CacheKey> keys = new ArrayList<>();
    try (DiskTier tier = open(1 << 20)) {
      for (int i = 0; i < 20; i++) {
        CacheKey key = key(i * 10_000L, 500 + i);
        tier.put(key, content(key));
        keys.add(key);
      }
    }
    try (DiskTier reopened = open(1 << 20)) {
      assertThat(reopened.entryCount()).isEqualTo(20);
      assertThat(reopened.weightedSize()).isEqualTo(totalFileBytes());
      for (CacheKey key : keys) {
        assertThat(reopened.get(key))
            .hasValueSatisfying(bytes -> assertThat(bytes).isEqualTo(content(key)));
      }
    }
  }

  @Test
  void reopeningWithASmallerBoundEvictsTheExcess() throws IOException {
    try (DiskTier tier = open(1 << 20)) {
      for (int i = 0; i < 20; i++) {
        CacheKey key = key(i * 10_000L, 1_000);
        tier.put(key, content(key));
      }
    }
    long smaller = 5 * Files.size(fileOf(key(0, 1_000)));
    try (DiskTier reopened = open(smaller)) {
      assertThat(reopened.weightedSize()).isLessThanOrEqualTo(smaller);
      assertThat(totalFileBytes()).isEqualTo(reopened.weightedSize());
      assertThat(filesUnderEntries()).hasSize((int) reopened.entryCount());
    }
  }

  @Test
  void openCleansUpWhatACrashLeft() throws IOException {
    Path shard = directory.resolve("entries").resolve("ab");
    Files.createDirectories(shard);
    Path unfinished = Files.write(shard.resolve("ab" + "0".repeat(30) + ".77.tmp"), new byte[100]);
    Path shortFile = Files.write(shard.resolve("ab" + "1".repeat(30)), new byte[5]);
    Path foreign = Files.writeString(shard.resolve("notes.txt"), "not a cache file", UTF_8);
    try (DiskTier tier = open(1 << 20)) {
      assertThat(unfinished).doesNotExist();
      assertThat(shortFile).doesNotExist();
      // Should keep: files the cache did not write are not its to delete.
      assertThat(foreign).exists();
      assertThat(tier.entryCount()).isZero();
      assertThat(stats.snapshot().corruptionCount()).isEqualTo(1);
    }
  }

  /** Ways an entry file can be damaged; each must be detected on read. */
  enum Damage {
    FLIP_PAYLOAD_BYTE,
    FLIP_KEY_BYTE,
    FLIP_MAGIC,
    FLIP_LENGTH_FIELD,
    TRUNCATE_ONE_BYTE,
    TRUNCATE_TO_HEADER,
    APPEND_ONE_BYTE,
    EMPTY,
    OTHER_ENTRY
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void damagedEntryIsDroppedNeverReturned(Damage damage) throws IOException {
    CacheKey key = key(8192, 256);
    CacheKey other = key(0, 256);
    try (DiskTier tier = open(1 << 20)) {
      tier.put(key, content(key));
      tier.put(other, content(other));
      Path file = fileOf(key);
      byte[] bytes = Files.readAllBytes(file);
      byte[] damaged =
          switch (damage) {
            case FLIP_PAYLOAD_BYTE -> flip(bytes, bytes.length - 10);
            case FLIP_KEY_BYTE -> flip(bytes, DiskEntryCodec.HEADER_SIZE + 3);
            case FLIP_MAGIC -> flip(bytes, 0);
            case FLIP_LENGTH_FIELD -> flip(bytes, 13);
            case TRUNCATE_ONE_BYTE -> Arrays.copyOf(bytes, bytes.length - 1);
            case TRUNCATE_TO_HEADER -> Arrays.copyOf(bytes, DiskEntryCodec.HEADER_SIZE);
            case APPEND_ONE_BYTE -> Arrays.copyOf(bytes, bytes.length + 1);
            case EMPTY -> new byte[0];
            case OTHER_ENTRY -> Files.readAllBytes(fileOf(other));
          };
      Files.write(file, damaged);

      assertThat(tier.get(key)).isEmpty();
      assertThat(stats.snapshot().corruptionCount()).isEqualTo(1);
      assertThat(file).doesNotExist();
      assertThat(tier.entryCount()).isEqualTo(1);
      // The undamaged neighbour is untouched, and the range can be stored again.
      assertThat(tier.get(other)).hasValueSatisfying(b -> assertThat(b).isEqualTo(content(other)));
      tier.put(key, content(key));
      assertThat(tier.get(key)).hasValueSatisfying(b -> assertThat(b).isEqualTo(content(key)));
    }
  }

  private static byte[] flip(byte[] bytes, int index) {
    byte[] copy = bytes.clone();
    copy[index] ^= 0x5A;
    return copy;
  }

  @Test
  void entryDeletedBehindTheCachesBackIsAMiss() throws IOException {
    CacheKey key = key(0, 64);
    try (DiskTier tier = open(1 << 20)) {
      tier.put(key, content(key));
      Files.delete(fileOf(key));
      assertThat(tier.get(key)).isEmpty();
      assertThat(tier.entryCount()).isZero();
      assertThat(stats.snapshot().corruptionCount()).isZero();
    }
  }

  @Test
  void evictsByBytesKeepingFrequentlyReadEntries() throws IOException {
    CacheKey hot = key(0, 1_000);
    // Every key here has the same key length, so every entry file has the same size.
    long entryBytes = DiskEntryCodec.entrySize(DiskEntryCodec.encodeKey(hot).length, 1_000);
    long bound = 20 * entryBytes;
    try (DiskTier tier = open(bound)) {
      // Fill the tier so that its frequency sketch is active, then make one entry hot.
      for (int i = 1; i <= 20; i++) {
        CacheKey key = key(i * 100_000L, 1_000);
        tier.put(key, content(key));
      }
      tier.put(hot, content(hot));
      for (int i = 0; i < 20; i++) {
        assertThat(tier.get(hot)).isPresent();
        tier.cleanUp();
      }
      // A scan of 200 entries written once each must not push the hot one out (a plain LRU would:
      // the hot entry was last used before the scan began).
      for (int i = 0; i < 200; i++) {
        CacheKey key = key(100_000_000L + i * 100_000L, 1_000);
        tier.put(key, content(key));
      }
      tier.cleanUp();

      assertThat(tier.get(hot)).hasValueSatisfying(b -> assertThat(b).isEqualTo(content(hot)));
      assertThat(tier.weightedSize()).isLessThanOrEqualTo(bound);
      // Evicted entries' files are gone: the directory holds exactly what the index counts.
      assertThat(filesUnderEntries()).hasSize((int) tier.entryCount());
      assertThat(totalFileBytes()).isEqualTo(tier.weightedSize());
      CacheStats counted = stats.snapshot();
      assertThat(counted.evictionCount()).isEqualTo(221 - tier.entryCount());
      assertThat(counted.bytesStored() - counted.evictedBytes()).isEqualTo(tier.weightedSize());
    }
  }

  @Test
  void byteBoundHoldsUnderConcurrentWrites() throws Exception {
    long bound = 200 << 10;
    ExecutorService maintenance = Executors.newSingleThreadExecutor();
    ExecutorService writers = Executors.newFixedThreadPool(4);
    try (DiskTier tier = DiskTier.open(directory, bound, maintenance, stats)) {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> results = new ArrayList<>();
      for (int thread = 0; thread < 4; thread++) {
        int seed = thread;
        results.add(
            writers.submit(
                () -> {
                  start.await();
                  SplittableRandom random = new SplittableRandom(seed);
                  for (int i = 0; i < 150; i++) {
                    // A shared key space, so threads also overwrite and read each other's entries.
                    CacheKey key =
                        key(random.nextInt(200) * 100_000L, 1_000 + random.nextInt(4) * 1_000);
                    if (random.nextBoolean()) {
                      tier.put(key, content(key));
                    } else {
                      tier.get(key).ifPresent(bytes -> assertThat(bytes).isEqualTo(content(key)));
                    }
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> result : results) {
        result.get();
      }
      maintenance.shutdown();
      assertThat(maintenance.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      tier.cleanUp();

      assertThat(tier.weightedSize()).isLessThanOrEqualTo(bound);
      assertThat(totalFileBytes()).isEqualTo(tier.weightedSize());
      assertThat(filesUnderEntries()).hasSize((int) tier.entryCount());
      assertThat(stats.snapshot().evictionCount()).isPositive();
      assertThat(stats.snapshot().corruptionCount()).isZero();
      assertThat(stats.snapshot().ioErrorCount()).isZero();
    } finally {
      writers.shutdownNow();
      maintenance.shutdownNow();
    }
  }

  @Test
  void declinesEntryLargerThanTheWholeBound() throws IOException {
    try (DiskTier tier = open(1_000)) {
      CacheKey big = key(0, 2_000);
      tier.put(big, content(big));
      assertThat(tier.entryCount()).isZero();
      assertThat(filesUnderEntries()).isEmpty();
    }
  }

  @Test
  void invalidateDeletesTheFile() throws IOException {
    try (DiskTier tier = open(1 << 20)) {
      CacheKey key = key(0, 10);
      tier.put(key, content(key));
      tier.invalidate(key);
      assertThat(fileOf(key)).doesNotExist();
      assertThat(tier.get(key)).isEmpty();
      assertThat(stats.snapshot().evictionCount()).isZero();
    }
  }

  @Test
  void secondOpenInTheSameProcessIsRefused() throws IOException {
    try (DiskTier tier = open(1 << 20)) {
      assertThatThrownBy(() -> open(1 << 20))
          .isInstanceOf(IOException.class)
          .hasMessage(
              "Cannot open disk cache "
                  + tier.directory()
                  + ": it is already open in this process (close the other cache first, or give"
                  + " each cache its own directory)");
    }
    // Closing released the lock.
    open(1 << 20).close();
  }

  @Test
  void anotherProcessIsRefused() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process holder =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                DiskTierLockHolder.class.getName(),
                directory.toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      BufferedReader output =
          new BufferedReader(new InputStreamReader(holder.getInputStream(), UTF_8));
      assertThat(output.readLine()).startsWith("locked ");
      Path absolute = directory.toAbsolutePath().normalize();
      assertThatThrownBy(() -> open(1 << 20))
          .isInstanceOf(IOException.class)
          .hasMessage(
              "Cannot open disk cache "
                  + absolute
                  + ": another process holds its lock "
                  + absolute.resolve("cache.lock")
                  + " (held by process "
                  + holder.pid()
                  + ") (give each process its own cache directory, or stop the other process)");
      holder.getOutputStream().close();
      assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(holder.exitValue()).isZero();
      open(1 << 20).close();
    } finally {
      holder.destroyForcibly();
    }
  }

  @Test
  void closedTierRefusesUse() throws IOException {
    DiskTier tier = open(1 << 20);
    tier.close();
    tier.close();
    assertThatThrownBy(() -> tier.get(key(0, 1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot use disk cache "
                + tier.directory()
                + " for s3://lake/_shelfmark/t/seg-1.smk@\"e1\" (1073741824 bytes)[0, 1): it is"
                + " closed");
  }

  @Test
  void rejectsNonPositiveBound() {
    assertThatThrownBy(() -> open(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot open disk cache "
                + directory
                + ": maximum size must be positive but is 0 bytes (disable the tier instead)");
  }
}
