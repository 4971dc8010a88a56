package io.shelfmark.indexbuilder.column;

import static java.util.Objects.requireNonNull;

import io.shelfmark.indexbuilder.spec.ColumnSpec;
import io.shelfmark.indexbuilder.spec.DictionaryPagesSpec;
import io.shelfmark.indexbuilder.spec.MapColumnSpec;
import io.shelfmark.indexbuilder.spec.SegmentSpec;
import io.shelfmark.indexbuilder.spec.StarTreeSpec;
import io.shelfmark.indexbuilder.spec.StatisticsColumnSpec;
import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.ParquetLocation;
import io.shelfmark.parquet.UnsupportedParquetException;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.read.ParquetRead;
import io.shelfmark.parquet.read.RowGroupBatch;
import io.shelfmark.parquet.schema.ColumnRole;
import io.shelfmark.parquet.schema.ColumnSchema;
import io.shelfmark.parquet.schema.ParquetSchema;
import io.shelfmark.segment.build.ColumnWriter;
import io.shelfmark.segment.build.MapColumnWriter;
import io.shelfmark.segment.build.SegmentBuilder;
import io.shelfmark.segment.metadata.ColumnStatistics;
import io.shelfmark.segment.startree.StarTree;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The columns of one data file that a {@link SegmentSpec} needs, found by Iceberg field id when the
 * file's schema carries ids (else by name), checked against the spec's types, and the code that
 * moves their decoded row groups into a {@link SegmentBuilder}.
 *
 * <p>Lifecycle: {@link #resolve} → {@link #register} once the builder has the data file → {@link
 * #feed} each row group of a read of {@link #leafPaths()}, in file order. A spec column the file
 * does not have (added to the table later) is registered as all null. Not thread safe.
 */
public final class FileColumns {
  private static final Logger log = LoggerFactory.getLogger(FileColumns.class);

  private final SegmentSpec spec;
  private final ParquetFooter footer;
  private final List<String> leafPaths = new ArrayList<>();
  private final List<Optional<ResolvedColumn>> columns = new ArrayList<>();
  private final List<Optional<ResolvedMap>> maps = new ArrayList<>();
  private final List<Optional<ResolvedStatistics>> statistics = new ArrayList<>();
  private final List<ColumnFeeder> columnFeeders = new ArrayList<>();
  private final List<MapFeeder> mapFeeders = new ArrayList<>();
  private final List<StarTreeFeeder> starTreeFeeders = new ArrayList<>();
  private final Set<Integer> dictionaryPageLeaves = new HashSet<>();

  private record ResolvedColumn(ColumnSpec spec, ColumnSchema leaf, Conversion conversion) {}

  private record ResolvedMap(MapColumnSpec spec, ColumnSchema key, ColumnSchema value) {}

  private record ResolvedStatistics(
      StatisticsColumnSpec spec, ColumnSchema leaf, Conversion conversion) {}

  private FileColumns(SegmentSpec spec, ParquetFooter footer) {
    this.spec = spec;
    this.footer = footer;
  }

  /**
   * Finds the spec's columns in the file.
   *
   * @throws UnsupportedParquetException when an indexed column is stored in a form the segment
   *     cannot index (nested where a primitive is expected, another type than the schema's)
   * @throws CorruptParquetException when the file's schema does not parse
   */
  public static FileColumns resolve(SegmentSpec spec, ParquetFooter footer)
      throws UnsupportedParquetException, CorruptParquetException {
    requireNonNull(spec, "spec is null");
    requireNonNull(footer, "footer is null");
    FileColumns result = new FileColumns(spec, footer);
    result.resolveAll(new FieldNames(footer), ParquetSchema.from(footer.file(), footer.schema()));
    return result;
  }

  private void resolveAll(FieldNames names, ParquetSchema schema)
      throws UnsupportedParquetException {
    for (ColumnSpec column : spec.columns()) {
      Optional<String> field = names.find(column.fieldId(), column.name());
      Optional<ResolvedColumn> resolved = Optional.empty();
      if (field.isPresent()) {
        ColumnSchema leaf = flatLeaf(schema, field.get(), column.name());
        Conversion conversion = Conversion.of(leaf, column.type(), column.name(), where(leaf));
        resolved = Optional.of(new ResolvedColumn(column, leaf, conversion));
        leafPaths.add(leaf.dottedPath());
      }
      columns.add(resolved);
    }
    for (MapColumnSpec map : spec.mapColumns()) {
      Optional<String> field = names.find(map.fieldId(), map.name());
      Optional<ResolvedMap> resolved = Optional.empty();
      if (field.isPresent()) {
        resolved = Optional.of(mapLeaves(schema, field.get(), map));
        leafPaths.add(resolved.get().key().dottedPath());
        leafPaths.add(resolved.get().value().dottedPath());
      }
      maps.add(resolved);
    }
    for (StarTreeSpec tree : spec.starTrees()) {
      starTreeFeeders.add(starTreeFeeder(names, schema, tree));
    }
    for (StatisticsColumnSpec column : spec.statisticsColumns()) {
      statistics.add(
          names
              .find(column.fieldId(), column.name())
              .flatMap(field -> statisticsLeaf(schema, field, column)));
    }
    if (spec.dictionaryPages().columns().isEmpty()) {
      schema.columns().forEach(leaf -> dictionaryPageLeaves.add(leaf.index()));
    }
    for (DictionaryPagesSpec.Column column : spec.dictionaryPages().columns().orElse(List.of())) {
      names
          .find(column.fieldId(), column.name())
          .ifPresent(
              field ->
                  schema.columnsOfField(field).forEach(l -> dictionaryPageLeaves.add(l.index())));
    }
  }

  private StarTreeFeeder starTreeFeeder(FieldNames names, ParquetSchema schema, StarTreeSpec tree)
      throws UnsupportedParquetException {
    List<StarTreeFeeder.Source> dimensions = new ArrayList<>();
    for (StarTreeSpec.Dimension dimension : tree.dimensions()) {
      Optional<String> field = names.find(dimension.fieldId(), dimension.column());
      if (field.isEmpty()) {
        dimensions.add(new StarTreeFeeder.Absent());
      } else if (dimension.mapKey().isPresent()) {
        ResolvedMap map =
            mapLeaves(
                schema,
                field.get(),
                spec.mapColumns().stream()
                    .filter(m -> m.name().equals(dimension.column()))
                    .findFirst()
                    .orElseThrow());
        dimensions.add(
            new StarTreeFeeder.MapKey(
                leafIndex(map.key()),
                leafIndex(map.value()),
                dimension.mapKey().get().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      } else {
        ColumnSchema leaf = flatLeaf(schema, field.get(), dimension.column());
        Conversion conversion =
            Conversion.of(leaf, dimension.type(), dimension.column(), where(leaf));
        dimensions.add(
            new StarTreeFeeder.Flat(leafIndex(leaf), conversion, dimension.bucketWidth()));
      }
    }
    List<StarTreeFeeder.Source> metrics = new ArrayList<>();
    for (StarTreeSpec.Metric metric : tree.metrics()) {
      Optional<String> field = names.find(metric.fieldId(), metric.column());
      if (field.isEmpty()) {
        metrics.add(new StarTreeFeeder.Absent());
      } else {
        ColumnSchema leaf = flatLeaf(schema, field.get(), metric.column());
        Conversion conversion = Conversion.of(leaf, metric.type(), metric.column(), where(leaf));
        metrics.add(new StarTreeFeeder.Flat(leafIndex(leaf), conversion, 0));
      }
    }
    List<StarTreeFeeder.Source> sketches = new ArrayList<>();
    for (StarTreeSpec.Sketch sketch : tree.sketches()) {
      Optional<String> field = names.find(sketch.fieldId(), sketch.column());
      if (field.isEmpty()) {
        sketches.add(new StarTreeFeeder.Absent());
      } else {
        ColumnSchema leaf = flatLeaf(schema, field.get(), sketch.column());
        Conversion conversion = Conversion.of(leaf, sketch.type(), sketch.column(), where(leaf));
        sketches.add(new StarTreeFeeder.Flat(leafIndex(leaf), conversion, 0));
      }
    }
    return new StarTreeFeeder(tree, dimensions, metrics, sketches, footer.rowCount());
  }

  /** The batch index of {@code leaf} in the read, adding it to the leaves read when new. */
  private int leafIndex(ColumnSchema leaf) {
    int index = leafPaths.indexOf(leaf.dottedPath());
    if (index >= 0) {
      return index;
    }
    leafPaths.add(leaf.dottedPath());
    return leafPaths.size() - 1;
  }

  /**
   * Adds the star-trees over the rows fed to {@code builder}; a file whose columns were not read
   * (none of them in the file, or no rows) gets null rows.
   */
  public void addStarTrees(SegmentBuilder builder) {
    for (int t = 0; t < starTreeFeeders.size(); t++) {
      StarTreeFeeder feeder = starTreeFeeders.get(t);
      long start = System.nanoTime();
      StarTree tree = feeder.build(footer.rowCount());
      int collected = feeder.collectedRecords();
      if (log.isDebugEnabled()) {
        log.debug(
            "star-tree[{}] of {}: {} rows, {} records collected, {} kept ({} star, {} rolled up),"
                + " {} nodes, fed in {} ms, built in {} ms",
            t,
            footer,
            footer.rowCount(),
            collected,
            tree.recordCount(),
            tree.starRecordCount(),
            tree.rolledUpRecordCount(),
            tree.nodeCount(),
            feeder.feedNanos() / 1_000_000,
            (System.nanoTime() - start) / 1_000_000);
      }
      builder.addStarTree(tree);
    }
  }

  /**
   * The building thread's CPU time spent feeding and building this file's star-trees so far (0 when
   * the JVM does not measure thread CPU time).
   */
  public long starTreeCpuNanos() {
    long nanos = 0;
    for (StarTreeFeeder feeder : starTreeFeeders) {
      nanos += feeder.cpuNanos();
    }
    return nanos;
  }

  private ColumnSchema flatLeaf(ParquetSchema schema, String field, String column)
      throws UnsupportedParquetException {
    List<ColumnSchema> leaves = schema.columnsOfField(field);
    if (leaves.size() != 1 || leaves.get(0).isRepeated() || leaves.get(0).path().size() != 1) {
      throw new UnsupportedParquetException(
          ParquetLocation.file(footer.file()).withColumn(field),
          "indexing column %s stored as a nested or repeated field (%s)"
              .formatted(column, describe(schema, field)),
          "the table schema says it is primitive; check that the file belongs to this table");
    }
    return leaves.get(0);
  }

  private ResolvedMap mapLeaves(ParquetSchema schema, String field, MapColumnSpec map)
      throws UnsupportedParquetException {
    List<ColumnSchema> leaves = schema.columnsOfField(field);
    if (leaves.size() != 2
        || leaves.get(0).role() != ColumnRole.MAP_KEY
        || leaves.get(1).role() != ColumnRole.MAP_VALUE
        || leaves.get(0).maxRepetitionLevel() != 1
        || leaves.get(1).maxRepetitionLevel() != 1
        || Conversion.physical(leaves.get(0)) != Conversion.BINARY
        || Conversion.physical(leaves.get(1)) != Conversion.BINARY) {
      throw new UnsupportedParquetException(
          ParquetLocation.file(footer.file()).withColumn(field),
          "extracting keys of map %s stored as %s".formatted(map.name(), describe(schema, field)),
          "keys are extracted from top-level map<string, string> columns only");
    }
    return new ResolvedMap(map, leaves.get(0), leaves.get(1));
  }

  private Optional<ResolvedStatistics> statisticsLeaf(
      ParquetSchema schema, String field, StatisticsColumnSpec column) {
    List<ColumnSchema> leaves = schema.columnsOfField(field);
    if (leaves.size() != 1 || leaves.get(0).isRepeated()) {
      log.debug("No footer statistics for {} in {}: not a flat column", column.name(), footer);
      return Optional.empty();
    }
    Conversion conversion = Conversion.physical(leaves.get(0));
    if (conversion == null || conversion.valueType() != column.type()) {
      log.debug("No footer statistics for {} in {}: stored as {}", column, footer, leaves.get(0));
      return Optional.empty();
    }
    return Optional.of(new ResolvedStatistics(column, leaves.get(0), conversion));
  }

  private static String describe(ParquetSchema schema, String field) {
    List<ColumnSchema> leaves = schema.columnsOfField(field);
    return leaves.isEmpty() ? "a group of other leaves" : leaves.toString();
  }

  private ParquetLocation where(ColumnSchema leaf) {
    return ParquetLocation.file(footer.file()).withColumn(leaf.dottedPath());
  }

  /**
   * The file's leaf columns, by their index in the footer's schema, that the segment indexes: the
   * spec's columns, whose values a query reads from the segment (dictionary, forward, sorted or
   * inverted index) rather than from Parquet pages, and the key and value leaves of the map columns
   * whose keys it extracts (a query on an extracted key reads no map page; one on another key
   * does).
   */
  public Set<Integer> indexedLeaves() {
    Set<Integer> leaves = new HashSet<>();
    for (Optional<ResolvedColumn> column : columns) {
      column.ifPresent(resolved -> leaves.add(resolved.leaf().index()));
    }
    for (Optional<ResolvedMap> map : maps) {
      map.ifPresent(
          resolved -> {
            leaves.add(resolved.key().index());
            leaves.add(resolved.value().index());
          });
    }
    return Set.copyOf(leaves);
  }

  /**
   * The file's leaf columns, by their index in the footer's schema, whose dictionary pages the
   * segment may keep: every leaf, or those of the columns {@code dictionary-pages.columns} lists.
   */
  public Set<Integer> dictionaryPageLeaves() {
    return Set.copyOf(dictionaryPageLeaves);
  }

  /** The Parquet leaf columns to read, by dotted path; empty when the file has none of them. */
  public List<String> leafPaths() {
    return List.copyOf(leafPaths);
  }

  /**
   * Adds the spec's columns, map columns and footer statistics to {@code builder}, which must
   * already describe this data file as its file 0. Columns absent from the file are filled with
   * nulls now; the others wait for {@link #feed}.
   */
  public void register(SegmentBuilder builder) {
    int rows = (int) footer.rowCount();
    int batchIndex = 0;
    for (int i = 0; i < columns.size(); i++) {
      ColumnSpec columnSpec = spec.columns().get(i);
      ColumnWriter writer =
          builder.addColumn(columnSpec.name(), columnSpec.type(), columnSpec.indexIds());
      Optional<ResolvedColumn> column = columns.get(i);
      if (column.isPresent()) {
        columnFeeders.add(
            new ColumnFeeder(
                writer, column.get().conversion(), batchIndex++, where(column.get().leaf())));
      } else {
        writer.addNulls(rows);
      }
    }
    for (int i = 0; i < maps.size(); i++) {
      MapColumnSpec mapSpec = spec.mapColumns().get(i);
      MapColumnWriter writer =
          builder.addMapColumn(mapSpec.name(), mapSpec.selection(), mapSpec.keyIndexIds());
      Optional<ResolvedMap> map = maps.get(i);
      if (map.isPresent()) {
        mapFeeders.add(new MapFeeder(writer, batchIndex, batchIndex + 1, where(map.get().key())));
        batchIndex += 2;
      } else {
        boolean[] allNull = new boolean[rows];
        Arrays.fill(allNull, true);
        writer.addMaps(
            rows,
            new int[rows + 1],
            allNull,
            new byte[0],
            new int[1],
            new byte[0],
            new int[1],
            null);
      }
    }
    registerStatistics(builder);
  }

  private void registerStatistics(SegmentBuilder builder) {
    for (int i = 0; i < statistics.size(); i++) {
      StatisticsColumnSpec column = spec.statisticsColumns().get(i);
      Optional<ResolvedStatistics> resolved = statistics.get(i);
      ColumnStatistics[] rowGroups = new ColumnStatistics[footer.rowGroupCount()];
      for (int rowGroup = 0; rowGroup < rowGroups.length; rowGroup++) {
        long rows = footer.rowGroupRowCount(rowGroup);
        rowGroups[rowGroup] =
            resolved.isPresent()
                ? FooterStatistics.of(
                    footer.columnChunk(rowGroup, resolved.get().leaf().index()),
                    resolved.get().conversion(),
                    rows)
                : allNull(rows);
        builder.addStatistics(0, rowGroup, column.name(), rowGroups[rowGroup]);
      }
      builder.addStatistics(0, -1, column.name(), FooterStatistics.combine(footer, rowGroups));
    }
  }

  /** A column the file does not have reads as null in every row. */
  private static ColumnStatistics allNull(long rows) {
    return new ColumnStatistics(rows, OptionalLong.of(rows), Optional.empty(), Optional.empty());
  }

  /**
   * Tells {@code read} (of {@link #leafPaths()}, after {@link #register}) to decode only the map
   * values the segment will extract: those under listed keys.
   */
  public void selectEntries(ParquetRead read) {
    requireNonNull(read, "read is null");
    for (MapFeeder feeder : mapFeeders) {
      read.selectEntries(feeder.valueIndex(), feeder.keyIndex(), feeder::wantedValues);
    }
  }

  /**
   * Feeds one decoded row group (every row of it) of a read of {@link #leafPaths()}.
   *
   * @throws CorruptParquetException when the batch does not hold the row group's rows or a map's
   *     keys and values do not pair up
   */
  public void feed(RowGroupBatch batch) throws CorruptParquetException {
    int expected = footer.rowGroupRowCount(batch.rowGroup());
    if (batch.rows().size() != expected || batch.columns().size() != leafPaths.size()) {
      throw new CorruptParquetException(
          ParquetLocation.file(footer.file()).withRowGroup(batch.rowGroup()),
          "decoded %d rows of %d columns but the row group has %d rows and %d columns were read"
              .formatted(batch.rows().size(), batch.columns().size(), expected, leafPaths.size()));
    }
    for (ColumnFeeder feeder : columnFeeders) {
      if (feeder != null) {
        feeder.feed(batch.columns().get(feeder.batchIndex()), batch.rowGroup());
      }
    }
    for (MapFeeder feeder : mapFeeders) {
      feeder.feed(
          batch.columns().get(feeder.keyIndex()),
          batch.columns().get(feeder.valueIndex()),
          batch.rowGroup());
    }
    for (StarTreeFeeder feeder : starTreeFeeders) {
      feeder.feed(batch);
    }
  }
}
