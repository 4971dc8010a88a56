package io.shelfmark.indexbuilder.spec;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.config.ConfigFormat;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.Violation;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.generator.MetricsTable;
import io.shelfmark.segment.spi.ValueType;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** Star-trees in the segment spec: resolved against the schema, violations, fingerprint. */
class TestStarTreeSpec {
  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "name", Types.StringType.get()),
          optional(3, "price", Types.DecimalType.of(10, 2)),
          optional(
              4,
              "tags",
              Types.MapType.ofOptional(5, 6, Types.StringType.get(), Types.StringType.get())),
          optional(7, "at", Types.TimestampType.withoutZone()),
          optional(8, "day", Types.DateType.get()),
          optional(9, "ratio", Types.FloatType.get()));

  private static TableConfig config(String starTrees) {
    return ConfigLoader.parseTable(
        """
        table: {namespace: a, name: t}
        map-keys:
          tags: {keys: [env]}
        """
            + starTrees,
        ConfigFormat.YAML,
        "t.yaml");
  }

  @Test
  void resolvesDimensionsAndMetrics() {
    SegmentSpec spec =
        SegmentSpec.from(
            config(
                """
                star-trees:
                  - dimensions: [name, "tags['env']", "dateTrunc('minute', at)", day]
                    functions: ["COUNT(*)", "SUM(id)", "MAX(ratio)", "AVG(ratio)"]
                    skip-star-node-dimensions: [day]
                """),
            SCHEMA);
    StarTreeSpec tree = spec.starTrees().getFirst();
    assertThat(tree.dimensions())
        .extracting(StarTreeSpec.Dimension::text, StarTreeSpec.Dimension::type)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("name", ValueType.STRING),
            org.assertj.core.groups.Tuple.tuple("tags['env']", ValueType.STRING),
            org.assertj.core.groups.Tuple.tuple("dateTrunc('minute', at)", ValueType.LONG),
            org.assertj.core.groups.Tuple.tuple("day", ValueType.LONG));
    // A timestamp is in micros: a minute is 60,000,000 of them.
    assertThat(tree.dimensions().get(2).bucketWidth()).isEqualTo(60_000_000L);
    assertThat(tree.metrics())
        .containsExactly(
            new StarTreeSpec.Metric("id", 1, ValueType.LONG, false),
            new StarTreeSpec.Metric("ratio", 9, ValueType.DOUBLE, true));
    assertThat(tree.skipStarDimensions()).containsExactly(3);
  }

  @Test
  void resolvesSketchColumns() {
    SegmentSpec spec =
        SegmentSpec.from(
            config(
                """
                star-trees:
                  - dimensions: [name]
                    functions: ["COUNT(*)", "DISTINCTCOUNTHLL(name)", "SUM(id)",
                        "DISTINCTCOUNTHLL(id)", "DISTINCTCOUNTHLL(ratio)"]
                """),
            SCHEMA);
    StarTreeSpec tree = spec.starTrees().getFirst();
    assertThat(tree.metrics())
        .containsExactly(new StarTreeSpec.Metric("id", 1, ValueType.LONG, false));
    assertThat(tree.sketches())
        .containsExactly(
            new StarTreeSpec.Sketch("name", 2, ValueType.STRING),
            new StarTreeSpec.Sketch("id", 1, ValueType.LONG),
            new StarTreeSpec.Sketch("ratio", 9, ValueType.DOUBLE));
    assertThat(tree.segmentSketches())
        .extracting(io.shelfmark.segment.startree.StarTreeSketch::lgK)
        .containsOnly(12);
    assertThat(tree.toString()).contains("sketches=[Sketch[column=name");
    SegmentSpec without =
        SegmentSpec.from(
            config(
                """
                star-trees:
                  - dimensions: [name]
                    functions: ["COUNT(*)", "SUM(id)"]
                """),
            SCHEMA);
    // A tree without sketches is described (and fingerprinted) as before sketches existed.
    assertThat(without.starTrees().getFirst().toString())
        .doesNotContain("sketches")
        .startsWith("StarTreeSpec[dimensions=[Dimension[text=name")
        .contains(
            "], metrics=[Metric[column=id, fieldId=1, type=LONG, extremes=false]],"
                + " maxLeafRecords=10000, minRowsPerRecord=1, skipStarDimensions=[]]");
    assertThat(without.fingerprint()).isNotEqualTo(spec.fingerprint());
  }

  @Test
  void reportsBadSketchColumnsByKeyPath() {
    List<Violation> violations =
        SegmentSpec.validate(
            config(
                """
                star-trees:
                  - dimensions: [name]
                    functions: ["DISTINCTCOUNTHLL(missing)", "DISTINCTCOUNTHLL(price)",
                        "DISTINCTCOUNTHLL(day)"]
                """),
            SCHEMA);
    assertThat(violations)
        .extracting(Violation::message)
        .containsExactly(
            "Cannot use star-trees[0].functions: the table has no column missing (columns: id,"
                + " name, price, tags, at, day, ratio)",
            "Cannot use star-trees[0].functions: DISTINCTCOUNTHLL(price): price is decimal(10, 2);"
                + " a star-tree's DISTINCTCOUNTHLL takes int, long, float, double or string columns"
                + " (leave it out: such queries are answered from the rows)",
            "Cannot use star-trees[0].functions: DISTINCTCOUNTHLL(day): day is date; a star-tree's"
                + " DISTINCTCOUNTHLL takes int, long, float, double or string columns (leave it out:"
                + " such queries are answered from the rows)");
  }

  @Test
  void reportsEveryViolationByKeyPath() {
    List<Violation> violations =
        SegmentSpec.validate(
            config(
                """
                star-trees:
                  - dimensions: [missing, price, "tags['node']", "dateTrunc('hour', name)"]
                    functions: ["SUM(name)", "MIN(price)"]
                """),
            SCHEMA);
    assertThat(violations)
        .extracting(Violation::message)
        .containsExactly(
            "Cannot use star-trees[0].dimensions: the table has no column missing (columns: id,"
                + " name, price, tags, at, day, ratio)",
            "Cannot use star-trees[0].dimensions: price is decimal(10, 2); a star-tree dimension"
                + " is a boolean, int, long, date, timestamp, float, double or string column",
            "Cannot use star-trees[0].dimensions: tags['node']: the key node is not extracted"
                + " (add it to map-keys.tags.keys)",
            "Cannot use star-trees[0].dimensions: dateTrunc('hour', name): name is string; time"
                + " buckets take a long column of epoch millis or a timestamp",
            "Cannot use star-trees[0].functions: SUM(name): name is string; star-tree functions"
                + " take int, long, float or double columns",
            "Cannot use star-trees[0].functions: MIN(price): price is decimal(10, 2); star-tree"
                + " functions take int, long, float or double columns");
  }

  @Test
  void theFingerprintFollowsTheTrees() {
    TableConfig bundled = ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE);
    TableConfig without =
        new TableConfig(
            bundled.identity(),
            bundled.timeColumn(),
            bundled.columns(),
            bundled.mapKeys(),
            bundled.replication(),
            bundled.refreshInterval(),
            bundled.dictionaryPages());
    String with = SegmentSpec.from(bundled, MetricsTable.SCHEMA).fingerprint();
    String none = SegmentSpec.from(without, MetricsTable.SCHEMA).fingerprint();
    // Adding a tree builds new segments; a table without trees keeps its old fingerprint.
    assertThat(with).isNotEqualTo(none);
    assertThat(SegmentSpec.from(without, MetricsTable.SCHEMA).starTrees()).isEmpty();
    assertThat(SegmentSpec.from(bundled, MetricsTable.SCHEMA).starTrees()).hasSize(1);
  }
}
