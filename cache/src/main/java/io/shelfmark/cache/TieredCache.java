package io.shelfmark.cache;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Ticker;
import io.shelfmark.cache.disk.DiskTier;
import io.shelfmark.cache.key.CacheKey;
import io.shelfmark.cache.memory.MemoryTier;
import io.shelfmark.cache.spi.CacheTier;
import io.shelfmark.cache.stats.StatsCounter;
import io.shelfmark.cache.stats.TierStats;
import io.shelfmark.cache.stats.TieredCacheStats;
import io.shelfmark.config.cluster.CacheConfig;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The byte-range cache readers use: a memory tier over a disk tier over the object store, with
 * concurrent misses of the same range fetched once.
 *
 * <pre>
 * read(key, policy, fetcher)
 *   memory ──hit──► bytes                                   (policy uses memory)
 *     │ miss
 *   in flight for key? ──yes──► wait for that fetch, share its bytes or its failure
 *     │ no: this request leads
 *   disk ──hit──► copy into memory ──► bytes                (policy uses disk)
 *     │ miss
 *   fetcher.fetch(key) ──► disk, memory (per policy) ──► bytes, and to every waiter
 * </pre>
 *
 * <p>Single flight: while one request fetches a range, later requests for the same key wait for its
 * result instead of fetching. A failed fetch is not cached: every waiter receives the same
 * exception, and the next request fetches again. A waiter whose policy names a tier the leader's
 * did not stores the bytes there itself.
 *
 * <p>Returned buffers are read-only views of shared arrays: independent positions, no copying, and
 * no way for one reader to corrupt what another reads.
 *
 * <p>Thread safety: safe for concurrent use. {@link #read} runs entirely on the calling thread;
 * {@link #readAsync} runs the fetch on the executor given at construction, so callers can prefetch.
 *
 * <p>Lifecycle: usable when constructed, until {@link #close()}, which closes both tiers.
 */
public final class TieredCache implements Closeable {
  private static final Logger log = LoggerFactory.getLogger(TieredCache.class);

  private final CacheTier memory;
  private final CacheTier disk;
  private final Executor executor;
  private final Ticker ticker;
  private final StatsCounter stats;
  private final ConcurrentHashMap<CacheKey, Flight> inFlight = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /** A fetch in progress: its result, and the policy of the request that started it. */
  private record Flight(CompletableFuture<byte[]> result, CachePolicy policy) {
    Flight(CachePolicy policy) {
      this(new CompletableFuture<>(), policy);
    }
  }

  /**
   * @param memory the memory tier, or {@link CacheTier#disabled(String)}
   * @param disk the disk tier, or {@link CacheTier#disabled(String)}
   * @param executor runs the fetches of {@link #readAsync}
   * @param ticker measures fetch latency
   * @param stats receives the requests and fetches of the cache as a whole
   */
  public TieredCache(
      CacheTier memory, CacheTier disk, Executor executor, Ticker ticker, StatsCounter stats) {
    this.memory = requireNonNull(memory, "memory is null");
    this.disk = requireNonNull(disk, "disk is null");
    this.executor = requireNonNull(executor, "executor is null");
    this.ticker = requireNonNull(ticker, "ticker is null");
    this.stats = requireNonNull(stats, "stats is null");
  }

  /**
   * Builds the tiers {@code config} describes, with statistics enabled: a zero {@code
   * cache.memory.max-size} or {@code cache.disk.max-size} leaves that tier out; otherwise the disk
   * tier's directory is created if needed, locked and indexed.
   *
   * @param executor runs asynchronous fetches and the tiers' maintenance (evictions)
   * @param ticker measures fetch latency; {@link Ticker#systemTicker()} in production
   * @throws IOException when the disk directory cannot be opened or another cache holds it
   */
  public static TieredCache open(CacheConfig config, Executor executor, Ticker ticker)
      throws IOException {
    requireNonNull(config, "config is null");
    requireNonNull(executor, "executor is null");
    requireNonNull(ticker, "ticker is null");
    long memoryBytes = config.memoryMaxSize().bytes();
    long diskBytes = config.diskMaxSize().bytes();
    CacheTier memory =
        memoryBytes == 0
            ? CacheTier.disabled("memory")
            : new MemoryTier(memoryBytes, executor, StatsCounter.concurrent());
    CacheTier disk =
        diskBytes == 0
            ? CacheTier.disabled("disk")
            : DiskTier.open(config.diskDirectory(), diskBytes, executor, StatsCounter.concurrent());
    return new TieredCache(memory, disk, executor, ticker, StatsCounter.concurrent());
  }

  /**
   * Returns the bytes of {@code key}'s range from the first tier of {@code policy} that holds them,
   * or fetches them with {@code fetcher} and stores them in the policy's tiers.
   *
   * @return a read-only buffer positioned at 0 with {@code key.length()} bytes remaining
   * @throws IOException what the fetcher threw (its own or a concurrent request's fetch of the same
   *     key), or {@link InterruptedIOException} when interrupted while waiting for another
   *     request's fetch
   */
  public ByteBuffer read(CacheKey key, CachePolicy policy, Fetcher fetcher) throws IOException {
    return read(key, policy, fetcher, ReadSource.Listener.NONE);
  }

  /**
   * As {@link #read(CacheKey, CachePolicy, Fetcher)}, telling {@code listener} where the bytes came
   * from (once, on the caller's thread, when the read succeeds): so a caller can attribute hits per
   * tier to one query, which the cache's shared statistics cannot.
   */
  public ByteBuffer read(
      CacheKey key, CachePolicy policy, Fetcher fetcher, ReadSource.Listener listener)
      throws IOException {
    checkArguments(key, policy, fetcher);
    requireNonNull(listener, "listener is null");
    Optional<byte[]> cached = lookupMemory(key, policy);
    if (cached.isPresent()) {
      listener.answered(ReadSource.MEMORY);
      return view(cached.get());
    }
    Flight flight = new Flight(policy);
    Flight running = inFlight.putIfAbsent(key, flight);
    if (running != null) {
      byte[] shared = await(key, running, policy);
      listener.answered(ReadSource.IN_FLIGHT);
      return view(shared);
    }
    ReadSource[] source = new ReadSource[1];
    byte[] bytes = lead(key, flight, fetcher, source);
    listener.answered(source[0]);
    return view(bytes);
  }

  /**
   * Like {@link #read}, but a fetch (and the disk lookup before it) runs on the executor. A memory
   * hit completes the future at once. Cancelling the returned future does not cancel a fetch that
   * other requests share.
   */
  public CompletableFuture<ByteBuffer> readAsync(
      CacheKey key, CachePolicy policy, Fetcher fetcher) {
    checkArguments(key, policy, fetcher);
    Optional<byte[]> cached = lookupMemory(key, policy);
    if (cached.isPresent()) {
      return CompletableFuture.completedFuture(view(cached.get()));
    }
    Flight flight = new Flight(policy);
    Flight running = inFlight.putIfAbsent(key, flight);
    if (running != null) {
      stats.recordCoalesced();
      return running
          .result()
          .thenApply(
              bytes -> {
                storeInTiersLeaderSkipped(key, running.policy(), policy, bytes);
                return view(bytes);
              });
    }
    try {
      executor.execute(() -> leadInBackground(key, flight, fetcher));
    } catch (RejectedExecutionException e) {
      inFlight.remove(key, flight);
      flight.result().completeExceptionally(e);
    }
    return flight.result().thenApply(TieredCache::view);
  }

  /** Removes {@code key} from both tiers (for example after learning its object was deleted). */
  public void invalidate(CacheKey key) {
    requireNonNull(key, "key is null");
    memory.invalidate(key);
    disk.invalidate(key);
  }

  /**
   * Empties both tiers (a node's warm-up does, so its first user query finds empty caches). Reads
   * in flight may still store their pages afterwards.
   */
  public void invalidateAll() {
    memory.invalidateAll();
    disk.invalidateAll();
  }

  /** Runs both tiers' pending maintenance now; afterwards each is within its bound. */
  public void cleanUp() {
    memory.cleanUp();
    disk.cleanUp();
  }

  public CacheTier memoryTier() {
    return memory;
  }

  public CacheTier diskTier() {
    return disk;
  }

  /** A consistent-enough reading of every counter and gauge, for query statistics and metrics. */
  public TieredCacheStats stats() {
    return new TieredCacheStats(stats.snapshot(), tierStats(memory), tierStats(disk));
  }

  private static TierStats tierStats(CacheTier tier) {
    return new TierStats(
        tier.name(), tier.stats(), tier.weightedSize(), tier.maximumWeight(), tier.entryCount());
  }

  /** Closes both tiers. Fetches in flight complete, but their results are no longer stored. */
  @Override
  public void close() throws IOException {
    closed = true;
    try {
      memory.close();
    } finally {
      disk.close();
    }
  }

  private void checkArguments(CacheKey key, CachePolicy policy, Fetcher fetcher) {
    requireNonNull(key, "key is null");
    requireNonNull(policy, "policy is null");
    requireNonNull(fetcher, "fetcher is null");
    if (closed) {
      throw new IllegalStateException("Cannot read " + key + " through the cache: it is closed");
    }
  }

  private Optional<byte[]> lookupMemory(CacheKey key, CachePolicy policy) {
    if (!policy.usesMemory()) {
      return Optional.empty();
    }
    Optional<byte[]> hit = memory.get(key);
    if (hit.isPresent()) {
      stats.recordHit(hit.get().length);
    }
    return hit;
  }

  /**
   * Loads {@code key} for every request waiting on {@code flight}.
   *
   * <p>The flight is unregistered before its result is published. Otherwise a request arriving
   * between the two would join a flight that has already failed and receive a failure that is no
   * longer current, which amounts to caching it. On success nothing is lost: the tiers already hold
   * the bytes when the flight is unregistered, so a request arriving then finds them there.
   */
  private byte[] lead(CacheKey key, Flight flight, Fetcher fetcher) throws IOException {
    return lead(key, flight, fetcher, new ReadSource[1]);
  }

  private byte[] lead(CacheKey key, Flight flight, Fetcher fetcher, ReadSource[] source)
      throws IOException {
    byte[] bytes;
    try {
      bytes = load(key, flight.policy(), fetcher, source);
    } catch (Throwable failure) {
      inFlight.remove(key, flight);
      flight.result().completeExceptionally(failure);
      throw failure;
    }
    inFlight.remove(key, flight);
    flight.result().complete(bytes);
    return bytes;
  }

  private void leadInBackground(CacheKey key, Flight flight, Fetcher fetcher) {
    try {
      lead(key, flight, fetcher);
    } catch (Throwable failure) {
      // Already delivered to every caller through the flight's future; nothing is lost here.
      log.debug("Asynchronous fetch of {} failed: {}", key, failure.toString());
    }
  }

  private byte[] await(CacheKey key, Flight flight, CachePolicy policy) throws IOException {
    stats.recordCoalesced();
    byte[] bytes;
    try {
      bytes = flight.result().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted =
          new InterruptedIOException(
              "Cannot read " + key + ": interrupted while waiting for a concurrent fetch of it");
      interrupted.initCause(e);
      throw interrupted;
    } catch (ExecutionException e) {
      throw rethrow(e.getCause());
    }
    storeInTiersLeaderSkipped(key, flight.policy(), policy, bytes);
    return bytes;
  }

  /**
   * Rethrows the leader's failure as is, so every waiter sees the same exception type and message
   * (a missing object stays an {@code ObjectNotFoundException}).
   */
  private static IOException rethrow(Throwable failure) {
    if (failure instanceof IOException io) {
      return io;
    }
    if (failure instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (failure instanceof Error error) {
      throw error;
    }
    // Fetchers throw only IOException or unchecked exceptions; keep the cause if one slips through.
    return new IOException("Cannot read through the cache: the fetch failed: " + failure, failure);
  }

  private void storeInTiersLeaderSkipped(
      CacheKey key, CachePolicy leader, CachePolicy waiter, byte[] bytes) {
    if (closed) {
      return;
    }
    if (waiter.usesDisk() && !leader.usesDisk()) {
      disk.put(key, bytes);
    }
    if (waiter.usesMemory() && !leader.usesMemory()) {
      memory.put(key, bytes);
    }
  }

  private byte[] load(CacheKey key, CachePolicy policy, Fetcher fetcher, ReadSource[] source)
      throws IOException {
    long start = ticker.read();
    if (policy.usesMemory()) {
      // A request that finished between our memory lookup and our registration as leader has
      // filled the memory tier and left: look again (quietly: our miss is already counted).
      Optional<byte[]> filled = memory.getQuietly(key);
      if (filled.isPresent()) {
        stats.recordHit(filled.get().length);
        source[0] = ReadSource.MEMORY;
        return filled.get();
      }
    }
    if (policy.usesDisk()) {
      Optional<byte[]> fromDisk = disk.get(key);
      if (fromDisk.isPresent()) {
        byte[] bytes = fromDisk.get();
        if (policy.usesMemory() && !closed) {
          memory.put(key, bytes);
          memory.statsCounter().recordLoadSuccess(bytes.length, ticker.read() - start);
        }
        stats.recordHit(bytes.length);
        source[0] = ReadSource.DISK;
        return bytes;
      }
    }
    stats.recordMiss();
    source[0] = ReadSource.FETCH;
    byte[] bytes = fetch(key, policy, fetcher, start);
    if (!closed) {
      if (policy.usesDisk()) {
        disk.put(key, bytes);
      }
      if (policy.usesMemory()) {
        memory.put(key, bytes);
      }
    }
    return bytes;
  }

  private byte[] fetch(CacheKey key, CachePolicy policy, Fetcher fetcher, long start)
      throws IOException {
    long fetchStart = ticker.read();
    byte[] bytes;
    try {
      bytes = fetcher.fetch(key);
      checkFetched(key, bytes);
    } catch (Throwable failure) {
      long end = ticker.read();
      stats.recordLoadFailure(end - fetchStart);
      if (policy.usesDisk()) {
        disk.statsCounter().recordLoadFailure(end - fetchStart);
      }
      if (policy.usesMemory()) {
        memory.statsCounter().recordLoadFailure(end - start);
      }
      throw failure;
    }
    long end = ticker.read();
    stats.recordLoadSuccess(bytes.length, end - fetchStart);
    if (policy.usesDisk()) {
      disk.statsCounter().recordLoadSuccess(bytes.length, end - fetchStart);
    }
    if (policy.usesMemory()) {
      memory.statsCounter().recordLoadSuccess(bytes.length, end - start);
    }
    return bytes;
  }

  private static void checkFetched(CacheKey key, byte[] bytes) throws IOException {
    if (bytes == null) {
      throw new IOException("Cannot cache " + key + ": the fetcher returned no bytes");
    }
    if (bytes.length != key.length()) {
      throw new IOException(
          "Cannot cache %s: the fetcher returned %d bytes but the range is %d bytes (the object may have changed since it was listed; re-read its size and ETag)"
              .formatted(key, bytes.length, key.length()));
    }
  }

  private static ByteBuffer view(byte[] bytes) {
    return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
  }

  @Override
  public String toString() {
    return "TieredCache[" + memory + ", " + disk + "]";
  }
}
