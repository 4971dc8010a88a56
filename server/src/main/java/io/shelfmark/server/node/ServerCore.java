package io.shelfmark.server.node;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Ticker;
import io.shelfmark.cache.TieredCache;
import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.parquet.decode.DecodedDictionaries;
import io.shelfmark.parquet.decode.DecompressedPages;
import io.shelfmark.parquet.decode.MemoryDecodedDictionaries;
import io.shelfmark.parquet.decode.MemoryDecompressedPages;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.segment.read.BitmapCache;
import io.shelfmark.server.delete.DeletedRowsLoader;
import io.shelfmark.server.local.LocalServer;
import io.shelfmark.server.local.ServedSegments;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The server's engine as a process holds it, whatever reaches it: the served segments (pinned or
 * remote) and the tiered cache, the page and posting-list caches, the deleted-rows loader, the
 * {@link LocalServer} over them, and the executors its queries' file work runs on. The all-in-one
 * node calls it in process; a server node puts it behind Arrow Flight.
 */
public final class ServerCore implements AutoCloseable {
  /** Memory for deleted-row bitmaps read from delete files, shared by every table. */
  private static final long DELETES_CACHE_BYTES = 256L << 20;

  private final List<AutoCloseable> resources;
  private final LocalServer server;
  private final TieredCache cache;
  private final BitmapCache postingLists;
  private final DecompressedPages keptPages;
  private final DecodedDictionaries dictionaries;
  private final ExecutorService cheapWork;
  private final ExecutorService heavyWork;
  private final ExecutorService io;

  private ServerCore(
      List<AutoCloseable> resources,
      LocalServer server,
      TieredCache cache,
      BitmapCache postingLists,
      DecompressedPages keptPages,
      DecodedDictionaries dictionaries,
      ExecutorService cheapWork,
      ExecutorService heavyWork,
      ExecutorService io) {
    this.resources = resources;
    this.dictionaries = dictionaries;
    this.server = server;
    this.cache = cache;
    this.postingLists = postingLists;
    this.keptPages = keptPages;
    this.cheapWork = cheapWork;
    this.heavyWork = heavyWork;
    this.io = io;
  }

  /**
   * @param config the process's cluster config: segment store, segment mode, cache, data dir
   * @param dataStore reads the tables' data files (and the segment store when it is in S3)
   * @param segmentStore where segments are read or pinned from
   * @param indexes the index types segments may hold
   */
  public static ServerCore start(
      ClusterConfig config, ObjectStore dataStore, SegmentStore segmentStore, IndexService indexes)
      throws IOException {
    requireNonNull(config, "config is null");
    List<AutoCloseable> resources = new ArrayList<>();
    try {
      Path dataDir = config.dataDir().toAbsolutePath();
      int cores = Runtime.getRuntime().availableProcessors();
      ExecutorService io = Executors.newVirtualThreadPerTaskExecutor();
      resources.add(io::shutdownNow);
      TieredCache cache = TieredCache.open(config.cache(), io, Ticker.systemTicker());
      resources.add(cache);
      BitmapCache postingLists = BitmapCache.bounded(config.cache().postingListsMaxSize().bytes());
      ServedSegments segments =
          new ServedSegments(
              segmentStore,
              config.segmentMode(),
              dataDir.resolve("segments"),
              cache,
              indexes,
              postingLists);
      resources.add(segments);
      boolean pageCache = config.cache().diskMaxSize().bytes() > 0;
      // Virtual threads: a file's work waits for its pages (a round trip to S3) between bursts of
      // decoding, and a waiting virtual thread leaves its carrier to another file, so waits do not
      // cap the queries in flight; the carriers (one per core) still bound the CPU used at once.
      ExecutorService cheapWork =
          Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("query-file-", 0).factory());
      resources.add(cheapWork::shutdownNow);
      // Heavy queries' file work runs on a few platform threads of its own, which the OS
      // time-slices with the virtual threads' carriers: on the carriers (one per core) a few
      // CPU-bound scans held every one, and a 2 ms index-only count waited up to 11 s behind them.
      // Half the cores: heavy queries then use at most that much CPU, whatever their number, and
      // cheap ones keep the rest. A bounded pool is safe here: file work hands row groups to the
      // executor only as help, and does them itself when the help has not started.
      ExecutorService heavyWork =
          Executors.newFixedThreadPool(
              Math.max(1, cores / 2),
              Thread.ofPlatform().name("query-heavy-", 0).daemon(true).factory());
      resources.add(heavyWork::shutdownNow);
      DeletedRowsLoader deletes = new DeletedRowsLoader(dataStore, io, DELETES_CACHE_BYTES);
      DecompressedPages keptPages = keptPages(config.cache(), pageCache);
      DecodedDictionaries dictionaries = dictionaries(config.cache());
      LocalServer server =
          new LocalServer(
              dataStore,
              pageCache ? Optional.of(cache) : Optional.empty(),
              keptPages,
              dictionaries,
              segments,
              deletes::deletedPositions,
              cheapWork,
              io);
      server.readRequestCost(config.query().readRequestCost());
      return new ServerCore(
          resources,
          server,
          cache,
          postingLists,
          keptPages,
          dictionaries,
          cheapWork,
          heavyWork,
          io);
    } catch (IOException | RuntimeException e) {
      NodeResources.closeAll(resources);
      throw e;
    }
  }

  /** Decompressed pages are kept only beside a page cache, whose pages they save decompressing. */
  private static DecompressedPages keptPages(CacheConfig cache, boolean pageCache) {
    return pageCache && cache.decompressedMaxSize().bytes() > 0
        ? new MemoryDecompressedPages(cache.decompressedMaxSize())
        : DecompressedPages.NONE;
  }

  /**
   * Decoded dictionaries are kept in every segment mode: a pinned segment's kept dictionary page
   * would otherwise be decompressed and decoded by every query that reads its chunk.
   */
  private static DecodedDictionaries dictionaries(CacheConfig cache) {
    return cache.dictionariesMaxSize().bytes() > 0
        ? new MemoryDecodedDictionaries(cache.dictionariesMaxSize())
        : DecodedDictionaries.NONE;
  }

  public LocalServer server() {
    return server;
  }

  /** The page and segment cache (memory over disk). */
  public TieredCache cache() {
    return cache;
  }

  public BitmapCache postingLists() {
    return postingLists;
  }

  /** Decompressed data pages kept in memory ({@link DecompressedPages#NONE} without a cache). */
  public DecompressedPages keptPages() {
    return keptPages;
  }

  /** Runs cheap queries' file work (virtual threads). */
  public ExecutorService cheapWork() {
    return cheapWork;
  }

  /** Runs heavy queries' file work (half the cores' platform threads). */
  public ExecutorService heavyWork() {
    return heavyWork;
  }

  /** Runs blocking reads (virtual threads). */
  public ExecutorService io() {
    return io;
  }

  /** Empties every cache: after a warm-up, so that measurements start cold. */
  public void invalidateCaches() {
    cache.invalidateAll();
    keptPages.invalidateAll();
    dictionaries.invalidateAll();
    postingLists.invalidateAll();
  }

  /**
   * The bytes the caches hold now: pages (memory and disk), decompressed pages, decoded
   * dictionaries, posting lists.
   */
  public long cachedBytes() {
    cache.cleanUp();
    return cache.memoryTier().weightedSize()
        + cache.diskTier().weightedSize()
        + postingLists.stats().bytes()
        + (keptPages instanceof MemoryDecompressedPages kept ? kept.keptBytes() : 0)
        + (dictionaries instanceof MemoryDecodedDictionaries kept ? kept.keptBytes() : 0);
  }

  @Override
  public void close() {
    NodeResources.closeAll(resources);
  }
}
