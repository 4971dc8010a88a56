package io.shelfmark.indexbuilder.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.segment.startree.StarTreeDimension;
import io.shelfmark.segment.startree.StarTreeMetric;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One star-tree of a segment spec: its dimensions resolved against the table schema, the numeric
 * columns it aggregates, its leaf size and the dimensions without star nodes. Immutable.
 *
 * @param dimensions in split order
 * @param metrics the columns whose count, sum, min and max each record keeps, in first-use order
 * @param maxLeafRecords a node with more records is split further
 * @param minRowsPerRecord the last dimension's records are rolled up where they hold fewer rows
 *     each on average (1: never; see {@code StarTreeBuilder})
 * @param skipStarDimensions indexes into {@code dimensions} that get no star node
 */
public record StarTreeSpec(
    List<Dimension> dimensions,
    List<Metric> metrics,
    int maxLeafRecords,
    int minRowsPerRecord,
    Set<Integer> skipStarDimensions) {
  public StarTreeSpec {
    dimensions = ImmutableList.copyOf(requireNonNull(dimensions, "dimensions is null"));
    metrics = ImmutableList.copyOf(requireNonNull(metrics, "metrics is null"));
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
