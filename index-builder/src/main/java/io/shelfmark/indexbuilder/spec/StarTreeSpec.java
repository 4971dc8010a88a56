package io.shelfmark.indexbuilder.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.segment.startree.StarTreeDimension;
import io.shelfmark.segment.startree.StarTreeMetric;
import io.shelfmark.segment.startree.StarTreeSketch;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One star-tree of a segment spec: its dimensions resolved against the table schema, the numeric
 * columns it aggregates, its leaf size and the dimensions without star nodes. Immutable.
 *
 * @param dimensions in split order
 * @param metrics the columns whose count, sum, min and max each record keeps, in first-use order
 * @param sketches the columns whose distinct values each record sketches (DISTINCTCOUNTHLL)
 * @param maxLeafRecords a node with more records is split further
 * @param minRowsPerRecord the last dimension's records are rolled up where they hold fewer rows
 *     each on average (1: never; see {@code StarTreeBuilder})
 * @param skipStarDimensions indexes into {@code dimensions} that get no star node
 */
public record StarTreeSpec(
    List<Dimension> dimensions,
    List<Metric> metrics,
    List<Sketch> sketches,
    int maxLeafRecords,
    int minRowsPerRecord,
    Set<Integer> skipStarDimensions) {
  public StarTreeSpec {
    dimensions = ImmutableList.copyOf(requireNonNull(dimensions, "dimensions is null"));
    metrics = ImmutableList.copyOf(requireNonNull(metrics, "metrics is null"));
    sketches = ImmutableList.copyOf(requireNonNull(sketches, "sketches is null"));
    skipStarDimensions = ImmutableSet.copyOf(skipStarDimensions);
    if (dimensions.isEmpty()) {
      throw new IllegalArgumentException("Cannot build a star-tree without dimensions");
    }
  }

  /**
   * A dimension: the column it reads (by field id), the map key it extracts, or the width of its
   * time bucket in the column's unit (millis for long, micros for timestamps).
   *
   * @param text the canonical text, stored in the segment and matched against queries
   * @param column the column's current name
   * @param fieldId its Iceberg field id
   * @param type the segment value type of the dimension's values
   * @param mapKey the extracted key, for a map key dimension
   * @param bucketWidth the bucket width in the column's unit, for a time bucket (0 otherwise)
   */
  public record Dimension(
      String text,
      String column,
      int fieldId,
      ValueType type,
      Optional<String> mapKey,
      long bucketWidth) {
    public Dimension {
      requireNonNull(text, "text is null");
      requireNonNull(column, "column is null");
      requireNonNull(type, "type is null");
      requireNonNull(mapKey, "mapKey is null");
    }

    StarTreeDimension segmentDimension() {
      return new StarTreeDimension(text, type);
    }
  }

  /**
   * A numeric column aggregated: LONG for integers, DOUBLE for floats and doubles; its minimum and
   * maximum kept only when {@code extremes} (a MIN or MAX of it is configured).
   */
  public record Metric(String column, int fieldId, ValueType type, boolean extremes) {
    public Metric {
      requireNonNull(column, "column is null");
      requireNonNull(type, "type is null");
    }
  }

  /**
   * A column sketched for DISTINCTCOUNTHLL: LONG for integers, DOUBLE for floats and doubles,
   * STRING for strings; the sketch's precision is the SQL function's ({@link
   * StarTreeSketch#DEFAULT_LG_K}).
   */
  public record Sketch(String column, int fieldId, ValueType type) {
    public Sketch {
      requireNonNull(column, "column is null");
      requireNonNull(type, "type is null");
    }
  }

  /** Without sketches, the text the record's own toString gave before they existed. */
  public StarTreeSpec(
      List<Dimension> dimensions,
      List<Metric> metrics,
      int maxLeafRecords,
      int minRowsPerRecord,
      Set<Integer> skipStarDimensions) {
    this(dimensions, metrics, List.of(), maxLeafRecords, minRowsPerRecord, skipStarDimensions);
  }

  /** The sketch columns as the segment describes them. */
  public List<StarTreeSketch> segmentSketches() {
    return sketches.stream()
        .map(k -> new StarTreeSketch(k.column(), k.type(), StarTreeSketch.DEFAULT_LG_K))
        .toList();
  }

  /**
   * The record's text, with the sketches only when there are some: the segment spec's fingerprint
   * hashes it, and trees without sketches must keep theirs.
   */
  @Override
  public String toString() {
    return "StarTreeSpec[dimensions="
        + dimensions
        + ", metrics="
        + metrics
        + (sketches.isEmpty() ? "" : ", sketches=" + sketches)
        + ", maxLeafRecords="
        + maxLeafRecords
        + ", minRowsPerRecord="
        + minRowsPerRecord
        + ", skipStarDimensions="
        + skipStarDimensions
        + "]";
  }

  /** The dimensions as the segment describes them. */
  public List<StarTreeDimension> segmentDimensions() {
    return dimensions.stream().map(Dimension::segmentDimension).toList();
  }

  /** The metrics as the segment describes them. */
  public List<StarTreeMetric> segmentMetrics() {
    return metrics.stream()
        .map(m -> new StarTreeMetric(m.column(), m.type(), m.extremes()))
        .toList();
  }
}
