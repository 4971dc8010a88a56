package io.shelfmark.segment.read;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.segment.build.SegmentBuilder;
import io.shelfmark.segment.dictionary.Dictionaries;
import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartKey;
import io.shelfmark.segment.format.PartKinds;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.format.TableOfContents;
import io.shelfmark.segment.format.TocEntry;
import io.shelfmark.segment.format.UnsupportedSegmentVersionException;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.segment.metadata.ChunkPageLayout;
import io.shelfmark.segment.metadata.PageLayouts;
import io.shelfmark.segment.metadata.ParquetDictionaryPages;
import io.shelfmark.segment.metadata.SegmentMetadata;
import io.shelfmark.segment.metadata.SegmentStatistics;
import io.shelfmark.segment.source.SegmentSource;
import io.shelfmark.segment.spi.ColumnDescriptor;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.IndexReader;
import io.shelfmark.segment.spi.IndexType;
import io.shelfmark.segment.spi.ReaderContext;
import io.shelfmark.segment.startree.StarTree;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;
import org.roaringbitmap.RoaringBitmap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An open segment: its table of contents and metadata, and its parts loaded on first use — only the
 * parts a query touches. Opening reads the file's tail once ({@link #TAIL_BYTES}), which holds the
 * trailer, the table of contents and usually the metadata; each later part is one read of the
 * source (a view of the mapping for a pinned segment, a ranged GET for a remote one), verified
 * against its checksum on first access, and kept with the readers built on it until {@link
 * #close()}. So a remote segment holds in heap exactly the parts its queries have needed; the cache
 * module bounds memory across segments.
 *
 * <p>Thread safety: safe for concurrent use; two threads may load the same part at once, and one
 * result wins. Lifecycle: {@link #open}, query, {@link #close()} (which closes the source); readers
 * and buffers obtained from a segment must not be used after it is closed.
 */
public final class Segment implements Closeable {
  private static final Logger log = LoggerFactory.getLogger(Segment.class);

  /** How much of the tail opening reads: trailer, table of contents and (usually) metadata. */
  public static final int TAIL_BYTES = 64 * 1024;

  private final SegmentSource source;
  private final IndexService indexes;
  private final TableOfContents toc;
  private final SegmentMetadata metadata;
  private final long tailOffset;
  private final ByteBuffer tail;
  private final Map<PartKey, ByteBuffer> parts = new ConcurrentHashMap<>();
  private final Map<String, RoaringBitmap> nulls = new ConcurrentHashMap<>();
  private final Map<String, Optional<Dictionary>> dictionaries = new ConcurrentHashMap<>();
  // Keyed by column and type id, not PartKey: a PartKey validates its kind on construction, which
  // cost more than the lookup on the query path.
  private final Map<ReaderKey, IndexReader> readers = new ConcurrentHashMap<>();
  private final Map<Class<?>, Object> derived = new ConcurrentHashMap<>();
  private final Map<String, List<IndexType>> indexTypes = new ConcurrentHashMap<>();
  // The filter looks columns up by name several times per comparison of every query.
  private final Map<String, Optional<ColumnDescriptor>> columns;
  private final List<String> skippedParts;
  private final BitmapCache.Scope bitmaps;

  private Segment(
      SegmentSource source,
      IndexService indexes,
      TableOfContents toc,
      long tailOffset,
      ByteBuffer tail,
      SegmentMetadata metadata,
      List<String> skippedParts,
      BitmapCache bitmapCache) {
    this.source = source;
    this.indexes = indexes;
    this.toc = toc;
    this.tailOffset = tailOffset;
    this.tail = tail;
    this.metadata = metadata;
    this.skippedParts = skippedParts;
    this.bitmaps = bitmapCache.open(source.name());
    Map<String, Optional<ColumnDescriptor>> byName = new HashMap<>();
    for (ColumnDescriptor column : metadata.columns()) {
      byName.putIfAbsent(column.name(), Optional.of(column));
    }
    this.columns = byName;
  }

  /**
   * Opens a segment: reads and checks the tail (trailer, table of contents) and the metadata part.
   * On failure the source is closed.
   *
   * @throws CorruptSegmentException when the bytes are not a well-formed segment
   * @throws UnsupportedSegmentVersionException when a newer Shelfmark wrote it
   */
  public static Segment open(SegmentSource source, IndexService indexes) throws IOException {
    return open(source, indexes, BitmapCache.disabled());
  }

  /**
   * Opens a segment whose index readers keep the bitmaps they decode in {@code bitmapCache} (shared
   * with the other segments opened with it; this segment's entries are dropped when it closes).
   *
   * @throws CorruptSegmentException when the bytes are not a well-formed segment
   * @throws UnsupportedSegmentVersionException when a newer Shelfmark wrote it
   */
  public static Segment open(SegmentSource source, IndexService indexes, BitmapCache bitmapCache)
      throws IOException {
    requireNonNull(source, "source is null");
    requireNonNull(indexes, "indexes is null");
    requireNonNull(bitmapCache, "bitmapCache is null");
    try {
      return openChecked(source, indexes, bitmapCache);
    } catch (IOException | RuntimeException e) {
      source.close();
      throw e;
    }
  }

  private static Segment openChecked(
      SegmentSource source, IndexService indexes, BitmapCache bitmapCache) throws IOException {
    String name = source.name();
    long size = source.size();
    SegmentTail.Located located = SegmentTail.read(source, size, TAIL_BYTES);
    if (source.isMemoryResident()) {
      SegmentTail.checkHeader(source, name);
    }
    TableOfContents toc = located.toc();
    List<String> skipped = new ArrayList<>();
    for (TocEntry entry : toc.entries()) {
      checkVersion(name, entry, indexes, skipped);
    }
    TocEntry metadataEntry =
        toc.find(PartKey.of(PartKinds.METADATA))
            .orElseThrow(
                () ->
                    new CorruptSegmentException(
                        name,
                        "",
                        located.tocOffset(),
                        "no metadata part in the table of contents"));
    ByteBuffer metadataBytes =
        verified(source, metadataEntry, located.tailOffset(), located.tail());
    SegmentMetadata metadata =
        SegmentMetadata.deserialize(
            new PartReader(
                name, metadataEntry.key().toString(), metadataEntry.offset(), metadataBytes));
    Segment segment =
        new Segment(
            source,
            indexes,
            toc,
            located.tailOffset(),
            located.tail(),
            metadata,
            ImmutableList.copyOf(skipped),
            bitmapCache);
    segment.parts.put(metadataEntry.key(), metadataBytes);
    return segment;
  }

  /**
   * Refuses core parts newer than this reader; notes index parts it cannot use (they are skipped).
   */
  private static void checkVersion(
      String name, TocEntry entry, IndexService indexes, List<String> skipped)
      throws UnsupportedSegmentVersionException {
    String kind = entry.key().kind();
    if (kind.equals(PartKinds.STAR_TREE)) {
      if (entry.version() < StarTree.OLDEST_VERSION || entry.version() > StarTree.VERSION) {
        // Pre-aggregates only accelerate: without them the rows answer. A layout older than the
        // oldest one read is skipped too (its segment is rebuilt: the fingerprint names it).
        log.debug("Segment {}: skipping part {} (version {})", name, entry.key(), entry.version());
        skipped.add(entry.key().toString());
      }
      return;
    }
    int known =
        switch (kind) {
          case PartKinds.METADATA -> SegmentMetadata.VERSION;
          case PartKinds.STATISTICS -> SegmentStatistics.VERSION;
          case PartKinds.PAGES -> PageLayouts.VERSION;
          case PartKinds.DICTIONARY_PAGES -> ParquetDictionaryPages.VERSION;
          case PartKinds.FOOTER -> SegmentBuilder.FOOTER_VERSION;
          case PartKinds.NULLS -> SegmentBuilder.NULLS_VERSION;
          case PartKinds.DICTIONARY -> Dictionaries.VERSION;
          default -> -1;
        };
    if (known >= 0) {
      if (entry.version() > known) {
        throw new UnsupportedSegmentVersionException(
            name,
            "Cannot read segment %s: part %s has version %d, written by a newer Shelfmark (this reader reads up to %d; upgrade Shelfmark or rebuild the segment)"
                .formatted(name, entry.key(), entry.version(), known));
      }
      return;
    }
    Optional<IndexType> type = indexes.find(kind);
    if (type.isEmpty() || entry.version() > type.get().version()) {
      // An index is only an accelerator: without it the predicate is evaluated on the data.
      log.debug(
          "Segment {}: skipping part {} (version {}, index type {})",
          name,
          entry.key(),
          entry.version(),
          type.map(t -> "known up to version " + t.version()).orElse("unknown"));
      skipped.add(entry.key().toString());
    }
  }

  private static ByteBuffer verified(
      SegmentSource source, TocEntry entry, long tailOffset, ByteBuffer tail) throws IOException {
    if (entry.length() > Integer.MAX_VALUE) {
      throw new CorruptSegmentException(
          source.name(),
          entry.key().toString(),
          entry.offset(),
          "part of %d bytes exceeds 2 GiB".formatted(entry.length()));
    }
    int length = (int) entry.length();
    ByteBuffer bytes;
    if (entry.offset() >= tailOffset) {
      bytes =
          tail.slice((int) (entry.offset() - tailOffset), length).order(ByteOrder.LITTLE_ENDIAN);
    } else {
      bytes = source.read(entry.offset(), length);
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes.duplicate());
    if ((int) crc.getValue() != entry.crc32c()) {
      throw new CorruptSegmentException(
          source.name(),
          entry.key().toString(),
          entry.offset(),
          "checksum mismatch: the table of contents says crc32c %08x, the part's %d bytes have %08x"
              .formatted(entry.crc32c(), length, (int) crc.getValue()));
    }
    return bytes;
  }

  /** The segment's name: its path or location. */
  public String name() {
    return source.name();
  }

  public long sizeInBytes() throws IOException {
    return source.size();
  }

  public SegmentMetadata metadata() {
    return metadata;
  }

  public int docCount() {
    return metadata.docCount();
  }

  public TableOfContents tableOfContents() {
    return toc;
  }

  /** Index parts this reader does not use: unknown index types or newer layout versions. */
  public List<String> skippedParts() {
    return skippedParts;
  }

  /** Every doc: the context for a query over the whole segment (a fresh bitmap). */
  public RoaringBitmap allDocs() {
    RoaringBitmap all = new RoaringBitmap();
    all.add(0L, metadata.docCount());
    return all;
  }

  /**
   * The part's verified bytes, loading them on first use; empty when the segment has no such part.
   */
  public Optional<ByteBuffer> part(PartKey key) throws IOException {
    Optional<TocEntry> entry = toc.find(key);
    if (entry.isEmpty()) {
      return Optional.empty();
    }
    ByteBuffer loaded = parts.get(key);
    if (loaded == null) {
      loaded = verified(source, entry.get(), tailOffset, tail);
      ByteBuffer previous = parts.putIfAbsent(key, loaded);
      loaded = previous != null ? previous : loaded;
    }
    return Optional.of(loaded.duplicate().order(ByteOrder.LITTLE_ENDIAN));
  }

  /**
   * Checks every part against its checksum now, instead of on its first use by a query, so that a
   * damaged copy is found (and can be replaced) before any query depends on it. Meant for local
   * (pinned) segments, whose parts are views of the mapping: it reads every byte once and keeps no
   * copy. On a remote segment it would fetch every part.
   *
   * @throws CorruptSegmentException naming the first part whose bytes do not match
   */
  public void verifyParts() throws IOException {
    for (TocEntry entry : toc.entries()) {
      part(entry.key());
    }
  }

  private PartReader reader(PartKey key, ByteBuffer bytes) {
    return new PartReader(name(), key.toString(), toc.find(key).orElseThrow().offset(), bytes);
  }

  /**
   * The star-trees of this segment in config order, parsed on first use and kept until the segment
   * closes; empty when it has none (or only ones of a newer layout, skipped).
   */
  public List<StarTree> starTrees() throws IOException {
    return derived(StarTrees.class, StarTrees::load).trees();
  }

  private record StarTrees(List<StarTree> trees) {
    static StarTrees load(Segment segment) throws IOException {
      List<StarTree> trees = new ArrayList<>();
      for (TocEntry entry : segment.toc.entries()) {
        if (entry.key().kind().equals(PartKinds.STAR_TREE)
            && !segment.skippedParts.contains(entry.key().toString())) {
          ByteBuffer bytes = segment.part(entry.key()).orElseThrow();
          trees.add(StarTree.parse(segment.reader(entry.key(), bytes), entry.version()));
        }
      }
      return new StarTrees(List.copyOf(trees));
    }
  }

  /** The raw Parquet footer of data file {@code file}. */
  public ByteBuffer footer(int file) throws IOException {
    PartKey key = PartKey.file(PartKinds.FOOTER, file);
    return part(key).orElseThrow(() -> missing(key)).asReadOnlyBuffer();
  }

  /** The page layouts of data file {@code file}'s column chunks. */
  public List<ChunkPageLayout> pageLayouts(int file) throws IOException {
    PartKey key = PartKey.file(PartKinds.PAGES, file);
    ByteBuffer bytes = part(key).orElseThrow(() -> missing(key));
    return PageLayouts.deserialize(reader(key, bytes), toc.find(key).orElseThrow().version());
  }

  /**
   * The Parquet dictionary pages of data file {@code file} kept with the segment, by the file
   * offset of their header: views of the part (a pinned segment's mapping: no copy). Empty when the
   * segment keeps none.
   */
  public NavigableMap<Long, ByteBuffer> dictionaryPages(int file) throws IOException {
    PartKey key = PartKey.file(PartKinds.DICTIONARY_PAGES, file);
    Optional<ByteBuffer> bytes = part(key);
    if (bytes.isEmpty()) {
      return Collections.emptyNavigableMap();
    }
    return ParquetDictionaryPages.deserialize(reader(key, bytes.get()));
  }

  /** Per-file and per-row-group column statistics (empty when the segment has no data files). */
  public SegmentStatistics statistics() throws IOException {
    PartKey key = PartKey.of(PartKinds.STATISTICS);
    Optional<ByteBuffer> bytes = part(key);
    if (bytes.isEmpty()) {
      return new SegmentStatistics(List.of());
    }
    return SegmentStatistics.deserialize(reader(key, bytes.get()));
  }

  public Optional<ColumnDescriptor> column(String column) {
    Optional<ColumnDescriptor> found = columns.get(column);
    return found != null ? found : Optional.empty();
  }

  private ColumnDescriptor requireColumn(String column) {
    return metadata
        .column(column)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "Cannot find column " + column + " in segment " + name()));
  }

  /**
   * The docs whose value of {@code column} is null. Shared and cached: callers must not modify it.
   */
  public RoaringBitmap nulls(String column) throws IOException {
    RoaringBitmap cached = nulls.get(column);
    if (cached != null) {
      return cached;
    }
    requireColumn(column);
    PartKey key = PartKey.column(PartKinds.NULLS, column);
    ByteBuffer bytes = part(key).orElseThrow(() -> missing(key));
    RoaringBitmap bitmap = new RoaringBitmap();
    try {
      bitmap.deserialize(bytes);
    } catch (IOException | RuntimeException e) {
      throw new CorruptSegmentException(
          name(),
          key.toString(),
          toc.find(key).orElseThrow().offset(),
          "null bitmap does not parse: " + e,
          e);
    }
    if (!bitmap.isEmpty() && bitmap.last() >= metadata.docCount()) {
      throw new CorruptSegmentException(
          name(),
          key.toString(),
          toc.find(key).orElseThrow().offset(),
          "null bitmap holds doc %d of %d".formatted(bitmap.last(), metadata.docCount()));
    }
    RoaringBitmap previous = nulls.putIfAbsent(column, bitmap);
    return previous != null ? previous : bitmap;
  }

  /** The column's dictionary, when it has one. */
  public Optional<Dictionary> dictionary(String column) throws IOException {
    Optional<Dictionary> cached = dictionaries.get(column);
    if (cached != null) {
      return cached;
    }
    ColumnDescriptor descriptor = requireColumn(column);
    PartKey key = PartKey.column(PartKinds.DICTIONARY, column);
    Optional<ByteBuffer> bytes = part(key);
    Optional<Dictionary> dictionary =
        bytes.isEmpty()
            ? Optional.empty()
            : Optional.of(Dictionaries.read(reader(key, bytes.get()), descriptor.type()));
    Optional<Dictionary> previous = dictionaries.putIfAbsent(column, dictionary);
    return previous != null ? previous : dictionary;
  }

  /** The ids of the index types this segment has, and this reader can use, for {@code column}. */
  public List<String> indexIds(String column) {
    List<String> ids = new ArrayList<>();
    for (TocEntry entry : toc.named(column)) {
      String kind = entry.key().kind();
      if (!PartKinds.CORE.contains(kind) && !skippedParts.contains(entry.key().toString())) {
        ids.add(kind);
      }
    }
    ids.sort(null);
    return ids;
  }

  /**
   * The index types of {@link #indexIds} that the registry knows, in id order; computed once per
   * column (the filter asks for every comparison of every query). Immutable.
   */
  public List<IndexType> indexTypes(String column) {
    List<IndexType> known = indexTypes.get(column);
    if (known != null) {
      return known;
    }
    ImmutableList.Builder<IndexType> types = ImmutableList.builder();
    for (String id : indexIds(column)) {
      indexes.find(id).ifPresent(types::add);
    }
    List<IndexType> made = types.build();
    List<IndexType> previous = indexTypes.putIfAbsent(column, made);
    return previous != null ? previous : made;
  }

  /** The reader of the {@code typeId} index of {@code column}, opened on first use. */
  public Optional<IndexReader> index(String column, String typeId) throws IOException {
    ReaderKey readerKey = new ReaderKey(column, typeId);
    IndexReader cached = readers.get(readerKey);
    if (cached != null) {
      return Optional.of(cached);
    }
    PartKey key = PartKey.column(typeId, column);
    Optional<IndexType> type = indexes.find(typeId);
    Optional<TocEntry> entry = toc.find(key);
    if (type.isEmpty() || entry.isEmpty() || skippedParts.contains(key.toString())) {
      return Optional.empty();
    }
    ColumnDescriptor descriptor = requireColumn(column);
    ReaderContext context =
        new ReaderContext(
            name(),
            descriptor,
            metadata.docCount(),
            key.toString(),
            entry.get().version(),
            entry.get().offset(),
            part(key).orElseThrow(),
            dictionary(column),
            nulls(column),
            bitmaps.part(key.toString()));
    IndexReader reader = type.get().openReader(context);
    IndexReader previous = readers.putIfAbsent(readerKey, reader);
    return Optional.of(previous != null ? previous : reader);
  }

  private record ReaderKey(String column, String typeId) {}

  /**
   * Whether the segment's bytes are in memory or mapped from local disk (a pinned segment): parts
   * are then views, read without a request and without a copy.
   */
  public boolean isMemoryResident() {
    return source.isMemoryResident();
  }

  /**
   * Opens every index reader this segment has and this reader knows (with the dictionaries and null
   * bitmaps they use), which otherwise open on first use: a server calls it when it opens the
   * segment, so a fresh node's first query over it does not pay for opening. Only for a segment in
   * memory or mapped from local disk ({@link SegmentSource#isMemoryResident()}), whose readers are
   * views over bytes already there plus small headers; a remote segment's parts stay unread until a
   * query needs them (opening them all would download the whole segment). A part that fails to open
   * is left to fail again, with its message, when a query uses it.
   *
   * @return the number of index readers open (0 for a remote segment)
   */
  public int openIndexes() {
    if (!source.isMemoryResident()) {
      return 0;
    }
    int open = 0;
    for (ColumnDescriptor column : metadata.columns()) {
      for (IndexType type : indexTypes(column.name())) {
        try {
          open += index(column.name(), type.id()).isPresent() ? 1 : 0;
        } catch (IOException | RuntimeException e) {
          // Not this method's to report: the query that needs the part names it.
          continue;
        }
      }
    }
    return open;
  }

  /** Makes a value from an open segment; see {@link #derived}. */
  @FunctionalInterface
  public interface Deriver<T> {
    T derive(Segment segment) throws IOException;
  }

  /**
   * The value of type {@code kind} that a layer above derives from this segment (the server's
   * parsed footer and page locations), made by {@code deriver} on first use and kept until the
   * segment closes. Faster than a cache keyed by the segment, which every query of every segment
   * would consult. Two threads may both make it at once; one result wins.
   */
  public <T> T derived(Class<T> kind, Deriver<T> deriver) throws IOException {
    Object known = derived.get(kind);
    if (known == null) {
      T made = requireNonNull(deriver.derive(this), "deriver returned null");
      known = derived.putIfAbsent(kind, made);
      if (known == null) {
        known = made;
      }
    }
    return kind.cast(known);
  }

  /** The index type registry this segment was opened with. */
  public IndexService indexService() {
    return indexes;
  }

  private CorruptSegmentException missing(PartKey key) {
    return new CorruptSegmentException(
        name(), key.toString(), -1, "part missing from the table of contents");
  }

  @Override
  public void close() throws IOException {
    bitmaps.close();
    readers.clear();
    derived.clear();
    parts.clear();
    source.close();
  }

  @Override
  public String toString() {
    return "Segment[" + name() + ", " + metadata + "]";
  }
}
