package io.shelfmark.cli.bench.report;

import static java.util.Objects.requireNonNull;

/**
 * The scan baseline for one query: DuckDB's JDBC driver over the same Parquet files on local disk
 * (its best case: no network, OS page cache warm after the first run).
 *
 * @param query Q1 … Q4
 * @param coldMs the first run in a fresh in-memory database
 * @param hot runs 2..N
 * @param resultRows rows of the answer (a check that both engines ran the same query)
 */
public record DuckDbRecord(String query, double coldMs, LatencySummary hot, long resultRows) {
  public DuckDbRecord {
    requireNonNull(query, "query is null");
    requireNonNull(hot, "hot is null");
  }
}
