package io.shelfmark.cli.bench.report;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What any reader must fetch for one query, computed from the data files' layout (see {@code
 * LowerBoundCalculator}), and what a scan engine reads.
 *
 * @param query Q1 … Q4
 * @param matchingRows rows that satisfy the WHERE clause
 * @param filesWithMatches data files holding at least one matching row
 * @param neededColumns the columns whose pages count (the rule is in docs/performance.md)
 * @param dataPages data pages of needed columns holding a matching row
 * @param dictionaryPages dictionary pages counted (a needed page is dictionary-encoded)
 * @param lowerBoundBytes compressed bytes (page headers included) of those pages
 * @param scanBytes compressed bytes of every column the query references, in the row groups that
 *     hold a matching row: what a scan engine with perfect file and row-group pruning reads
 */
public record QueryBound(
    String query,
    long matchingRows,
    long filesWithMatches,
    List<String> neededColumns,
    long dataPages,
    long dictionaryPages,
    long lowerBoundBytes,
    long scanBytes) {
  public QueryBound {
    requireNonNull(query, "query is null");
    neededColumns = List.copyOf(requireNonNull(neededColumns, "neededColumns is null"));
  }
}
