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
 * @param skipStarNodeDimensions dimensions that get no star node ({@code
 *     skip-star-node-dimensions}), by their text
 */
public record StarTreeConfig(
    List<StarTreeDimensionConfig> dimensions,
    List<StarTreeFunction> functions,
    int maxLeafRecords,
    List<String> skipStarNodeDimensions) {
  /** The default {@code max-leaf-records}. */
  public static final int DEFAULT_MAX_LEAF_RECORDS = 10_000;

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
  }
}
