package io.shelfmark.cli.bench;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One query of the benchmark in both dialects, with what its lower bound of bytes counts.
 *
 * @param name {@code Q1} … {@code Q4}
 * @param sql the query as Shelfmark receives it (Pinot dialect, as written in BENCHMARK.md)
 * @param duckDbSql the same query for DuckDB over {@code obs.metrics} registered as a view
 * @param duckDbWhere the WHERE clause alone, in DuckDB's dialect, for finding matching rows
 * @param neededColumns the Parquet columns (top-level names; a map stands for its key and value
 *     leaves) whose pages the query must read for its matching rows, beyond what the segment's
 *     indexes answer; empty when the segment answers alone (Q1)
 * @param scanColumns every column the query references, which a scan engine reads
 */
public record BenchQuery(
    String name,
    String sql,
    String duckDbSql,
    String duckDbWhere,
    List<String> neededColumns,
    List<String> scanColumns) {
  public BenchQuery {
    requireNonNull(name, "name is null");
    requireNonNull(sql, "sql is null");
    requireNonNull(duckDbSql, "duckDbSql is null");
    requireNonNull(duckDbWhere, "duckDbWhere is null");
    neededColumns = List.copyOf(requireNonNull(neededColumns, "neededColumns is null"));
    scanColumns = List.copyOf(requireNonNull(scanColumns, "scanColumns is null"));
  }
}
