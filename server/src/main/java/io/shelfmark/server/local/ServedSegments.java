package io.shelfmark.server.local;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cache.CachePolicy;
import io.shelfmark.cache.CachingObjectStore;
import io.shelfmark.cache.TieredCache;
import io.shelfmark.cache.key.ObjectIdentity;
import io.shelfmark.config.cluster.SegmentMode;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.segment.read.BitmapCache;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.source.ObjectStoreSegmentSource;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The segments a server has open, in its {@link SegmentMode}: pinned segments are downloaded once
 * into the pin directory and memory-mapped (an index lookup costs no request); remote segments are
 * read part by part from the segment store through the memory tier of the cache ("no local
 * storage"). Each segment is opened once and shared by every query until {@link #retainOnly} drops
 * it.
 *
 * <p>Segment locations are named after the data file and the segment spec, and a segment is written
 * whole once, so a location and size identify its bytes: cached parts need no ETag. Thread safe.
 */
public final class ServedSegments implements Closeable {
  private static final Logger log = LoggerFactory.getLogger(ServedSegments.class);

  private final SegmentStore store;
  private final SegmentMode mode;
  private final Path pinDirectory;
  private final IndexService indexes;
  private final ObjectStore remoteReads;
  private final BitmapCache bitmaps;
  private final Map<Location, Long> sizes = new ConcurrentHashMap<>();
  private final Map<Location, Segment> open = new ConcurrentHashMap<>();
  private final Map<Segment, Long> retired = new ConcurrentHashMap<>();
  private final Set<Location> repaired = ConcurrentHashMap.newKeySet();

  /** How long a dropped segment stays open for queries that started before it was dropped. */
  private static final long RETIRED_GRACE_NANOS = 10L * 60 * 1_000_000_000;

  /**
   * @param store where segments live
   * @param mode pinned or remote
   * @param pinDirectory where pinned segments are downloaded (unused in remote mode)
   * @param cache the server's cache; remote segment parts go through its memory tier
   * @param indexes the index types segments may use
   */
  public ServedSegments(
      SegmentStore store,
      SegmentMode mode,
      Path pinDirectory,
      TieredCache cache,
      IndexService indexes) {
    this(
        store,
        mode,
        pinDirectory,
        cache,
        indexes,
        BitmapCache.bounded(BitmapCache.DEFAULT_MAX_BYTES));
  }

  /**
   * @param store where segments live
   * @param mode pinned or remote
   * @param pinDirectory where pinned segments are downloaded (unused in remote mode)
   * @param cache the server's cache; remote segment parts go through its memory tier
   * @param indexes the index types segments may use
   * @param bitmaps where every served segment keeps the posting lists its queries decode
   */
  public ServedSegments(
      SegmentStore store,
      SegmentMode mode,
      Path pinDirectory,
      TieredCache cache,
      IndexService indexes,
      BitmapCache bitmaps) {
    this.bitmaps = requireNonNull(bitmaps, "bitmaps is null");
    this.store = requireNonNull(store, "store is null");
    this.mode = requireNonNull(mode, "mode is null");
    this.pinDirectory = requireNonNull(pinDirectory, "pinDirectory is null");
    this.indexes = requireNonNull(indexes, "indexes is null");
    requireNonNull(cache, "cache is null");
    this.remoteReads =
        new CachingObjectStore(
            store.objectStore(),
            cache,
            CachePolicy.MEMORY_ONLY,
            location -> {
              Long size = sizes.get(location);
              if (size == null) {
                throw new IOException(
                    "Cannot cache reads of " + location + ": not a served segment");
              }
              return ObjectIdentity.immutable(location, size);
            });
  }

  public SegmentMode mode() {
    return mode;
  }

  /**
   * The open segment at {@code location} of {@code size} bytes, opening (and in pinned mode first
   * downloading) it on first use.
   */
  public Segment segment(Location location, long size) throws IOException {
    Segment segment = open.get(location);
    if (segment != null) {
      return segment;
    }
    synchronized (this) {
      segment = open.get(location);
      if (segment == null) {
        segment = openSegment(location, size);
        open.put(location, segment);
      }
      return segment;
    }
  }

  private Segment openSegment(Location location, long size) throws IOException {
    sizes.put(location, size);
    return switch (mode) {
      case PINNED -> openPinned(location, size);
      case REMOTE ->
          Segment.open(new ObjectStoreSegmentSource(remoteReads, location, size), indexes, bitmaps);
    };
  }

  /**
   * Opens the local copy of a pinned segment with every part checked. A local copy is the one that
   * can rot (a disk error, a process writing over it) while the segment store keeps the copy the
   * builder wrote, so a damaged local copy is deleted and downloaded again, and the segment serves
   * as before; only when the store's copy is damaged too does the open fail (the file is then read
   * directly, and the failure is reported with the table). Checking every part costs one pass over
   * the local bytes (CRC32C), once per open.
   */
  private Segment openPinned(Location location, long size) throws IOException {
    Path file = store.pin(location, size, pinDirectory);
    try {
      return openVerified(file);
    } catch (CorruptSegmentException damaged) {
      log.warn(
          "Pinned segment {} is damaged on local disk ({}); downloading it again from the segment"
              + " store",
          file,
          damaged.getMessage());
      Files.deleteIfExists(file);
      Path again = store.pin(location, pinDirectory);
      try {
        Segment segment = openVerified(again);
        repaired.add(location);
        log.info("Repaired pinned segment {}: its copy in the segment store is intact", location);
        return segment;
      } catch (CorruptSegmentException storeCopy) {
        Files.deleteIfExists(again);
        throw new CorruptSegmentException(
            location.toString(),
            storeCopy.part(),
            storeCopy.offset(),
            "the local copy was damaged and the segment store's copy is damaged too: "
                + storeCopy.reason(),
            storeCopy);
      }
    }
  }

  private Segment openVerified(Path file) throws IOException {
    Segment segment = SegmentStore.openPinned(file, indexes, bitmaps);
    try {
      segment.verifyParts();
      return segment;
    } catch (IOException | RuntimeException e) {
      closeQuietly(segment);
      throw e;
    }
  }

  /**
   * Whether the pinned copy of the segment at {@code location} was found damaged and replaced by a
   * fresh download from the segment store since this server started.
   */
  public boolean wasRepaired(Location location) {
    return repaired.contains(location);
  }

  /**
   * Stops serving every open segment not in {@code live}. A query that started on an older route
   * may still be reading one, so a dropped segment is closed only after a grace period, at a later
   * call (pinned files stay on disk for reuse).
   */
  public void retainOnly(Set<Location> live) {
    long now = System.nanoTime();
    for (Location location : List.copyOf(open.keySet())) {
      if (!live.contains(location)) {
        Segment segment = open.remove(location);
        if (segment != null) {
          retired.put(segment, now);
        }
      }
    }
    for (Map.Entry<Segment, Long> entry : List.copyOf(retired.entrySet())) {
      if (now - entry.getValue() > RETIRED_GRACE_NANOS) {
        retired.remove(entry.getKey());
        closeQuietly(entry.getKey());
      }
    }
  }

  /** The posting-list cache shared by the served segments, for its statistics. */
  public BitmapCache bitmapCache() {
    return bitmaps;
  }

  /** How many segments are open. */
  public int openCount() {
    return open.size();
  }

  @Override
  public void close() {
    for (Segment segment : open.values()) {
      closeQuietly(segment);
    }
    for (Segment segment : retired.keySet()) {
      closeQuietly(segment);
    }
    open.clear();
    retired.clear();
  }

  private static void closeQuietly(Segment segment) {
    if (segment == null) {
      return;
    }
    try {
      segment.close();
    } catch (IOException e) {
      log.warn("Cannot close segment {}: {}", segment.name(), e.getMessage());
    }
  }
}
