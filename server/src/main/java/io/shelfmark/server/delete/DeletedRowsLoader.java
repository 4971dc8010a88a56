package io.shelfmark.server.delete;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.DeleteFileInfo;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.parquet.read.ParquetFileReader;
import io.shelfmark.parquet.read.ReaderOptions;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.roaringbitmap.RoaringBitmap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Materialises the rows of a data file that a table snapshot deletes, as a bitmap of 0-based row
 * positions: Iceberg v2 position-delete files (Parquet) and v3 deletion vectors (Puffin blobs).
 * Equality deletes, and position deletes in Avro or ORC, are refused with an {@link
 * UnsupportedDeletesException} naming the delete file: results must equal the snapshot, so a delete
 * Shelfmark cannot apply makes the file unanswerable, never silently live.
 *
 * <pre>{@code
 * DeletedRowsLoader loader = new DeletedRowsLoader(store, ioExecutor, 256L << 20);
 * for (DataFileInfo file : snapshot.dataFiles()) {
 *   RoaringBitmap deleted = loader.deletedPositions(file, snapshot);   // at sync, not per query
 * }
 * }</pre>
 *
 * <p>Which delete files apply is Iceberg's decision, already taken when the snapshot was listed:
 * {@code planFiles} assigns each data file the delete files of its partition whose sequence numbers
 * allow it (position deletes: data sequence number of the delete ≥ the data file's; equality
 * deletes: strictly greater), so this class applies exactly {@link DataFileInfo#deleteFiles()}. A
 * position-delete file may name many data files: only rows whose {@code file_path} is this data
 * file's path count.
 *
 * <p>Caching: delete files are immutable, so what was read from one is kept (Caffeine, weighed by
 * bitmap bytes, at most {@code maxCacheBytes}): a position-delete file is read once for all the
 * live data files of the snapshot that refer to it, and a deletion vector once. Concurrent loads of
 * one delete file are read once.
 *
 * <p>Thread safe. The returned bitmap is the caller's (a fresh copy).
 */
public final class DeletedRowsLoader {
  private static final Logger log = LoggerFactory.getLogger(DeletedRowsLoader.class);

  private final ObjectStore store;
  private final PositionDeleteFileReader positionDeletes;
  private final EqualityDeleteReader equalityDeletes;
  private final Cache<String, Loaded> cache;
  private final AtomicLong rowGroupsRead = new AtomicLong();
  private final AtomicLong rowGroupsSkipped = new AtomicLong();

  /**
   * @param store where delete files are read from
   * @param executor runs the reader's ranged GETs (an I/O pool)
   * @param maxCacheBytes the most bitmap bytes kept from delete files already read
   */
  public DeletedRowsLoader(ObjectStore store, Executor executor, long maxCacheBytes) {
    this.store = requireNonNull(store, "store is null");
    requireNonNull(executor, "executor is null");
    if (maxCacheBytes < 0) {
      throw new IllegalArgumentException(
          "Cannot cache %d bytes of deleted rows (use 0 or more)".formatted(maxCacheBytes));
    }
    ParquetFileReader reader = new ParquetFileReader(store, executor, ReaderOptions.defaults());
    this.positionDeletes = new PositionDeleteFileReader(store, reader);
    this.equalityDeletes = new EqualityDeleteReader(store, reader);
    this.cache =
        Caffeine.newBuilder()
            .maximumWeight(maxCacheBytes)
            .weigher((String key, Loaded value) -> value.weight())
            .recordStats()
            .build();
  }

  /**
   * The 0-based positions of {@code file}'s rows deleted in {@code snapshot}; empty when none are.
   *
   * @throws UnsupportedDeletesException when an applicable delete file is of a kind Shelfmark
   *     cannot apply yet (equality deletes, Avro or ORC position deletes)
   * @throws CorruptDeletesException when a delete file is malformed or deletes positions past the
   *     end of the data file
   * @throws IllegalArgumentException when the file is not a live data file of the snapshot
   */
  public RoaringBitmap deletedPositions(DataFileInfo file, TableSnapshot snapshot)
      throws IOException {
    requireNonNull(file, "file is null");
    requireNonNull(snapshot, "snapshot is null");
    if (snapshot.dataFile(file.path()).isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot load deleted rows of %s: it is not a live data file of %s"
              .formatted(file.path(), snapshot));
    }
    RoaringBitmap deleted = new RoaringBitmap();
    Map<List<Integer>, List<DeleteFileInfo>> byEqualityFields = new LinkedHashMap<>();
    for (String key : file.deleteFiles()) {
      DeleteFileInfo delete = snapshot.deleteFiles().get(key);
      checkSupported(delete, file);
      if (delete.content() == FileContent.EQUALITY_DELETES) {
        byEqualityFields
            .computeIfAbsent(delete.equalityFieldIds(), ids -> new ArrayList<>())
            .add(delete);
      } else {
        deleted.or(positions(delete, file, snapshot));
      }
    }
    for (Map.Entry<List<Integer>, List<DeleteFileInfo>> group : byEqualityFields.entrySet()) {
      deleted.or(equalityPositions(file, group.getKey(), group.getValue()));
    }
    if (!deleted.isEmpty() && Integer.toUnsignedLong(deleted.last()) >= file.recordCount()) {
      throw new CorruptDeletesException(
          file.deleteFiles().toString(),
          "Cannot apply the deletes %s to data file %s: they delete position %d but the file has %d rows"
              .formatted(
                  file.deleteFiles(),
                  file.path(),
                  Integer.toUnsignedLong(deleted.last()),
                  file.recordCount()));
    }
    return deleted;
  }

  /**
   * Whether the loader can apply a delete file of this kind: position deletes and equality deletes
   * in Parquet, deletion vectors. (Equality deletes on FLOAT or DOUBLE columns are refused only
   * when read.)
   */
  public static boolean isSupported(DeleteFileInfo delete) {
    requireNonNull(delete, "delete is null");
    return delete.isDeletionVector() || delete.format() == FileFormat.PARQUET;
  }

  /** Hits, misses and loads of the delete-file cache. */
  public CacheStats cacheStats() {
    return cache.stats();
  }

  /** Row groups of position-delete files read, and skipped on their file_path statistics. */
  public long rowGroupsRead() {
    return rowGroupsRead.get();
  }

  public long rowGroupsSkipped() {
    return rowGroupsSkipped.get();
  }

  private static void checkSupported(DeleteFileInfo delete, DataFileInfo file)
      throws UnsupportedDeletesException {
    if (!isSupported(delete)) {
      throw new UnsupportedDeletesException(
          delete.path(),
          file.path(),
          ("Cannot apply %s file %s to data file %s: it is %s, and Shelfmark reads delete files"
                  + " in Parquet and deletion vectors only (rewrite the deletes with"
                  + " write.delete.format.default=parquet)")
              .formatted(
                  delete.content() == FileContent.EQUALITY_DELETES
                      ? "equality delete"
                      : "position delete",
                  delete.path(),
                  file.path(),
                  delete.format()));
    }
  }

  /** The rows of a data file that equality deletes on one set of fields delete. */
  private RoaringBitmap equalityPositions(
      DataFileInfo file, List<Integer> fieldIds, List<DeleteFileInfo> deletes) throws IOException {
    Set<List<Object>> keys = new HashSet<>();
    List<String> paths = new ArrayList<>();
    for (DeleteFileInfo delete : deletes) {
      paths.add(delete.path());
      Loaded loaded =
          load(
              delete.key(),
              () ->
                  Loaded.ofKeys(
                      equalityDeletes.keys(
                          delete.path(), delete.fileSizeInBytes(), fieldIds, file.path())));
      keys.addAll(loaded.keys());
    }
    RoaringBitmap positions =
        equalityDeletes.positions(
            file.path(), file.fileSizeInBytes(), fieldIds, keys, paths.toString());
    log.debug(
        "Equality deletes {} on fields {} delete {} rows of {}",
        paths,
        fieldIds,
        positions.getLongCardinality(),
        file.path());
    return positions;
  }

  private RoaringBitmap positions(DeleteFileInfo delete, DataFileInfo file, TableSnapshot snapshot)
      throws IOException {
    if (delete.isDeletionVector()) {
      if (delete.referencedDataFile().isPresent()
          && !delete.referencedDataFile().get().equals(file.path())) {
        throw new CorruptDeletesException(
            delete.path(),
            "Cannot apply deletion vector %s to data file %s: it is the vector of %s"
                .formatted(delete.path(), file.path(), delete.referencedDataFile().get()));
      }
      return load(delete.key(), () -> Loaded.of(file.path(), readVector(delete, file)))
          .get(file.path());
    }
    if (delete.referencedDataFile().isPresent()
        && !delete.referencedDataFile().get().equals(file.path())) {
      // A file-scoped position-delete file of another data file deletes nothing here.
      return new RoaringBitmap();
    }
    Loaded loaded = load(delete.key(), () -> readPositionDeletes(delete, snapshot));
    RoaringBitmap positions = loaded.get(file.path());
    if (positions == null) {
      // The file was not live when the delete file was first read (a later rewrite that kept
      // old sequence numbers): read again for it, together with what was read before.
      Set<String> wanted = new HashSet<>(loaded.positions().keySet());
      wanted.add(file.path());
      Loaded reread = readPositionDeletes(delete, wanted);
      cache.put(delete.key(), reread);
      positions = reread.get(file.path());
    }
    return positions;
  }

  private RoaringBitmap readVector(DeleteFileInfo delete, DataFileInfo file) throws IOException {
    if (delete.contentOffset().isEmpty() || delete.contentSizeInBytes().isEmpty()) {
      throw new CorruptDeletesException(
          delete.path(),
          "Cannot read deletion vector %s of data file %s: the manifest gives no content offset or size"
              .formatted(delete.path(), file.path()));
    }
    long offset = delete.contentOffset().getAsLong();
    long size = delete.contentSizeInBytes().getAsLong();
    if (offset < 0
        || size < 0
        || size > Integer.MAX_VALUE
        || offset + size > delete.fileSizeInBytes()) {
      throw new CorruptDeletesException(
          delete.path(),
          "Cannot read deletion vector %s of data file %s: blob at offset %d of %d bytes lies outside the file of %d bytes"
              .formatted(delete.path(), file.path(), offset, size, delete.fileSizeInBytes()));
    }
    byte[] blob = store.readRange(Location.parse(delete.path()), offset, (int) size);
    RoaringBitmap positions =
        DeletionVectorDecoder.decode(delete.path(), offset, blob, file.path());
    if (positions.getLongCardinality() != delete.recordCount()) {
      throw new CorruptDeletesException(
          delete.path(),
          "Cannot read deletion vector at offset %d of %s: it holds %d positions but the manifest records %d"
              .formatted(
                  offset, delete.path(), positions.getLongCardinality(), delete.recordCount()));
    }
    log.debug(
        "Read deletion vector of {} from {}: {} positions",
        file.path(),
        delete.path(),
        positions.getLongCardinality());
    return positions;
  }

  /** Reads a position-delete file for every live data file of the snapshot that refers to it. */
  private Loaded readPositionDeletes(DeleteFileInfo delete, TableSnapshot snapshot)
      throws IOException {
    Set<String> wanted = new HashSet<>();
    for (DataFileInfo file : snapshot.dataFiles()) {
      if (file.deleteFiles().contains(delete.key())) {
        wanted.add(file.path());
      }
    }
    return readPositionDeletes(delete, wanted);
  }

  private Loaded readPositionDeletes(DeleteFileInfo delete, Set<String> wanted) throws IOException {
    PositionDeleteFileReader.Result result =
        positionDeletes.read(delete.path(), delete.fileSizeInBytes(), wanted);
    rowGroupsRead.addAndGet(result.rowGroupsRead());
    rowGroupsSkipped.addAndGet(result.rowGroupsSkipped());
    log.debug(
        "Read position deletes {} for {} data files: {} row groups read, {} skipped",
        delete.path(),
        wanted.size(),
        result.rowGroupsRead(),
        result.rowGroupsSkipped());
    return new Loaded(result.positions());
  }

  private interface LoadAction {
    Loaded load() throws IOException;
  }

  private Loaded load(String key, LoadAction action) throws IOException {
    try {
      return cache.get(
          key,
          ignored -> {
            try {
              return action.load();
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /**
   * What was read from one delete file: positions per data file path (position deletes, deletion
   * vectors) or the deleted keys (equality deletes). Immutable once cached.
   */
  private record Loaded(Map<String, RoaringBitmap> positions, Set<List<Object>> keys) {
    Loaded(Map<String, RoaringBitmap> positions) {
      this(positions, Set.of());
    }

    static Loaded of(String dataFile, RoaringBitmap positions) {
      Map<String, RoaringBitmap> map = new HashMap<>();
      map.put(dataFile, positions);
      return new Loaded(map);
    }

    static Loaded ofKeys(Set<List<Object>> keys) {
      return new Loaded(Map.of(), Set.copyOf(keys));
    }

    /** A copy of a data file's positions, or null when that file was not read for. */
    RoaringBitmap get(String dataFile) {
      RoaringBitmap positions = positions().get(dataFile);
      return positions == null ? null : positions.clone();
    }

    int weight() {
      // A key: its list and boxed values, about 80 bytes for a one-field key.
      long bytes = 80L * keys.size();
      for (Map.Entry<String, RoaringBitmap> entry : positions.entrySet()) {
        bytes += 2L * entry.getKey().length() + entry.getValue().getSizeInBytes() + 64;
      }
      return (int) Math.min(Integer.MAX_VALUE, bytes);
    }
  }
}
