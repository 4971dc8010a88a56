package io.shelfmark.segment.build;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.segment.dictionary.Dictionaries;
import io.shelfmark.segment.format.PartKey;
import io.shelfmark.segment.format.PartKinds;
import io.shelfmark.segment.format.SegmentFileWriter;
import io.shelfmark.segment.format.SegmentFormat;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.segment.index.bloom.BloomIndexType;
import io.shelfmark.segment.index.mapkey.MapKeyExtractor;
import io.shelfmark.segment.index.mapkey.MapKeySelection;
import io.shelfmark.segment.index.sorted.SortedIndexType;
import io.shelfmark.segment.metadata.ChunkPageLayout;
import io.shelfmark.segment.metadata.ColumnStatistics;
import io.shelfmark.segment.metadata.DataFileEntry;
import io.shelfmark.segment.metadata.DataFileIdentity;
import io.shelfmark.segment.metadata.MapColumnInfo;
import io.shelfmark.segment.metadata.PageLayouts;
import io.shelfmark.segment.metadata.ParquetDictionaryPages;
import io.shelfmark.segment.metadata.SegmentMetadata;
import io.shelfmark.segment.metadata.SegmentStatistics;
import io.shelfmark.segment.spi.ColumnDescriptor;
import io.shelfmark.segment.spi.IndexType;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.segment.startree.StarTree;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Builds one segment: describe the data file(s), add columns and map columns, feed each its values
 * in doc-id order, then write. The index builder drives it while streaming a Parquet file once.
 *
 * <pre>{@code
 * SegmentBuilder builder = new SegmentBuilder(IndexService.installed(), "segment of " + path);
 * builder.addDataFile(identity, rowGroupRowCounts, footerBytes, pageLayouts);
 * ColumnWriter metric = builder.addColumn("metric", ValueType.STRING, List.of("inverted"));
 * MapColumnWriter dimensions =
 *     builder.addMapColumn("dimensions", MapKeySelection.listed("node", "service"), List.of("inverted", "forward"));
 * // per row group: metric.addBinary(...); dimensions.addMaps(...); ...
 * builder.writeTo(segmentPath);
 * }</pre>
 *
 * <p>Every column must receive exactly one value or null per doc. Memory: each column holds its
 * values until written (about 4 bytes per doc for dictionary columns, 8 for numeric ones), and one
 * column's index parts at a time while writing. Single use, not thread safe.
 */
public final class SegmentBuilder {
  /** What segments record as their writer. */
  public static final String CREATED_BY =
      "shelfmark-segment format %d.%d"
          .formatted(SegmentFormat.MAJOR_VERSION, SegmentFormat.MINOR_VERSION);

  /** The raw footer part's layout version: the bytes as the Parquet file holds them. */
  public static final int FOOTER_VERSION = 1;

  /** The nulls part's layout version: a RoaringBitmap in its portable format. */
  public static final int NULLS_VERSION = 1;

  private final IndexService indexes;
  private final String name;
  private final List<DataFileInput> files = new ArrayList<>();
  private final List<StarTree> starTrees = new ArrayList<>();
  private final Map<String, ColumnWriter> columns = new LinkedHashMap<>();
  private final Map<String, MapColumnWriter> maps = new LinkedHashMap<>();
  private final Map<StatisticsKey, ColumnStatistics> suppliedStatistics = new HashMap<>();
  private boolean written;
  private boolean sortedReplaces = true;
  private int forwardMaxCardinality = Integer.MAX_VALUE;
  private double keyBloomBelowDocsPerValue;

  /**
   * @param indexes the index types columns may use
   * @param name the segment's name in messages (its future path or location)
   */
  public SegmentBuilder(IndexService indexes, String name) {
    this.indexes = requireNonNull(indexes, "indexes is null");
    this.name = requireNonNull(name, "name is null");
  }

  /**
   * Whether a column found sorted gets a sorted index in place of its configured range and inverted
   * indexes (the default), or keeps exactly the configured ones.
   */
  public SegmentBuilder sortedIndexReplacesRangeAndInverted(boolean replaces) {
    checkOpen();
    this.sortedReplaces = replaces;
    return this;
  }

  /**
   * Leaves out a column's (or extracted map key's) configured forward index when its dictionary
   * holds more than {@code maxCardinality} distinct values, decided when the column is sealed. A
   * forward index costs {@code log2(cardinality)} bits per doc and serves GROUP BY, which is rare
   * on high-cardinality columns (a host name, a node id); without it the server reads the values
   * from Parquet, so this trades speed for size, never correctness. Default: no limit.
   */
  public SegmentBuilder forwardIndexMaxCardinality(int maxCardinality) {
    checkOpen();
    if (maxCardinality < 0) {
      throw new IllegalArgumentException(
          "Cannot limit forward indexes to a negative cardinality: " + maxCardinality);
    }
    this.forwardMaxCardinality = maxCardinality;
    return this;
  }

  /**
   * Gives an extracted map key a bloom index in place of its inverted index when its values are
   * nearly unique in this segment: fewer than {@code minDocsPerValue} non-null docs per distinct
   * value on average, decided when the key is sealed. Such an inverted index holds a dictionary
   * entry and a posting list per doc — more than the values take in Parquet — while a bloom filter
   * answers equality at about 10 bits per value, with candidates the server checks against the
   * values (an absent literal is still an exact empty answer). The dictionary part is then left out
   * unless another index needs it. Configured table columns are never changed. Default 0: never.
   */
  public SegmentBuilder extractedKeyBloomBelowDocsPerValue(double minDocsPerValue) {
    checkOpen();
    if (!(minDocsPerValue >= 0)) {
      throw new IllegalArgumentException(
          "Cannot replace inverted indexes below " + minDocsPerValue + " docs per value");
    }
    this.keyBloomBelowDocsPerValue = minDocsPerValue;
    return this;
  }

  private SealPolicy columnPolicy() {
    return new SealPolicy(forwardMaxCardinality, 0, Optional.empty());
  }

  private SealPolicy keyPolicy() {
    return new SealPolicy(
        forwardMaxCardinality, keyBloomBelowDocsPerValue, indexes.find(BloomIndexType.ID));
  }

  private record DataFileInput(
      DataFileIdentity identity,
      List<Long> rowGroupRowCounts,
      byte[] footer,
      List<ChunkPageLayout> pages,
      Map<Long, byte[]> dictionaryPages) {}

  private record StatisticsKey(int file, int rowGroup, String column) {}

  /**
   * Adds a data file; its rows take the next doc ids. Segments are built per data file, so this is
   * usually called once.
   *
   * @param rowGroupRowCounts rows per row group, from the footer; they must add up to the record
   *     count
   * @param footer the raw Parquet footer (FileMetaData) bytes, kept opaque
   * @param pages the page layout of the column chunks the server will read
   */
  public SegmentBuilder addDataFile(
      DataFileIdentity identity,
      List<Long> rowGroupRowCounts,
      byte[] footer,
      List<ChunkPageLayout> pages) {
    return addDataFile(identity, rowGroupRowCounts, footer, pages, Map.of());
  }

  /**
   * As {@link #addDataFile(DataFileIdentity, List, byte[], List)}, keeping Parquet dictionary pages
   * with the segment (its {@code dictionary-pages} part; none when empty).
   *
   * @param dictionaryPages each kept page's bytes (header included) by the file offset of its
   *     header, which must be a chunk's dictionary page in {@code pages}
   */
  public SegmentBuilder addDataFile(
      DataFileIdentity identity,
      List<Long> rowGroupRowCounts,
      byte[] footer,
      List<ChunkPageLayout> pages,
      Map<Long, byte[]> dictionaryPages) {
    checkOpen();
    checkDictionaryPages(identity, pages, dictionaryPages);
    int firstDoc = 0;
    for (DataFileInput file : files) {
      firstDoc += (int) file.identity().recordCount();
    }
    // Validates the row counts against the record count now rather than at write time.
    new DataFileEntry(identity, firstDoc, rowGroupRowCounts);
    files.add(
        new DataFileInput(
            identity,
            ImmutableList.copyOf(rowGroupRowCounts),
            footer.clone(),
            ImmutableList.copyOf(pages),
            new TreeMap<>(dictionaryPages)));
    return this;
  }

  /** Kept pages must be the dictionary pages the layouts name, byte for byte their size. */
  private static void checkDictionaryPages(
      DataFileIdentity identity, List<ChunkPageLayout> pages, Map<Long, byte[]> dictionaryPages) {
    Map<Long, Integer> sizes = new HashMap<>();
    for (ChunkPageLayout chunk : pages) {
      if (chunk.hasDictionaryPage()) {
        sizes.put(chunk.dictionaryOffset(), chunk.dictionarySize());
      }
    }
    for (Map.Entry<Long, byte[]> page : dictionaryPages.entrySet()) {
      Integer size = sizes.get(page.getKey());
      if (size == null || size != page.getValue().length) {
        throw new IllegalArgumentException(
            "Cannot keep the page at offset %d of %s: %d bytes where the page layouts have %s (keep only chunks' dictionary pages, whole)"
                .formatted(
                    page.getKey(),
                    identity.path(),
                    page.getValue().length,
                    size == null ? "no dictionary page" : "a dictionary page of " + size));
      }
    }
  }

  /** Adds a column with the given index types (ids such as {@code "inverted"}). */
  /**
   * Adds a star-tree, written as part {@code star-tree[<ordinal>]} in the order added; its records
   * must aggregate the rows of this segment's data files, which the builder cannot check.
   */
  public SegmentBuilder addStarTree(StarTree tree) {
    checkOpen();
    starTrees.add(requireNonNull(tree, "tree is null"));
    return this;
  }

  public ColumnWriter addColumn(String column, ValueType type, Collection<String> indexIds) {
    checkOpen();
    checkNewName(column);
    ColumnWriter writer =
        new ColumnWriter(
            ColumnDescriptor.of(column, type), types(column, type, indexIds), sortedType());
    columns.put(column, writer);
    return writer;
  }

  /** Adds a MAP&lt;STRING, STRING&gt; column whose selected keys become indexed virtual columns. */
  public MapColumnWriter addMapColumn(
      String column, MapKeySelection selection, Collection<String> keyIndexIds) {
    checkOpen();
    checkNewName(column);
    MapColumnWriter writer =
        new MapColumnWriter(column, selection, types(column, ValueType.STRING, keyIndexIds));
    maps.put(column, writer);
    return writer;
  }

  /**
   * Records statistics of a column the segment does not index (from the Parquet footer), for one
   * row group of a data file or, with {@code rowGroup} -1, the whole file.
   */
  public SegmentBuilder addStatistics(
      int file, int rowGroup, String column, ColumnStatistics statistics) {
    checkOpen();
    if (file < 0
        || file >= files.size()
        || rowGroup < -1
        || rowGroup >= files.get(file).rowGroupRowCounts().size()) {
      throw new IllegalArgumentException(
          "Cannot add statistics of %s for file %d row group %d: the segment has %d files"
              .formatted(column, file, rowGroup, files.size()));
    }
    if (columns.containsKey(column) || maps.containsKey(column)) {
      throw new IllegalArgumentException(
          "Cannot add statistics of column %s: the segment computes them from its values"
              .formatted(column));
    }
    if (suppliedStatistics.putIfAbsent(
            new StatisticsKey(file, rowGroup, column),
            requireNonNull(statistics, "statistics is null"))
        != null) {
      throw new IllegalArgumentException(
          "Cannot add statistics of column %s for file %d row group %d twice"
              .formatted(column, file, rowGroup));
    }
    return this;
  }

  private List<IndexType> types(String column, ValueType type, Collection<String> indexIds) {
    List<IndexType> types = new ArrayList<>();
    for (String id : new TreeSet<>(indexIds)) {
      IndexType indexType = indexes.get(id);
      if (!indexType.supports(type)) {
        throw new IllegalArgumentException(
            "Cannot build a %s index on %s column %s (not supported for that type)"
                .formatted(id, type, column));
      }
      types.add(indexType);
    }
    return types;
  }

  private Optional<IndexType> sortedType() {
    return sortedReplaces ? indexes.find(SortedIndexType.ID) : Optional.empty();
  }

  private void checkNewName(String column) {
    requireNonNull(column, "column is null");
    if (columns.containsKey(column) || maps.containsKey(column)) {
      throw new IllegalArgumentException("Cannot add column " + column + " twice");
    }
  }

  private void checkOpen() {
    if (written) {
      throw new IllegalStateException("Cannot change segment " + name + ": it has been written");
    }
  }

  /** Writes the segment to {@code path} through a temporary file and an atomic move. */
  public long writeTo(Path path) throws IOException {
    Path temporary =
        path.resolveSibling(path.getFileName() + ".tmp-" + ProcessHandle.current().pid());
    try {
      long size;
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(temporary), 1 << 16)) {
        size = writeTo(out);
      }
      Files.move(
          temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return size;
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  /** The segment's bytes. */
  public byte[] toByteArray() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    writeTo(out);
    return out.toByteArray();
  }

  /** Writes the segment to {@code out} (not closed); returns its size in bytes. */
  public long writeTo(OutputStream out) throws IOException {
    checkOpen();
    written = true;
    int docCount = docCount();
    List<DocRange> ranges = docRanges();
    SegmentFileWriter writer = new SegmentFileWriter(out);
    List<ColumnDescriptor> descriptors = new ArrayList<>();
    List<Map<String, ColumnStatistics>> fileStatistics = new ArrayList<>();
    List<List<Map<String, ColumnStatistics>>> rowGroupStatistics = new ArrayList<>();
    for (DataFileInput file : files) {
      fileStatistics.add(new TreeMap<>());
      List<Map<String, ColumnStatistics>> groups = new ArrayList<>();
      for (int g = 0; g < file.rowGroupRowCounts().size(); g++) {
        groups.add(new TreeMap<>());
      }
      rowGroupStatistics.add(groups);
    }
    for (ColumnWriter column : columns.values()) {
      writeColumn(
          writer,
          column.seal(name, ranges, columnPolicy()),
          ranges,
          descriptors,
          fileStatistics,
          rowGroupStatistics);
    }
    List<MapColumnInfo> mapInfos = new ArrayList<>();
    for (MapColumnWriter map : maps.values()) {
      List<String> extracted = new ArrayList<>();
      for (MapKeyExtractor.ExtractedKey key : map.extractor().seal()) {
        ColumnDescriptor descriptor =
            ColumnDescriptor.mapKey(map.name(), key.key(), ValueType.STRING);
        if (columns.containsKey(descriptor.name())) {
          throw new IllegalArgumentException(
              "Cannot extract key %s of map %s: a column is already named %s"
                  .formatted(key.key(), map.name(), descriptor.name()));
        }
        ColumnWriter column =
            ColumnWriter.ofProvisionalIds(
                descriptor, map.keyIndexTypes(), sortedType(), key.values(), key.provisionalIds());
        writeColumn(
            writer,
            column.seal(name, ranges, keyPolicy()),
            ranges,
            descriptors,
            fileStatistics,
            rowGroupStatistics);
        extracted.add(key.key());
      }
      OptionalDouble minShare =
          map.selection() instanceof MapKeySelection.Auto auto
              ? OptionalDouble.of(auto.minShare())
              : OptionalDouble.empty();
      mapInfos.add(new MapColumnInfo(map.name(), minShare, extracted));
    }
    for (Map.Entry<StatisticsKey, ColumnStatistics> entry : suppliedStatistics.entrySet()) {
      StatisticsKey key = entry.getKey();
      Map<String, ColumnStatistics> target =
          key.rowGroup() < 0
              ? fileStatistics.get(key.file())
              : rowGroupStatistics.get(key.file()).get(key.rowGroup());
      target.put(key.column(), entry.getValue());
    }
    List<DataFileEntry> entries = new ArrayList<>();
    List<SegmentStatistics.FileStatistics> statistics = new ArrayList<>();
    int firstDoc = 0;
    for (int f = 0; f < files.size(); f++) {
      DataFileInput file = files.get(f);
      writer.writePart(PartKey.file(PartKinds.FOOTER, f), FOOTER_VERSION, file.footer());
      writer.writePart(
          PartKey.file(PartKinds.PAGES, f),
          PageLayouts.version(file.pages()),
          PageLayouts.serialize(file.pages()));
      if (!file.dictionaryPages().isEmpty()) {
        writer.writePart(
            PartKey.file(PartKinds.DICTIONARY_PAGES, f),
            ParquetDictionaryPages.VERSION,
            ParquetDictionaryPages.serialize(file.dictionaryPages()));
      }
      entries.add(new DataFileEntry(file.identity(), firstDoc, file.rowGroupRowCounts()));
      statistics.add(
          new SegmentStatistics.FileStatistics(fileStatistics.get(f), rowGroupStatistics.get(f)));
      firstDoc += (int) file.identity().recordCount();
    }
    if (!files.isEmpty()) {
      writer.writePart(
          PartKey.of(PartKinds.STATISTICS),
          SegmentStatistics.VERSION,
          new SegmentStatistics(statistics).serialize());
    }
    for (int t = 0; t < starTrees.size(); t++) {
      writer.writePart(
          PartKey.column(PartKinds.STAR_TREE, Integer.toString(t)),
          starTrees.get(t).version(),
          starTrees.get(t).serialize());
    }
    SegmentMetadata metadata =
        new SegmentMetadata(docCount, CREATED_BY, entries, descriptors, mapInfos);
    // Written last, right before the table of contents, so the opening tail read includes it.
    writer.writePart(PartKey.of(PartKinds.METADATA), SegmentMetadata.VERSION, metadata.serialize());
    return writer.finish();
  }

  private void writeColumn(
      SegmentFileWriter writer,
      SealedColumn sealed,
      List<DocRange> ranges,
      List<ColumnDescriptor> descriptors,
      List<Map<String, ColumnStatistics>> fileStatistics,
      List<List<Map<String, ColumnStatistics>>> rowGroupStatistics)
      throws IOException {
    String column = sealed.column().name();
    descriptors.add(sealed.column());
    writer.writePart(PartKey.column(PartKinds.NULLS, column), NULLS_VERSION, sealed.nulls());
    if (sealed.dictionary().isPresent()) {
      writer.writePart(
          PartKey.column(PartKinds.DICTIONARY, column),
          Dictionaries.VERSION,
          sealed.dictionary().get());
    }
    for (Map.Entry<String, byte[]> index : sealed.indexes().entrySet()) {
      writer.writePart(
          PartKey.column(index.getKey(), column),
          indexes.get(index.getKey()).version(),
          index.getValue());
    }
    for (int i = 0; i < ranges.size(); i++) {
      DocRange range = ranges.get(i);
      Map<String, ColumnStatistics> target =
          range.rowGroup() < 0
              ? fileStatistics.get(range.file())
              : rowGroupStatistics.get(range.file()).get(range.rowGroup());
      target.put(column, sealed.statistics().get(i));
    }
  }

  private int docCount() {
    long expected = -1;
    String source = "";
    if (!files.isEmpty()) {
      expected = 0;
      for (DataFileInput file : files) {
        expected += file.identity().recordCount();
      }
      source = "its data files hold";
    }
    for (ColumnWriter column : columns.values()) {
      expected = checkDocCount(column.column().name(), column.docCount(), expected, source);
      source = source.isEmpty() ? "column " + column.column().name() + " has" : source;
    }
    for (MapColumnWriter map : maps.values()) {
      expected = checkDocCount(map.name(), map.docCount(), expected, source);
      source = source.isEmpty() ? "column " + map.name() + " has" : source;
    }
    if (expected > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException(
          "Cannot write segment %s of %d docs (at most %d)"
              .formatted(name, expected, Integer.MAX_VALUE - 16));
    }
    return (int) Math.max(0, expected);
  }

  private long checkDocCount(String column, int docs, long expected, String source) {
    if (expected >= 0 && docs != expected) {
      throw new IllegalStateException(
          "Cannot write segment %s: column %s has %d docs but %s %d (add one value or null per row)"
              .formatted(name, column, docs, source, expected));
    }
    return docs;
  }

  private List<DocRange> docRanges() {
    List<DocRange> ranges = new ArrayList<>();
    int firstDoc = 0;
    for (int f = 0; f < files.size(); f++) {
      DataFileInput file = files.get(f);
      int fileEnd = firstDoc + (int) file.identity().recordCount();
      ranges.add(new DocRange(f, -1, firstDoc, fileEnd));
      int start = firstDoc;
      for (int g = 0; g < file.rowGroupRowCounts().size(); g++) {
        int end = start + file.rowGroupRowCounts().get(g).intValue();
        ranges.add(new DocRange(f, g, start, end));
        start = end;
      }
      firstDoc = fileEnd;
    }
    return ranges;
  }
}
