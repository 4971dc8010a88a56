package io.shelfmark.indexbuilder.spec;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.config.ConfigException;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.Violation;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.DictionaryPagesConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.MapKeySelection;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.generator.MetricsTable;
import io.shelfmark.segment.spi.ValueType;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class TestSegmentSpec {
  private static final TableIdentity TABLE = new TableIdentity("shelfmark", "obs", "metrics");

  private static final Schema WIDE =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "name", Types.StringType.get()),
          optional(3, "price", Types.DecimalType.of(10, 2)),
          optional(
              4,
              "tags",
              Types.MapType.ofOptional(5, 6, Types.StringType.get(), Types.StringType.get())),
          optional(
              7,
              "counts",
              Types.MapType.ofOptional(8, 9, Types.StringType.get(), Types.IntegerType.get())),
          optional(10, "point", Types.StructType.of(optional(11, "x", Types.DoubleType.get()))),
          optional(12, "flag", Types.BooleanType.get()),
          optional(13, "at", Types.TimestampType.withZone()),
          optional(14, "ratio", Types.FloatType.get()),
          optional(15, "blob", Types.BinaryType.get()),
          optional(16, "day", Types.DateType.get()));

  @Test
  void testBenchmarkConfigOnTheGeneratedSchema() {
    SegmentSpec spec =
        SegmentSpec.from(
            ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE),
            MetricsTable.SCHEMA);

    assertThat(spec.table()).isEqualTo("obs.metrics");
    assertThat(spec.columns())
        .extracting(ColumnSpec::name, ColumnSpec::fieldId, ColumnSpec::type)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("metric", 2, ValueType.STRING),
            org.assertj.core.groups.Tuple.tuple("org_id", 1, ValueType.LONG),
            org.assertj.core.groups.Tuple.tuple("resolution", 3, ValueType.LONG),
            org.assertj.core.groups.Tuple.tuple("logical_timestamp", 4, ValueType.LONG));
    assertThat(spec.columns().get(3).indexIds()).containsExactly("range");
    assertThat(spec.mapColumns()).hasSize(1);
    MapColumnSpec dimensions = spec.mapColumns().getFirst();
    assertThat(dimensions.name()).isEqualTo("dimensions");
    assertThat(dimensions.fieldId()).isEqualTo(7);
    assertThat(dimensions.selection())
        .isEqualTo(io.shelfmark.segment.index.mapkey.MapKeySelection.listed("node", "service"));
    assertThat(dimensions.keyIndexIds()).containsExactly("forward", "inverted");
    assertThat(spec.statisticsColumns())
        .extracting(StatisticsColumnSpec::name)
        .containsExactly("sum_rollup", "latest_rollup");
    assertThat(spec.forwardMaxCardinality()).isEqualTo(SegmentSpec.DEFAULT_FORWARD_MAX_CARDINALITY);
  }

  @Test
  void testEveryInvalidChoiceIsReportedWithItsKeyPath() {
    TableConfig config =
        TableConfig.builder(TABLE)
            .column("name", ColumnConfig.of(IndexKind.INVERTED, IndexKind.RANGE))
            .column("flag", ColumnConfig.of(IndexKind.RANGE))
            .column("price", ColumnConfig.of(IndexKind.INVERTED))
            .column("tags", ColumnConfig.of(IndexKind.INVERTED))
            .column("point.x", ColumnConfig.of(IndexKind.RANGE))
            .column("missing", ColumnConfig.of(IndexKind.BLOOM))
            .column("blob", ColumnConfig.of(IndexKind.BLOOM))
            .mapKeys("id", new MapKeySelection.Listed(List.of("a")))
            .mapKeys("counts", new MapKeySelection.Auto(0.5))
            .build();

    assertThat(SegmentSpec.validate(config, WIDE))
        .extracting(Violation::key, Violation::message)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "columns.name.indexes",
                "Cannot use columns.name.indexes: a range index needs a numeric or timestamp"
                    + " column; name is string (use inverted for equality and IN)"),
            org.assertj.core.groups.Tuple.tuple(
                "columns.flag.indexes",
                "Cannot use columns.flag.indexes: a range index needs a numeric or timestamp"
                    + " column; flag is boolean (use inverted for equality and IN)"),
            org.assertj.core.groups.Tuple.tuple(
                "columns.price.indexes",
                "Cannot use columns.price.indexes: price is decimal(10, 2): decimal columns are"
                    + " not indexed yet"),
            org.assertj.core.groups.Tuple.tuple(
                "columns.tags.indexes",
                "Cannot use columns.tags.indexes: tags is map<string, string>; only primitive"
                    + " columns take indexes (for a map, extract keys with map-keys.tags)"),
            org.assertj.core.groups.Tuple.tuple(
                "columns.point.x.indexes",
                "Cannot use columns.point.x.indexes: point.x is a nested field; only top-level"
                    + " columns are indexed yet"),
            org.assertj.core.groups.Tuple.tuple(
                "columns.missing.indexes",
                "Cannot use columns.missing.indexes: the table has no column missing (columns:"
                    + " id, name, price, tags, counts, point, flag, at, ratio, blob, day)"),
            org.assertj.core.groups.Tuple.tuple(
                "columns.blob.indexes",
                "Cannot use columns.blob.indexes: blob is binary: binary, fixed and uuid columns"
                    + " are not indexed yet (queries cannot compare them)"),
            org.assertj.core.groups.Tuple.tuple(
                "map-keys.id",
                "Cannot use map-keys.id: id is long, not a map (keys can only be extracted from"
                    + " map<string, string> columns)"),
            org.assertj.core.groups.Tuple.tuple(
                "map-keys.counts",
                "Cannot use map-keys.counts: counts is map<string, int>; keys are extracted from"
                    + " map<string, string> columns only"));

    assertThatThrownBy(() -> SegmentSpec.from(config, WIDE))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(
            "table config shelfmark.obs.metrics: Cannot use columns.name.indexes: a range index"
                + " needs a numeric or timestamp column; name is string")
        .hasMessageContaining("\ntable config shelfmark.obs.metrics: Cannot use map-keys.counts:");
  }

  @Test
  void testValidChoicesAcrossTypes() {
    TableConfig config =
        TableConfig.builder(TABLE)
            .column("id", ColumnConfig.of(IndexKind.RANGE, IndexKind.BLOOM))
            .column("at", ColumnConfig.of(IndexKind.RANGE, IndexKind.SORTED))
            .column("ratio", ColumnConfig.of(IndexKind.RANGE, IndexKind.FORWARD))
            .column("flag", ColumnConfig.of(IndexKind.INVERTED))
            .column("day", ColumnConfig.of(IndexKind.RANGE))
            .mapKeys("tags", new MapKeySelection.Auto(0.25))
            .build();

    SegmentSpec spec = SegmentSpec.from(config, WIDE);

    assertThat(spec.columns())
        .extracting(ColumnSpec::name, ColumnSpec::type)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("id", ValueType.LONG),
            org.assertj.core.groups.Tuple.tuple("at", ValueType.LONG),
            org.assertj.core.groups.Tuple.tuple("ratio", ValueType.DOUBLE),
            org.assertj.core.groups.Tuple.tuple("flag", ValueType.LONG),
            org.assertj.core.groups.Tuple.tuple("day", ValueType.LONG));
    assertThat(spec.columns().get(0).indexIds()).containsExactly("bloom", "range");
    assertThat(spec.mapColumns().getFirst().selection())
        .isEqualTo(io.shelfmark.segment.index.mapkey.MapKeySelection.auto(0.25));
    // Unindexed primitive columns of indexable types get footer statistics; others nothing.
    assertThat(spec.statisticsColumns())
        .extracting(StatisticsColumnSpec::name)
        .containsExactly("name");
  }

  @Test
  void testFingerprintFollowsWhatShapesASegment() {
    TableConfig config = ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE);
    SegmentSpec spec = SegmentSpec.from(config, MetricsTable.SCHEMA);

    assertThat(spec.fingerprint()).hasSize(12).matches("[0-9a-f]{12}");
    assertThat(SegmentSpec.from(config, MetricsTable.SCHEMA).fingerprint())
        .isEqualTo(spec.fingerprint());
    assertThat(spec.withForwardMaxCardinality(10).fingerprint()).isNotEqualTo(spec.fingerprint());
    assertThat(spec.withKeyInvertedMinDocsPerValue(0).fingerprint())
        .isNotEqualTo(spec.fingerprint());
    // Another dictionary-page budget keeps other pages: existing segments are rebuilt.
    assertThat(spec.dictionaryPages()).isEqualTo(DictionaryPagesSpec.DEFAULT);
    assertThat(spec.withDictionaryPagesMaxBytes(0).fingerprint()).isNotEqualTo(spec.fingerprint());
    DictionaryPagesSpec listed =
        SegmentSpec.from(
                TableConfig.builder(config.identity())
                    .dictionaryPages(
                        new DictionaryPagesConfig(
                            DataSize.ofBytes(12345), 0.5, Optional.of(List.of("sum_rollup"))))
                    .build(),
                MetricsTable.SCHEMA)
            .dictionaryPages();
    assertThat(listed)
        .isEqualTo(
            new DictionaryPagesSpec(
                12345,
                0.5,
                Optional.of(
                    List.of(
                        new DictionaryPagesSpec.Column(
                            "sum_rollup",
                            MetricsTable.SCHEMA.findField("sum_rollup").fieldId())))));
    assertThat(spec.withDictionaryPages(listed).fingerprint())
        .isNotEqualTo(spec.withDictionaryPages(listed.withMaxBytes(1)).fingerprint())
        .isNotEqualTo(
            spec.withDictionaryPages(new DictionaryPagesSpec(12345, 0.5, Optional.empty()))
                .fingerprint())
        .isNotEqualTo(
            spec.withDictionaryPages(new DictionaryPagesSpec(12345, 0.4, listed.columns()))
                .fingerprint());
    // A renamed column is another column name in segments: another fingerprint.
    Schema renamed =
        new Schema(
            MetricsTable.SCHEMA.columns().stream()
                .map(f -> f.name().equals("sum_rollup") ? optional(5, "total", f.type()) : f)
                .toList());
    // (Without the bundled star-tree, which names sum_rollup: a tree's columns must exist.)
    TableConfig withoutTrees =
        new TableConfig(
            config.identity(),
            config.timeColumn(),
            config.columns(),
            config.mapKeys(),
            config.replication(),
            config.refreshInterval(),
            config.dictionaryPages());
    assertThat(SegmentSpec.from(withoutTrees, renamed).fingerprint())
        .isNotEqualTo(SegmentSpec.from(withoutTrees, MetricsTable.SCHEMA).fingerprint());
  }

  @Test
  void testDictionaryPageColumnsMustBeTheTables() {
    TableConfig config =
        TableConfig.builder(new TableIdentity("shelfmark", "obs", "metrics"))
            .dictionaryPages(
                new DictionaryPagesConfig(
                    DataSize.ofBytes(1 << 20), 0.1, Optional.of(List.of("sum_rollup", "nope"))))
            .build();
    assertThat(SegmentSpec.validate(config, MetricsTable.SCHEMA))
        .extracting(Violation::message)
        .singleElement()
        .asString()
        .startsWith("Cannot use dictionary-pages.columns: the table has no column nope (columns:");
  }

  @Test
  void testRefusesInconsistentSpecs() {
    ColumnSpec column =
        new ColumnSpec("a", 1, ValueType.LONG, "long", java.util.Set.of("inverted"));
    assertThatThrownBy(
            () -> new SegmentSpec("t", List.of(column, column), List.of(), List.of(), 10, 4))
        .hasMessage("Cannot describe column a twice in a spec");
    assertThatThrownBy(() -> new DictionaryPagesSpec(1, 0, Optional.empty()))
        .hasMessage(
            "Cannot use dictionary-pages.max-share: 0.0 (expected a number above 0 and at most 1)");
    assertThatThrownBy(() -> new SegmentSpec("t", List.of(), List.of(), List.of(), -1, 4))
        .hasMessage("Cannot use forward-max-cardinality: -1 (expected 0 or more)");
    assertThatThrownBy(() -> DictionaryPagesSpec.ofMaxBytes(-1))
        .hasMessage(
            "Cannot use dictionary-pages.max-size: -1 bytes (expected 0 or more; 0 keeps no dictionary page)");
    assertThatThrownBy(() -> new SegmentSpec("t", List.of(), List.of(), List.of(), 1, Double.NaN))
        .hasMessage(
            "Cannot use key-inverted-min-docs-per-value: NaN (expected a finite number, 0 or more;"
                + " 0 keeps every inverted index)");
    assertThatThrownBy(() -> new ColumnSpec("a", 1, ValueType.LONG, "long", java.util.Set.of()))
        .hasMessage("Cannot index column a without an index");
  }
}
