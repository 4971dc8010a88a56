package io.shelfmark.exchange.profile;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * How a file answered from a star-tree of its segment was answered: the tree, the records its
 * traversal visited, and the row path that read the unaligned time edges.
 *
 * <p>The tree part reads nothing from Parquet: the file's pages, requests and bytes are its edges'.
 *
 * @param dimensions the tree's dimensions in split order, such as {@code dateTrunc('second',
 *     logical_timestamp)}
 * @param recordsVisited the tree records the traversal aggregated (pre-aggregated rows, not rows of
 *     the file)
 * @param rows the file's rows those records aggregate
 * @param edges per range of rows a time filter cuts out of a bucket, the profile of that range read
 *     through the row path (empty when the filter is aligned to the buckets)
 */
public record StarTreeProfile(
    List<String> dimensions, long recordsVisited, long rows, List<FileProfile> edges) {
  public StarTreeProfile {
    dimensions = List.copyOf(requireNonNull(dimensions, "dimensions is null"));
    edges = List.copyOf(requireNonNull(edges, "edges is null"));
  }
}
