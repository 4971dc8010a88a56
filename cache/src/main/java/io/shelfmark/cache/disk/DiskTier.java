package io.shelfmark.cache.disk;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.shelfmark.cache.key.CacheKey;
import io.shelfmark.cache.spi.CacheTier;
import io.shelfmark.cache.stats.StatsCounter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The disk tier: one checksummed file per entry in a directory (NVMe on servers), bounded by bytes,
 * surviving restarts.
 *
 * <pre>
 * directory/
 *   cache.lock                 exclusive lock while open; holds the owner's process id
 *   entries/
 *     3f/
 *       3fa94c...e1            one entry (32 hex digits: see {@link DiskEntryCodec})
 *       3fa94c...e1.123.tmp    an entry being written; renamed into place when complete
 * </pre>
 *
 * <p>Index and eviction: a Caffeine cache maps entry names to their file sizes, bounded by {@link
 * #maximumWeight()} bytes of files (header and key included). Its W-TinyLFU policy decides
 * evictions (a new entry must be used more often than the one it would displace, so a one-off scan
 * does not flush hot segments), and its eviction listener deletes the evicted file. Every change to
 * one name, including that deletion, runs inside Caffeine's per-key atomic section, so a delete can
 * never remove a file that a concurrent store has just renamed into place.
 *
 * <p>Writes are atomic: the entry is written to a temporary file beside its final name and renamed
 * over it; a crash leaves at most a {@code .tmp} file, deleted at the next open. Files are not
 * fsynced: after a power loss an entry may be truncated or zero-filled, and the checksums catch it.
 *
 * <p>Restart: {@link #open} rebuilds the index from the directory listing, oldest file first,
 * without reading the files (so opening a large cache is quick); each entry is fully verified when
 * read. The restart forgets access frequencies. If the files exceed a smaller new bound, the excess
 * is evicted (deleted) by the first maintenance.
 *
 * <p>Reads verify everything (see {@link DiskEntryCodec}): a corrupt or truncated file is deleted,
 * counted ({@link StatsCounter#recordCorruption()}) and reported as a miss, so the range is fetched
 * again; corrupt bytes are never returned.
 *
 * <p>Thread safety: safe for concurrent use within one process; {@link CacheDirectoryLock} keeps
 * other processes out of the directory.
 */
public final class DiskTier implements CacheTier {
  private static final Logger log = LoggerFactory.getLogger(DiskTier.class);

  static final String ENTRIES_DIRECTORY = "entries";
  static final String TEMP_SUFFIX = ".tmp";

  private final Path directory;
  private final Path entries;
  private final long maximumBytes;
  private final StatsCounter stats;
  private final CacheDirectoryLock lock;
  private final Cache<String, DiskEntry> index;
  private final AtomicLong generations = new AtomicLong();
  private volatile boolean closed;

  /**
   * One indexed file. Identity matters: a drop removes the index entry only if it is still the one
   * the reader saw, not a newer write of the same name, so the generation keeps instances distinct.
   */
  private record DiskEntry(long generation, int weight) {}

  private DiskTier(
      Path directory,
      long maximumBytes,
      Executor executor,
      StatsCounter stats,
      CacheDirectoryLock lock) {
    this.directory = directory;
    this.entries = directory.resolve(ENTRIES_DIRECTORY);
    this.maximumBytes = maximumBytes;
    this.stats = stats;
    this.lock = lock;
    this.index =
        Caffeine.newBuilder()
            .maximumWeight(maximumBytes)
            .weigher((String name, DiskEntry entry) -> entry.weight())
            .executor(executor)
            .evictionListener(this::onEviction)
            .build();
  }

  /**
   * Opens (creating if needed) the cache in {@code directory}, locks it and indexes the entries a
   * previous run left.
   *
   * @param maximumBytes the bound on the entry files' total size; positive
   * @param executor runs Caffeine's maintenance, and with it evictions and their file deletions
   * @param stats receives this tier's events
   * @throws IOException when the directory cannot be created or read, or another cache holds it
   */
  public static DiskTier open(
      Path directory, long maximumBytes, Executor executor, StatsCounter stats) throws IOException {
    requireNonNull(directory, "directory is null");
    requireNonNull(executor, "executor is null");
    requireNonNull(stats, "stats is null");
    if (maximumBytes <= 0) {
      throw new IllegalArgumentException(
          "Cannot open disk cache "
              + directory
              + ": maximum size must be positive but is "
              + maximumBytes
              + " bytes (disable the tier instead)");
    }
    Path absolute = directory.toAbsolutePath().normalize();
    Files.createDirectories(absolute);
    CacheDirectoryLock lock = CacheDirectoryLock.acquire(absolute);
    try {
      Files.createDirectories(absolute.resolve(ENTRIES_DIRECTORY));
      DiskTier tier = new DiskTier(absolute, maximumBytes, executor, stats, lock);
      tier.recover();
      return tier;
    } catch (IOException | RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  /** The cache directory, absolute. */
  public Path directory() {
    return directory;
  }

  @Override
  public String name() {
    return "disk";
  }

  @Override
  public Optional<byte[]> get(CacheKey key) {
    return read(key, true);
  }

  @Override
  public Optional<byte[]> getQuietly(CacheKey key) {
    return read(key, false);
  }

  private Optional<byte[]> read(CacheKey key, boolean record) {
    requireNonNull(key, "key is null");
    checkOpen(key);
    byte[] keyBytes = DiskEntryCodec.encodeKey(key);
    String name = DiskEntryCodec.entryName(keyBytes);
    DiskEntry entry = record ? index.getIfPresent(name) : index.policy().getIfPresentQuietly(name);
    if (entry != null) {
      Path file = entryPath(name);
      try {
        byte[] payload = DiskEntryCodec.read(file, keyBytes, key.length());
        if (record) {
          stats.recordHit(payload.length);
        }
        return Optional.of(payload);
      } catch (NoSuchFileException e) {
        // Evicted between the lookup and the open, or deleted behind the cache's back.
        index.asMap().remove(name, entry);
      } catch (CorruptCacheEntryException e) {
        stats.recordCorruption();
        log.warn("{}", e.getMessage());
        drop(name, entry);
      } catch (IOException e) {
        stats.recordIoError();
        log.warn(
            "Cannot read disk cache entry {} for {}: {} (fetching it instead)",
            file,
            key,
            e.toString());
        drop(name, entry);
      }
    }
    if (record) {
      stats.recordMiss();
    }
    return Optional.empty();
  }

  @Override
  public void put(CacheKey key, byte[] bytes) {
    requireNonNull(key, "key is null");
    requireNonNull(bytes, "bytes is null");
    checkOpen(key);
    byte[] keyBytes = DiskEntryCodec.encodeKey(key);
    long size = DiskEntryCodec.entrySize(keyBytes.length, bytes.length);
    if (size > maximumBytes || size > Integer.MAX_VALUE) {
      log.debug("Not caching {} on disk: {} bytes exceed the tier's bound", key, size);
      return;
    }
    String name = DiskEntryCodec.entryName(keyBytes);
    Path target = entryPath(name);
    Path temp = null;
    try {
      Files.createDirectories(target.getParent());
      temp = Files.createTempFile(target.getParent(), name + ".", TEMP_SUFFIX);
      DiskEntryCodec.write(temp, keyBytes, bytes);
      DiskEntry entry = new DiskEntry(generations.incrementAndGet(), (int) size);
      Path written = temp;
      // The rename happens inside the index's atomic section for this name, so it cannot
      // interleave with the eviction (and file deletion) of an older entry under the same name.
      index.asMap().compute(name, (ignored, previous) -> moveIntoPlace(written, target, entry));
      temp = null;
      stats.recordStore(size);
    } catch (IOException | UncheckedIOException e) {
      stats.recordIoError();
      log.warn(
          "Cannot write disk cache entry for {} in {}: {} (the range stays uncached; check free"
              + " space and permissions)",
          key,
          directory,
          e.toString());
    } finally {
      if (temp != null) {
        deleteQuietly(temp);
      }
    }
  }

  private static DiskEntry moveIntoPlace(Path temp, Path target, DiskEntry entry) {
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return entry;
    } catch (AtomicMoveNotSupportedException e) {
      throw new UncheckedIOException(
          new IOException(
              "Cannot rename disk cache entry into place in "
                  + target.getParent()
                  + ": the file"
                  + " system does not support atomic rename (use a local file system)",
              e));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void invalidate(CacheKey key) {
    requireNonNull(key, "key is null");
    drop(DiskEntryCodec.entryName(DiskEntryCodec.encodeKey(key)));
  }

  /** Removes the entry {@code name} and its file, if present. */
  private void drop(String name) {
    index
        .asMap()
        .computeIfPresent(
            name,
            (ignored, entry) -> {
              deleteQuietly(entryPath(name));
              return null;
            });
  }

  /** Removes {@code entry} and its file, unless a newer write has replaced it meanwhile. */
  private void drop(String name, DiskEntry entry) {
    index
        .asMap()
        .computeIfPresent(
            name,
            (ignored, current) -> {
              if (current != entry) {
                return current;
              }
              deleteQuietly(entryPath(name));
              return null;
            });
  }

  /** Called by Caffeine inside the eviction's atomic section for {@code name}. */
  private void onEviction(String name, DiskEntry entry, RemovalCause cause) {
    if (entry == null) {
      return;
    }
    deleteQuietly(entryPath(name));
    stats.recordEviction(entry.weight());
  }

  private void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // The index no longer counts the file, so it would occupy disk outside the bound until the
      // next restart rescans the directory: count and report it.
      stats.recordIoError();
      log.warn(
          "Cannot delete disk cache file {}: {} (it is retried at the next open)",
          file,
          e.toString());
    }
  }

  Path entryPath(String name) {
    return entries.resolve(name.substring(0, 2)).resolve(name);
  }

  /** Rebuilds the index from the files a previous run left; deletes unfinished writes. */
  private void recover() throws IOException {
    DiskTierRecovery.Result result = DiskTierRecovery.scan(entries);
    for (Path temp : result.unfinished()) {
      deleteQuietly(temp);
    }
    for (Path truncated : result.truncated()) {
      stats.recordCorruption();
      deleteQuietly(truncated);
    }
    for (DiskTierRecovery.Found found : result.entries()) {
      index.put(found.name(), new DiskEntry(generations.incrementAndGet(), found.size()));
    }
    index.cleanUp();
    log.info(
        "Opened disk cache {}: {} entries, {} of {} bytes",
        directory,
        index.estimatedSize(),
        weightedSize(),
        maximumBytes);
  }

  @Override
  public void invalidateAll() {
    for (String name : List.copyOf(index.asMap().keySet())) {
      drop(name);
    }
  }

  @Override
  public long weightedSize() {
    return index.policy().eviction().orElseThrow().weightedSize().orElse(0);
  }

  @Override
  public long maximumWeight() {
    return maximumBytes;
  }

  @Override
  public long entryCount() {
    return index.estimatedSize();
  }

  @Override
  public void cleanUp() {
    index.cleanUp();
  }

  @Override
  public StatsCounter statsCounter() {
    return stats;
  }

  /** Finishes pending evictions and releases the directory; the files stay for the next open. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    index.cleanUp();
    lock.close();
  }

  private void checkOpen(CacheKey key) {
    if (closed) {
      throw new IllegalStateException(
          "Cannot use disk cache " + directory + " for " + key + ": it is closed");
    }
  }

  @Override
  public String toString() {
    return "DiskTier[" + directory + ", " + weightedSize() + "/" + maximumBytes + " bytes]";
  }
}
