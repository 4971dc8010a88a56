package io.shelfmark.indexbuilder.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.hash.Hashing;
import io.shelfmark.config.ConfigException;
import io.shelfmark.config.Violation;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.segment.format.SegmentFormat;
import io.shelfmark.segment.startree.StarTree;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.Schema;

/**
 * What the segments of one table hold, derived from its table config and Iceberg schema: the
 * indexed columns with their value types and index ids, the map columns whose keys are extracted,
 * the columns that only get footer statistics, and the forward index policy. Every data file of the
 * table gets a segment built from the same spec; the spec's {@link #fingerprint()} is part of the
 * segment's location, so a changed config never reuses segments built for the old one.
 *
 * <p>Columns are matched to a data file's Parquet columns by Iceberg field id when the file carries
 * ids (Iceberg writers always do), else by name: a renamed column still finds its data, and a
 * column added after a file was written is null in that file's segment.
 *
 * <p>Immutable and thread safe.
 *
 * @param table the table's qualified name ({@code obs.metrics}), for locations and messages
 * @param columns the indexed columns, in config order
 * @param mapColumns the map columns with extracted keys, in config order
 * @param statisticsColumns primitive columns without indexes, in schema order: their footer
 *     statistics are copied into the segment for pruning
 * @param forwardMaxCardinality a column or extracted key gets its forward index only when its
 *     dictionary in the data file holds at most this many values (see {@link
 *     #DEFAULT_FORWARD_MAX_CARDINALITY})
 * @param keyInvertedMinDocsPerValue an extracted map key gets its inverted index only when its
 *     values average at least this many docs each in the data file, else a bloom index (see {@link
 *     #DEFAULT_KEY_INVERTED_MIN_DOCS_PER_VALUE})
 * @param dictionaryPages the budget for the Parquet dictionary pages kept with each data file's
 *     segment, so a pinned server fetches only data pages ({@code dictionary-pages.*})
 * @param starTrees the star-trees built per data file ({@code star-trees}), in config order
 */
public record SegmentSpec(
    String table,
    List<ColumnSpec> columns,
    List<MapColumnSpec> mapColumns,
    List<StatisticsColumnSpec> statisticsColumns,
    int forwardMaxCardinality,
    double keyInvertedMinDocsPerValue,
    DictionaryPagesSpec dictionaryPages,
    List<StarTreeSpec> starTrees) {
  /**
   * The default {@code forward-max-cardinality}. A forward index costs {@code log2(cardinality)}
   * bits per doc and pays off for GROUP BY on dimensions such as a service or a region; a
   * 100,000-value node id would cost 17 bits per row and nobody groups by it. 1024 keeps every
   * dimension a dashboard groups by and drops identifiers.
   */
  public static final int DEFAULT_FORWARD_MAX_CARDINALITY = 1024;

  /**
   * The default {@code key-inverted-min-docs-per-value}. An inverted index over a map key whose
   * values are nearly unique in a file (a node id in a small file) holds a dictionary entry and a
   * posting list per doc, 8 to 14 bytes, more than the values take in Parquet; a bloom filter
   * answers equality with candidates at about 1.3 bytes per value. Below 4 docs per value the bloom
   * filter wins by far; above, the inverted index's exact answers are worth their size. Files where
   * a needle query matters (large, many rows per value) keep their inverted index.
   */
  public static final double DEFAULT_KEY_INVERTED_MIN_DOCS_PER_VALUE = 4;

  /**
   * Bumped when the builder starts writing different segments for the same spec (a new part, a new
   * encoding choice), so existing segments are rebuilt rather than reused.
   */
  static final int BUILDER_VERSION = 6;

  public SegmentSpec {
    requireNonNull(table, "table is null");
    columns = ImmutableList.copyOf(requireNonNull(columns, "columns is null"));
    mapColumns = ImmutableList.copyOf(requireNonNull(mapColumns, "mapColumns is null"));
    statisticsColumns =
        ImmutableList.copyOf(requireNonNull(statisticsColumns, "statisticsColumns is null"));
    starTrees = ImmutableList.copyOf(requireNonNull(starTrees, "starTrees is null"));
    if (forwardMaxCardinality < 0) {
      throw new IllegalArgumentException(
          "Cannot use forward-max-cardinality: " + forwardMaxCardinality + " (expected 0 or more)");
    }
    if (!(keyInvertedMinDocsPerValue >= 0) || Double.isInfinite(keyInvertedMinDocsPerValue)) {
      throw new IllegalArgumentException(
          "Cannot use key-inverted-min-docs-per-value: "
              + keyInvertedMinDocsPerValue
              + " (expected a finite number, 0 or more; 0 keeps every inverted index)");
    }
    requireNonNull(dictionaryPages, "dictionaryPages is null");
    Set<String> names = new HashSet<>();
    for (ColumnSpec column : columns) {
      checkNew(names, column.name());
    }
    for (MapColumnSpec map : mapColumns) {
      checkNew(names, map.name());
    }
    for (StatisticsColumnSpec column : statisticsColumns) {
      checkNew(names, column.name());
    }
  }

  /** A spec without star-trees. */
  public SegmentSpec(
      String table,
      List<ColumnSpec> columns,
      List<MapColumnSpec> mapColumns,
      List<StatisticsColumnSpec> statisticsColumns,
      int forwardMaxCardinality,
      double keyInvertedMinDocsPerValue,
      DictionaryPagesSpec dictionaryPages) {
    this(
        table,
        columns,
        mapColumns,
        statisticsColumns,
        forwardMaxCardinality,
        keyInvertedMinDocsPerValue,
        dictionaryPages,
        List.of());
  }

  /** A spec keeping the default budget of dictionary pages. */
  public SegmentSpec(
      String table,
      List<ColumnSpec> columns,
      List<MapColumnSpec> mapColumns,
      List<StatisticsColumnSpec> statisticsColumns,
      int forwardMaxCardinality,
      double keyInvertedMinDocsPerValue) {
    this(
        table,
        columns,
        mapColumns,
        statisticsColumns,
        forwardMaxCardinality,
        keyInvertedMinDocsPerValue,
        DictionaryPagesSpec.DEFAULT,
        List.of());
  }

  private static void checkNew(Set<String> names, String name) {
    if (!names.add(name)) {
      throw new IllegalArgumentException("Cannot describe column " + name + " twice in a spec");
    }
  }

  /**
   * The spec for a table config over the table's current schema, with the default forward policy.
   *
   * @throws ConfigException listing every index choice the schema cannot honour, each naming its
   *     key path, such as {@code columns.metric.indexes}
   */
  public static SegmentSpec from(TableConfig config, Schema schema) {
    requireNonNull(config, "config is null");
    requireNonNull(schema, "schema is null");
    SpecBinder binder = new SpecBinder(config, schema);
    SegmentSpec spec = binder.bind();
    if (!binder.violations().isEmpty()) {
      throw new ConfigException("table config " + config.identity(), binder.violations());
    }
    return spec;
  }

  /**
   * Every index choice of {@code config} that {@code schema} cannot honour; empty when the config
   * fits. For the controller to report at onboarding without building anything.
   */
  public static List<Violation> validate(TableConfig config, Schema schema) {
    requireNonNull(config, "config is null");
    requireNonNull(schema, "schema is null");
    SpecBinder binder = new SpecBinder(config, schema);
    binder.bind();
    return binder.violations();
  }

  /** This spec with another forward policy. */
  public SegmentSpec withForwardMaxCardinality(int maxCardinality) {
    return new SegmentSpec(
        table,
        columns,
        mapColumns,
        statisticsColumns,
        maxCardinality,
        keyInvertedMinDocsPerValue,
        dictionaryPages,
        starTrees);
  }

  /** This spec with another inverted-or-bloom policy for extracted map keys. */
  public SegmentSpec withKeyInvertedMinDocsPerValue(double minDocsPerValue) {
    return new SegmentSpec(
        table,
        columns,
        mapColumns,
        statisticsColumns,
        forwardMaxCardinality,
        minDocsPerValue,
        dictionaryPages,
        starTrees);
  }

  /** This spec keeping at most {@code maxBytes} of Parquet dictionary pages per data file. */
  public SegmentSpec withDictionaryPagesMaxBytes(long maxBytes) {
    return withDictionaryPages(dictionaryPages.withMaxBytes(maxBytes));
  }

  /** This spec with another budget for Parquet dictionary pages. */
  public SegmentSpec withDictionaryPages(DictionaryPagesSpec budget) {
    return new SegmentSpec(
        table,
        columns,
        mapColumns,
        statisticsColumns,
        forwardMaxCardinality,
        keyInvertedMinDocsPerValue,
        budget,
        starTrees);
  }

  /**
   * A short stable hash of everything that shapes a segment built from this spec (columns, field
   * ids, types, indexes, map keys, forward policy, dictionary-page budget, star-trees, segment
   * format and builder versions): equal specs give equal fingerprints in every process.
   */
  public String fingerprint() {
    List<String> parts = new ArrayList<>();
    parts.add("format " + SegmentFormat.MAJOR_VERSION + ", builder " + BUILDER_VERSION);
    parts.add("forward-max-cardinality " + forwardMaxCardinality);
    parts.add("key-inverted-min-docs-per-value " + keyInvertedMinDocsPerValue);
    parts.add(dictionaryPages.describe());
    for (ColumnSpec column : columns) {
      parts.add("column " + column);
    }
    for (MapColumnSpec map : mapColumns) {
      parts.add("map " + map);
    }
    for (StatisticsColumnSpec column : statisticsColumns) {
      parts.add("statistics " + column);
    }
    // Only when there are some: segments of tables without star-trees keep their fingerprint.
    for (StarTreeSpec tree : starTrees) {
      // A tree without sketches keeps layout 2 (and so its fingerprint) though the reader is 3.
      parts.add("star-tree v" + StarTree.layoutVersion(!tree.sketches().isEmpty()) + " " + tree);
    }
    return Hashing.sha256()
        .hashString(String.join("\n", parts), StandardCharsets.UTF_8)
        .toString()
        .substring(0, 12);
  }
}
