package io.shelfmark.server.local;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cache.CachePolicy;
import io.shelfmark.cache.CachingObjectStore;
import io.shelfmark.cache.ReadSource;
import io.shelfmark.cache.TieredCache;
import io.shelfmark.cache.key.ObjectIdentity;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.exchange.error.UnsupportedQueryException;
import io.shelfmark.exchange.fragment.QueryLimits;
import io.shelfmark.exchange.profile.FileProfile;
import io.shelfmark.exchange.profile.ProfileMode;
import io.shelfmark.exchange.result.PartialResult;
import io.shelfmark.exchange.result.RowSink;
import io.shelfmark.parquet.decode.DecodedDictionaries;
import io.shelfmark.parquet.decode.DecompressedPages;
import io.shelfmark.parquet.read.ReaderOptions;
import io.shelfmark.segment.metadata.DataFileIdentity;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.server.exec.ExecutionContext;
import io.shelfmark.server.exec.FileProfiles;
import io.shelfmark.server.exec.FileTask;
import io.shelfmark.server.exec.QueryExecutor;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.storage.counting.CountingObjectStore;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.Schema;
import org.roaringbitmap.RoaringBitmap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server role inside one process: holds, per served table, what queries over its snapshot need
 * — each live data file with its open segment (if usable) and its deleted rows, read once per
 * snapshot — and executes plans over chosen files. Each query reads Parquet through its own
 * counting view of the data store (behind the shared page cache when there is one), so its storage
 * figures are its own even while other queries run.
 *
 * <p>Thread safe: {@link #serve} replaces a table's files whole; a query uses the files it found
 * when it started.
 */
public final class LocalServer {
  private static final Logger log = LoggerFactory.getLogger(LocalServer.class);

  /**
   * Query reads merge nearby ranges only across small gaps: a selective query needs a few pages of
   * each column, and merging across the default 1 MiB would read the other columns' pages in
   * between (Q3 read 3.8 times its lower bound). The extra ranges go out in the same parallel wave,
   * so they add requests, not round trips.
   *
   * <p>A merged read is split into GETs of at most 2 MiB: every request costs CPU on both ends
   * (signing, the SDK's pipeline, the server's) and money on S3, while one round trip is paid
   * however the bytes are split. With 512 KiB parts Q2 made 7 GETs and used about 85% of both cores
   * at 20 QPS; with 2 MiB parts (one per row group) 2 GETs and 54%, its latency unchanged within
   * noise (the bench's loopback store has no bandwidth limit; a slow link favours smaller parts,
   * and AWS suggests 8-16 MB ranges for throughput).
   */
  static final ReaderOptions QUERY_READS =
      ReaderOptions.builder()
          .maxMergeDistance(DataSize.of(64, DataSize.Unit.KIBIBYTE))
          .maxBufferSize(DataSize.of(2, DataSize.Unit.MEBIBYTE))
          .build();

  private final ObjectStore dataStore;
  // Query reads: QUERY_READS with the configured request cost (query.read-request-cost).
  private volatile ReaderOptions queryReads = QUERY_READS;
  private final Optional<TieredCache> pageCache;
  private final ServedSegments segments;
  private final DeletedRowsSource deletes;
  private final Executor fileExecutor;
  private final Executor ioExecutor;
  private final QueryExecutor queryExecutor;
  private final Map<String, ServedSnapshot> tables = new ConcurrentHashMap<>();
  // The snapshot served before the current one, for queries routed just before a switch.
  private final Map<String, ServedSnapshot> previousSnapshots = new ConcurrentHashMap<>();
  // Older snapshots asked for by time-travel queries, the least recently used dropped first.
  private final Map<PastKey, ServedSnapshot> pastSnapshots =
      java.util.Collections.synchronizedMap(
          new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<PastKey, ServedSnapshot> eldest) {
              return size() > MAX_PAST_SNAPSHOTS;
            }
          });

  /**
   * How many past snapshots are kept served at once (over all tables): each holds its files'
   * deleted rows and keeps their segments open.
   */
  public static final int MAX_PAST_SNAPSHOTS = 8;

  private record PastKey(String table, long snapshotId) {}

  /**
   * @param dataStore where the tables' Parquet files are read from
   * @param pageCache when present, Parquet pages are cached in it (memory and disk)
   * @param segments the open segments
   * @param deletes reads each data file's deleted rows
   * @param fileExecutor runs per-file work: bursts of decoding between waits for pages, so virtual
   *     threads (the all-in-one node's choice) or a pool of about one thread per core
   * @param ioExecutor runs ranged GETs (they block: unbounded, e.g. virtual threads)
   */
  public LocalServer(
      ObjectStore dataStore,
      Optional<TieredCache> pageCache,
      ServedSegments segments,
      DeletedRowsSource deletes,
      Executor fileExecutor,
      Executor ioExecutor) {
    this(
        dataStore,
        pageCache,
        DecompressedPages.NONE,
        DecodedDictionaries.NONE,
        segments,
        deletes,
        fileExecutor,
        ioExecutor);
  }

  /**
   * As {@link #LocalServer(ObjectStore, Optional, ServedSegments, DeletedRowsSource, Executor,
   * Executor)}, keeping decompressed data pages in {@code keptPages} (with a page cache: a page
   * read again from the cache skips its decompression too) and decoded dictionary pages in {@code
   * dictionaries}.
   */
  public LocalServer(
      ObjectStore dataStore,
      Optional<TieredCache> pageCache,
      DecompressedPages keptPages,
      DecodedDictionaries dictionaries,
      ServedSegments segments,
      DeletedRowsSource deletes,
      Executor fileExecutor,
      Executor ioExecutor) {
    this.dataStore = requireNonNull(dataStore, "dataStore is null");
    this.pageCache = requireNonNull(pageCache, "pageCache is null");
    this.segments = requireNonNull(segments, "segments is null");
    this.deletes = requireNonNull(deletes, "deletes is null");
    this.fileExecutor = requireNonNull(fileExecutor, "fileExecutor is null");
    this.ioExecutor = requireNonNull(ioExecutor, "ioExecutor is null");
    this.queryExecutor =
        new QueryExecutor(
            Runtime.getRuntime().availableProcessors(),
            requireNonNull(keptPages, "keptPages is null"),
            requireNonNull(dictionaries, "dictionaries is null"));
  }

  /**
   * The files of one snapshot as this server holds them, and why the ready segments it could not
   * use were left out (by data file path).
   */
  private record ServedSnapshot(
      long snapshotId,
      Schema schema,
      Map<String, LoadedFile> files,
      Map<String, String> unusable) {}

  /**
   * How the ready segments of a served table fared on this server.
   *
   * @param repaired segments whose local copy was found damaged and downloaded again intact
   * @param unusable why each ready segment this server could not use was left out, by data file
   *     path (those files are read directly, so answers stay complete)
   */
  public record SegmentHealth(long repaired, Map<String, String> unusable) {
    public static final SegmentHealth NONE = new SegmentHealth(0, Map.of());

    public SegmentHealth {
      unusable = Map.copyOf(requireNonNull(unusable, "unusable is null"));
    }
  }

  /** How the ready segments of {@code table}'s served snapshot fared; NONE when not served. */
  public SegmentHealth segmentHealth(String table) {
    ServedSnapshot served = tables.get(table);
    if (served == null) {
      return SegmentHealth.NONE;
    }
    long repaired = 0;
    for (LoadedFile file : served.files().values()) {
      if (file.segmentLocation().isPresent()
          && segments.wasRepaired(file.segmentLocation().get())) {
        repaired++;
      }
    }
    return new SegmentHealth(repaired, served.unusable());
  }

  /**
   * Serves {@code snapshot} of {@code table}: opens the ready segments not yet open and, for a new
   * snapshot, reads the deleted rows of every data file. A segment that cannot be opened or that
   * belongs to another file is left out (its file is read directly) and logged.
   *
   * @param schema the table's schema at that snapshot (columns map to Parquet fields by id)
   * @param ready the ready segment of each data file that has one, by data file path
   * @return the open segment of each data file that has a usable one
   */
  public synchronized Map<String, Segment> serve(
      String table, Schema schema, TableSnapshot snapshot, Map<String, SegmentRef> ready) {
    requireNonNull(table, "table is null");
    requireNonNull(schema, "schema is null");
    requireNonNull(snapshot, "snapshot is null");
    requireNonNull(ready, "ready is null");
    long snapshotId = snapshot.snapshotId().orElse(-1);
    ServedSnapshot previous = tables.get(table);
    boolean sameSnapshot = previous != null && previous.snapshotId() == snapshotId;
    Map<String, LoadedFile> files = new LinkedHashMap<>();
    Map<String, Segment> opened = new HashMap<>();
    Map<String, String> unusable = new HashMap<>();
    for (DataFileInfo file : snapshot.dataFiles()) {
      SegmentRef ref = ready.get(file.path());
      Optional<Segment> segment = open(file, ref, unusable);
      segment.ifPresent(s -> opened.put(file.path(), s));
      Optional<Location> location =
          segment.isPresent() ? Optional.of(ref.location()) : Optional.empty();
      LoadedFile earlier = sameSnapshot ? previous.files().get(file.path()) : null;
      files.put(
          file.path(),
          earlier != null
              ? new LoadedFile(
                  file, segment, location, earlier.deletedPositions(), earlier.deletesRefusal())
              : loadDeletes(file, snapshot, segment, location));
    }
    ServedSnapshot replaced =
        tables.put(
            table, new ServedSnapshot(snapshotId, schema, Map.copyOf(files), Map.copyOf(unusable)));
    if (replaced != null && replaced.snapshotId() != snapshotId) {
      previousSnapshots.put(table, replaced);
    }
    retainOpenSegments();
    return opened;
  }

  /**
   * Serves {@code snapshot}, an older snapshot of {@code table} than the served one, for
   * time-travel queries beside it: each of its data files with the ready segment given for it (when
   * the segment opens and describes that very file; else the file is read directly) and the deleted
   * rows of that snapshot, read now. The {@link #MAX_PAST_SNAPSHOTS} most recently served past
   * snapshots are kept; {@link #execute} finds them by snapshot id as it finds the served one.
   *
   * @param schema the schema queries over it are planned with (columns map to Parquet fields by id)
   * @param ready the ready segment of each data file that has one, by data file path
   * @return the open segment of each data file that has a usable one
   */
  public synchronized Map<String, Segment> servePast(
      String table, Schema schema, TableSnapshot snapshot, Map<String, SegmentRef> ready) {
    requireNonNull(table, "table is null");
    requireNonNull(schema, "schema is null");
    requireNonNull(ready, "ready is null");
    long snapshotId =
        snapshot
            .snapshotId()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "Cannot serve a past snapshot of " + table + ": it has no id"));
    Map<String, LoadedFile> files = new LinkedHashMap<>();
    Map<String, Segment> opened = new HashMap<>();
    Map<String, String> unusable = new HashMap<>();
    for (DataFileInfo file : snapshot.dataFiles()) {
      SegmentRef ref = ready.get(file.path());
      Optional<Segment> segment = open(file, ref, unusable);
      segment.ifPresent(s -> opened.put(file.path(), s));
      Optional<Location> location =
          segment.isPresent() ? Optional.of(ref.location()) : Optional.empty();
      files.put(file.path(), loadDeletes(file, snapshot, segment, location));
    }
    pastSnapshots.put(
        new PastKey(table, snapshotId),
        new ServedSnapshot(snapshotId, schema, Map.copyOf(files), Map.copyOf(unusable)));
    retainOpenSegments();
    return opened;
  }

  /** Whether {@code snapshotId} of {@code table} is served as a past snapshot now. */
  public boolean servesPast(String table, long snapshotId) {
    return pastSnapshots.containsKey(new PastKey(table, snapshotId));
  }

  /** Stops serving a table. */
  public synchronized void drop(String table) {
    tables.remove(table);
    previousSnapshots.remove(table);
    synchronized (pastSnapshots) {
      pastSnapshots.keySet().removeIf(key -> key.table().equals(table));
    }
    retainOpenSegments();
  }

  /** Segments of the snapshots this server serves now (the console's nodes page shows them). */
  public long segmentsServed() {
    long count = 0;
    for (ServedSnapshot snapshot : tables.values()) {
      for (LoadedFile file : snapshot.files().values()) {
        count += file.segment().isPresent() ? 1 : 0;
      }
    }
    return count;
  }

  private void retainOpenSegments() {
    Set<Location> live = new HashSet<>();
    List<ServedSnapshot> all = new ArrayList<>(tables.values());
    all.addAll(previousSnapshots.values());
    synchronized (pastSnapshots) {
      all.addAll(pastSnapshots.values());
    }
    for (ServedSnapshot snapshot : all) {
      for (LoadedFile file : snapshot.files().values()) {
        file.segmentLocation().ifPresent(live::add);
      }
    }
    segments.retainOnly(live);
  }

  private Optional<Segment> open(DataFileInfo file, SegmentRef ref, Map<String, String> unusable) {
    if (ref == null) {
      return Optional.empty();
    }
    try {
      Segment segment = segments.segment(ref.location(), ref.sizeInBytes());
      List<io.shelfmark.segment.metadata.DataFileEntry> entries = segment.metadata().files();
      DataFileIdentity identity = entries.size() == 1 ? entries.getFirst().identity() : null;
      if (identity == null
          || !identity.path().equals(file.path())
          || identity.fileSize() != file.fileSizeInBytes()
          || identity.recordCount() != file.recordCount()) {
        log.warn(
            "Not using segment {} for {}: it describes {} (the file will be read directly)",
            ref.location(),
            file.path(),
            identity == null ? entries.size() + " files" : identity.path());
        unusable.put(
            file.path(),
            "segment %s describes %s, not this file (the file is read directly)"
                .formatted(
                    ref.location(),
                    identity == null ? entries.size() + " files" : identity.path()));
        return Optional.empty();
      }
      // Parsed now rather than by the first query over the file, which would wait for it.
      QueryExecutor.prepare(segment, file);
      return Optional.of(segment);
    } catch (IOException | RuntimeException e) {
      if (Interruptions.isInterruption(e)) {
        // The node is closing (or the open was cancelled): nothing is wrong with the segment, and
        // what follows is what followed before (the file is served without it).
        log.debug("Stopped opening segment {} of {}: interrupted", ref.location(), file.path(), e);
        return Optional.empty();
      }
      // The exception itself, not only its message: some (a NullPointerException) have none.
      log.warn(
          "Cannot open segment {} of {} (the file will be read directly): {}",
          ref.location(),
          file.path(),
          e.toString());
      log.debug("Cannot open segment {}", ref.location(), e);
      unusable.put(
          file.path(),
          (e.getMessage() == null ? e.toString() : e.getMessage())
              + " (the file is read directly)");
      return Optional.empty();
    }
  }

  private LoadedFile loadDeletes(
      DataFileInfo file,
      TableSnapshot snapshot,
      Optional<Segment> segment,
      Optional<Location> location) {
    if (file.deleteFiles().isEmpty()) {
      return new LoadedFile(file, segment, location, new RoaringBitmap(), Optional.empty());
    }
    try {
      RoaringBitmap deleted = deletes.deletedPositions(file, snapshot);
      return new LoadedFile(file, segment, location, deleted, Optional.empty());
    } catch (IOException | RuntimeException e) {
      // Refused per file, at query time: queries that prune this file away still work.
      log.warn("Cannot read the deletes of {}: {}", file.path(), e.getMessage());
      return new LoadedFile(
          file,
          segment,
          location,
          new RoaringBitmap(),
          Optional.of(e.getMessage() == null ? e.toString() : e.getMessage()));
    }
  }

  /** The snapshot {@code snapshotId} of {@code table} as served now or just before. */
  private ServedSnapshot served(String table, long snapshotId) {
    ServedSnapshot served = tables.get(table);
    if (served != null && served.snapshotId() != snapshotId) {
      ServedSnapshot previous = previousSnapshots.get(table);
      served = previous != null && previous.snapshotId() == snapshotId ? previous : served;
    }
    if (served != null && served.snapshotId() != snapshotId) {
      ServedSnapshot past = pastSnapshots.get(new PastKey(table, snapshotId));
      served = past != null ? past : served;
    }
    if (served == null || served.snapshotId() != snapshotId) {
      throw new NotServedException(
          "Cannot execute on %s at snapshot %d: this server serves %s (retry the query)"
              .formatted(
                  table,
                  snapshotId,
                  served == null ? "no snapshot of it" : "snapshot " + served.snapshotId()));
    }
    return served;
  }

  /**
   * The schema of snapshot {@code snapshotId} of {@code table} and its data files at {@code paths},
   * in that order: what a plan fragment, which names files by path, runs over.
   *
   * @throws NotServedException when this server does not serve that snapshot or one of the files
   */
  public ServedFiles resolve(String table, long snapshotId, List<String> paths) {
    requireNonNull(table, "table is null");
    requireNonNull(paths, "paths is null");
    ServedSnapshot served = served(table, snapshotId);
    List<DataFileInfo> files = new ArrayList<>(paths.size());
    for (String path : paths) {
      LoadedFile loaded = served.files().get(path);
      if (loaded == null) {
        throw new NotServedException(
            "Cannot execute on " + path + ": not a live file of snapshot " + snapshotId);
      }
      files.add(loaded.file());
    }
    return new ServedFiles(served.schema(), files);
  }

  /** A served snapshot's schema and some of its data files. */
  public record ServedFiles(Schema schema, List<DataFileInfo> files) {
    public ServedFiles {
      requireNonNull(schema, "schema is null");
      files = List.copyOf(requireNonNull(files, "files is null"));
    }
  }

  /**
   * A query's merged partial result and its own storage and cache figures: {@code cacheHits} counts
   * requests the page cache answered plus data pages decoded from bodies kept decompressed (which
   * skip the page cache); {@code cacheMisses} the requests it passed on to storage.
   */
  public record Execution(
      PartialResult partial,
      StorageStats.Snapshot storage,
      long cacheHits,
      long cacheMisses,
      List<FileProfile> profiles,
      long memoryHits,
      long diskHits) {
    public Execution {
      profiles = List.copyOf(requireNonNull(profiles, "profiles is null"));
    }
  }

  /**
   * Sets what one more ranged GET of Parquet bytes is worth to this server's queries ({@code
   * query.read-request-cost}): the reader fetches a partly selected column chunk's span whole when
   * its pages' requests cost more than the bytes they skip. Set once, when the node starts.
   */
  public LocalServer readRequestCost(DataSize cost) {
    queryReads = QUERY_READS.withRequestCost(cost);
    return this;
  }

  /**
   * Executes {@code plan} over {@code files} of the snapshot {@code snapshotId} of {@code table},
   * until {@code deadline} or until {@code cancelled} turns true.
   *
   * @throws UnsupportedQueryException when a file's deletes cannot be applied
   * @throws IllegalStateException when the server no longer serves that snapshot
   */
  public Execution execute(
      String table,
      long snapshotId,
      QueryPlan plan,
      List<DataFileInfo> files,
      Instant deadline,
      BooleanSupplier cancelled) {
    return execute(
        table, snapshotId, plan, files, deadline, cancelled, fileExecutor, QueryLimits.defaults());
  }

  /**
   * As {@link #execute(String, long, QueryPlan, List, Instant, BooleanSupplier)}, running the
   * files' work on {@code files} executor (the lane the broker admitted the query to: heavy queries
   * on platform threads, which the OS time-slices, so they cannot hold the virtual threads'
   * carriers that cheap queries run on) within {@code limits}.
   */
  public Execution execute(
      String table,
      long snapshotId,
      QueryPlan plan,
      List<DataFileInfo> files,
      Instant deadline,
      BooleanSupplier cancelled,
      Executor laneExecutor,
      QueryLimits limits) {
    return execute(
        table,
        snapshotId,
        plan,
        files,
        deadline,
        cancelled,
        laneExecutor,
        limits,
        Map.of(),
        ProfileMode.OFF);
  }

  /** As the query with options and a profile mode, recording no profile. */
  public Execution execute(
      String table,
      long snapshotId,
      QueryPlan plan,
      List<DataFileInfo> files,
      Instant deadline,
      BooleanSupplier cancelled,
      Executor laneExecutor,
      QueryLimits limits,
      Map<String, String> options) {
    return execute(
        table,
        snapshotId,
        plan,
        files,
        deadline,
        cancelled,
        laneExecutor,
        limits,
        options,
        ProfileMode.OFF);
  }

  /** As the query with options and a profile mode, without options. */
  public Execution execute(
      String table,
      long snapshotId,
      QueryPlan plan,
      List<DataFileInfo> files,
      Instant deadline,
      BooleanSupplier cancelled,
      Executor laneExecutor,
      QueryLimits limits,
      ProfileMode mode) {
    return execute(
        table, snapshotId, plan, files, deadline, cancelled, laneExecutor, limits, Map.of(), mode);
  }

  /**
   * As {@link #execute(String, long, QueryPlan, List, Instant, BooleanSupplier, Executor,
   * QueryLimits)}, with the statement's options by name ({@code useStarTree=false} answers every
   * file from its rows, to compare with star-tree answers), recording each file's profile under
   * {@code mode}: {@link ProfileMode#PLAN} evaluates the indexes and plans the pages without
   * reading any (EXPLAIN), {@link ProfileMode#ANALYZE} runs the query as usual (EXPLAIN ANALYZE).
   */
  public Execution execute(
      String table,
      long snapshotId,
      QueryPlan plan,
      List<DataFileInfo> files,
      Instant deadline,
      BooleanSupplier cancelled,
      Executor laneExecutor,
      QueryLimits limits,
      Map<String, String> options,
      ProfileMode mode) {
    return run(
        table,
        snapshotId,
        plan,
        files,
        deadline,
        cancelled,
        laneExecutor,
        limits,
        options,
        mode,
        Optional.empty());
  }

  /**
   * Executes a selection without ORDER BY as {@link #execute(String, long, QueryPlan, List,
   * Instant, BooleanSupplier, Executor, QueryLimits, Map)} does, handing its rows to {@code sink}
   * as they are read instead of keeping them: file after file on the calling thread, stalled
   * whenever the sink blocks. No row limit applies ({@code query.max-rows} bounds rows kept, and
   * these are not); the deadline and {@code cancelled} do. The execution's partial holds no rows.
   *
   * @throws IllegalArgumentException when the plan aggregates or orders its rows
   */
  public Execution stream(
      String table,
      long snapshotId,
      QueryPlan plan,
      List<DataFileInfo> files,
      Instant deadline,
      BooleanSupplier cancelled,
      Executor laneExecutor,
      QueryLimits limits,
      Map<String, String> options,
      RowSink sink) {
    requireNonNull(sink, "sink is null");
    return run(
        table,
        snapshotId,
        plan,
        files,
        deadline,
        cancelled,
        laneExecutor,
        limits,
        options,
        ProfileMode.OFF,
        Optional.of(sink));
  }

  private Execution run(
      String table,
      long snapshotId,
      QueryPlan plan,
      List<DataFileInfo> files,
      Instant deadline,
      BooleanSupplier cancelled,
      Executor laneExecutor,
      QueryLimits limits,
      Map<String, String> options,
      ProfileMode mode,
      Optional<RowSink> sink) {
    requireNonNull(laneExecutor, "laneExecutor is null");
    requireNonNull(options, "options is null");
    requireNonNull(mode, "mode is null");
    requireNonNull(limits, "limits is null");
    ServedSnapshot served = served(table, snapshotId);
    List<FileTask> tasks = new ArrayList<>(files.size());
    Map<Location, Long> sizes = new HashMap<>();
    for (DataFileInfo file : files) {
      LoadedFile loaded = served.files().get(file.path());
      if (loaded == null) {
        throw new NotServedException(
            "Cannot execute on " + file.path() + ": not a live file of snapshot " + snapshotId);
      }
      if (loaded.deletesRefusal().isPresent()) {
        throw new UnsupportedQueryException(
            "Cannot answer queries over "
                + file.path()
                + " correctly: "
                + loaded.deletesRefusal().get());
      }
      tasks.add(new FileTask(file, loaded.segment(), loaded.deletedPositions()));
      if (pageCache.isPresent()) {
        // Only the page cache needs them: parsing every file's location per query was a busy
        // node's third-largest garbage after the aggregators' arrays.
        sizes.put(Location.parse(file.path()), file.fileSizeInBytes());
      }
    }
    CountingObjectStore fromStorage = new CountingObjectStore(dataStore);
    ObjectStore reads = fromStorage;
    CountingObjectStore throughCache = null;
    TierHits tierHits = new TierHits();
    if (pageCache.isPresent()) {
      throughCache =
          new CountingObjectStore(
              new CachingObjectStore(
                  fromStorage,
                  pageCache.get(),
                  CachePolicy.MEMORY_AND_DISK,
                  location -> {
                    Long size = sizes.get(location);
                    if (size == null) {
                      throw new IOException(
                          "Cannot cache reads of " + location + ": not a file of this query");
                    }
                    return ObjectIdentity.immutable(location, size);
                  },
                  tierHits));
      reads = throughCache;
    }
    FileProfiles profiles = mode == ProfileMode.OFF ? FileProfiles.off() : new FileProfiles(mode);
    ExecutionContext context =
        new ExecutionContext(
            reads,
            laneExecutor,
            ioExecutor,
            served.schema(),
            deadline,
            cancelled,
            Clock.systemUTC(),
            ExecutionContext.readerOptions(queryReads, options),
            limits,
            profiles,
            ExecutionContext.useStarTrees(options),
            ExecutionContext.usePageStatistics(options));
    PartialResult partial =
        sink.isPresent()
            ? queryExecutor.stream(plan, tasks, context, sink.get())
            : queryExecutor.execute(plan, tasks, context);
    StorageStats.Snapshot storage = fromStorage.stats().snapshot();
    long requested = throughCache == null ? 0 : throughCache.stats().snapshot().getRequests();
    long misses = throughCache == null ? 0 : storage.getRequests();
    // Pages decoded from bodies kept decompressed never reached the page cache: hits all the same.
    long hits = Math.max(0, requested - misses) + partial.statistics().parquetPagesKept();
    List<FileProfile> recorded =
        profiles.enabled()
            ? profiles.inOrder(files.stream().map(DataFileInfo::path).toList())
            : List.of();
    return new Execution(
        partial, storage, hits, misses, recorded, tierHits.memory.get(), tierHits.disk.get());
  }

  /** One query's page-cache reads by the tier that answered them. */
  private static final class TierHits implements ReadSource.Listener {
    private final java.util.concurrent.atomic.AtomicLong memory =
        new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong disk =
        new java.util.concurrent.atomic.AtomicLong();

    @Override
    public void answered(ReadSource source) {
      switch (source) {
        case MEMORY, IN_FLIGHT -> memory.incrementAndGet();
        case DISK -> disk.incrementAndGet();
        case FETCH -> {}
      }
    }
  }
}
