package io.shelfmark.config.table;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;

/**
 * One star-tree of a table ({@code star-trees[i]}): records pre-aggregated per data file by the
 * dimensions in split order, with star nodes aggregating a dimension away. See docs/config.md.
 *
 * @param dimensions in split order ({@code dimensions})
 * @param functions the function–column pairs kept ({@code functions})
 * @param maxLeafRecords a node with more records is split further ({@code max-leaf-records})
 * @param minRowsPerRecord per combination of the other dimensions' values, the last dimension's
 *     records are kept only when they hold at least this many rows each on average, else rolled up
 *     into one ({@code min-rows-per-record}; 1, the default, keeps every record)
 * @param skipStarNodeDimensions dimensions that get no star node ({@code
 *     skip-star-node-dimensions}), by their text
 */
public record StarTreeConfig(
    List<StarTreeDimensionConfig> dimensions,
    List<StarTreeFunction> functions,
    int maxLeafRecords,
    int minRowsPerRecord,
    List<String> skipStarNodeDimensions) {
  /** The default {@code max-leaf-records}. */
  public static final int DEFAULT_MAX_LEAF_RECORDS = 10_000;

  /** The default {@code min-rows-per-record}: every record is kept. */
  public static final int DEFAULT_MIN_ROWS_PER_RECORD = 1;

  public StarTreeConfig {
    dimensions = ImmutableList.copyOf(requireNonNull(dimensions, "dimensions is null"));
    functions = ImmutableList.copyOf(requireNonNull(functions, "functions is null"));
    skipStarNodeDimensions =
        ImmutableList.copyOf(
            requireNonNull(skipStarNodeDimensions, "skipStarNodeDimensions is null"));
    checkArgument(!dimensions.isEmpty(), "Cannot use a star-tree without dimensions");
    checkArgument(!functions.isEmpty(), "Cannot use a star-tree without functions");
    checkArgument(
        maxLeafRecords >= 1,
        "Cannot use max-leaf-records: %s (expected 1 or more)",
        maxLeafRecords);
    checkArgument(
        minRowsPerRecord >= 1,
        "Cannot use min-rows-per-record: %s (expected 1 or more)",
        minRowsPerRecord);
  }
}
