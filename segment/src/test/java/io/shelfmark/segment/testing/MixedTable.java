package io.shelfmark.segment.testing;

import io.shelfmark.segment.index.mapkey.MapKeySelection;
import io.shelfmark.segment.spi.ColumnDescriptor;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A seeded table with one column per interesting case: every index type and value type, nulls,
 * extreme values, NaN and signed zeros, a sorted column, an all-null column, a column without
 * indexes, a column the segment does not know, and two map columns (listed and automatic keys, null
 * maps, null values, repeated keys). Column names say what they hold.
 */
public final class MixedTable {
  private MixedTable() {}

  /** Columns predicates may name, including extracted and not extracted map keys. */
  public static List<String> predicateColumns() {
    return List.of(
        "long_inverted",
        "long_range",
        "long_extremes",
        "long_sorted",
        "double_values",
        "double_dictionary",
        "string_inverted",
        "string_range",
        "string_bloom",
        "long_forward",
        "all_nulls",
        "long_no_index",
        "unindexed",
        ColumnDescriptor.mapKeyName("dimensions", "node"),
        ColumnDescriptor.mapKeyName("dimensions", "service"),
        ColumnDescriptor.mapKeyName("dimensions", "absent"),
        ColumnDescriptor.mapKeyName("dimensions", "region"),
        ColumnDescriptor.mapKeyName("labels", "a"),
        ColumnDescriptor.mapKeyName("labels", "rare"));
  }

  public static TestingTable generate(int docs, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    TestingTable table = new TestingTable(docs);
    table.column(
        "long_inverted",
        ValueType.LONG,
        longs(docs, random, 0.1, r -> Distribution.UNIFORM.draw(r, 0, 50)),
        "inverted");
    table.column(
        "long_range",
        ValueType.LONG,
        longs(docs, random, 0.2, r -> Distribution.UNIFORM.draw(r, -1e12, 1e12)),
        "range");
    long[] extremes = {
      Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1
    };
    table.column(
        "long_extremes",
        ValueType.LONG,
        longs(
            docs,
            random,
            0.05,
            r -> r.nextInt(3) == 0 ? r.nextLong() : extremes[r.nextInt(extremes.length)]),
        "range");
    table.column("long_sorted", ValueType.LONG, sorted(docs, random), "range", "inverted");
    double[] specials = {
      Double.NaN, -0.0, 0.0, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -1.5, 1.5
    };
    table.column("double_values", ValueType.DOUBLE, doubles(docs, random, 0.1, specials), "range");
    table.column(
        "double_dictionary",
        ValueType.DOUBLE,
        doubles(docs, random, 0.1, specials),
        "inverted",
        "range");
    table.column(
        "string_inverted",
        ValueType.STRING,
        strings(
            docs,
            random,
            0.15,
            r -> "host-%03d.eu-west-%d".formatted(r.nextInt(100), r.nextInt(3))),
        "inverted",
        "forward");
    table.column(
        "string_range",
        ValueType.STRING,
        strings(
            docs,
            random,
            0.1,
            r -> r.nextInt(20) == 0 ? "" : "metric." + Distribution.EXP.draw(r, 1, 40)),
        "range");
    table.column(
        "string_bloom",
        ValueType.STRING,
        strings(docs, random, 0.05, r -> "trace-" + Long.toHexString(r.nextLong(1L << 20))),
        "bloom");
    table.column(
        "long_forward",
        ValueType.LONG,
        longs(docs, random, 0.1, r -> Distribution.NORMAL.draw(r, 10, 4)),
        "forward");
    table.column("all_nulls", ValueType.LONG, new Value[docs], "inverted", "range");
    table.column("long_no_index", ValueType.LONG, longs(docs, random, 0.3, r -> r.nextLong(10)));
    table.unindexedColumn(
        "unindexed", ValueType.LONG, longs(docs, random, 0.2, r -> r.nextLong(10)));
    table.mapColumn(
        "dimensions",
        dimensions(docs, random),
        MapKeySelection.listed("node", "service", "absent"),
        "inverted",
        "forward");
    table.mapColumn("labels", labels(docs, random), MapKeySelection.auto(0.3), "inverted");
    return table;
  }

  private interface LongDraw {
    long draw(SplittableRandom random);
  }

  private interface StringDraw {
    String draw(SplittableRandom random);
  }

  private static Value[] longs(int docs, SplittableRandom random, double nullShare, LongDraw draw) {
    Value[] values = new Value[docs];
    for (int i = 0; i < docs; i++) {
      values[i] = random.nextDouble() < nullShare ? null : Value.of(draw.draw(random));
    }
    return values;
  }

  private static Value[] doubles(
      int docs, SplittableRandom random, double nullShare, double[] specials) {
    Value[] values = new Value[docs];
    for (int i = 0; i < docs; i++) {
      if (random.nextDouble() < nullShare) {
        continue;
      }
      values[i] =
          Value.of(
              random.nextInt(4) == 0
                  ? specials[random.nextInt(specials.length)]
                  : Math.round(random.nextDouble(-100, 100) * 4) / 4.0);
    }
    return values;
  }

  private static Value[] strings(
      int docs, SplittableRandom random, double nullShare, StringDraw draw) {
    Value[] values = new Value[docs];
    for (int i = 0; i < docs; i++) {
      values[i] = random.nextDouble() < nullShare ? null : Value.of(draw.draw(random));
    }
    return values;
  }

  /** Leading nulls, then non-decreasing values with repeats: a column the file is sorted on. */
  private static Value[] sorted(int docs, SplittableRandom random) {
    Value[] values = new Value[docs];
    int leading = docs == 0 ? 0 : random.nextInt(Math.max(1, docs / 20));
    long value = random.nextLong(-1000, 1000);
    for (int i = leading; i < docs; i++) {
      if (random.nextInt(4) == 0) {
        value += random.nextLong(1, 100);
      }
      values[i] = Value.of(value);
    }
    return values;
  }

  private static List<List<Map.Entry<String, String>>> dimensions(
      int docs, SplittableRandom random) {
    List<List<Map.Entry<String, String>>> rows = new ArrayList<>(docs);
    for (int i = 0; i < docs; i++) {
      if (random.nextInt(20) == 0) {
        rows.add(null);
        continue;
      }
      List<Map.Entry<String, String>> row = new ArrayList<>();
      maybe(row, random, 0.6, "node", "node-" + random.nextInt(1000));
      maybe(row, random, 0.8, "service", "svc-" + random.nextInt(10));
      maybe(row, random, 0.4, "region", "region-" + random.nextInt(5));
      maybe(row, random, 0.3, "env", random.nextBoolean() ? "prod" : "dev");
      if (random.nextInt(20) == 0) {
        row.add(Map.entry("node", "node-repeated-" + random.nextInt(3)));
      }
      java.util.Collections.shuffle(row, new java.util.Random(random.nextLong()));
      rows.add(row);
    }
    return rows;
  }

  private static List<List<Map.Entry<String, String>>> labels(int docs, SplittableRandom random) {
    List<List<Map.Entry<String, String>>> rows = new ArrayList<>(docs);
    for (int i = 0; i < docs; i++) {
      List<Map.Entry<String, String>> row = new ArrayList<>();
      maybe(row, random, 0.7, "a", "a" + random.nextInt(4));
      maybe(row, random, 0.4, "b", "b" + random.nextInt(40));
      maybe(row, random, 0.03, "rare", "r" + random.nextInt(2));
      rows.add(row);
    }
    return rows;
  }

  private static void maybe(
      List<Map.Entry<String, String>> row,
      SplittableRandom random,
      double share,
      String key,
      String value) {
    if (random.nextDouble() < share) {
      row.add(
          random.nextInt(20) == 0
              ? new java.util.AbstractMap.SimpleEntry<>(key, null)
              : Map.entry(key, value));
    }
  }

  static String describe(Value[] values) {
    return Arrays.toString(values);
  }
}
