package io.shelfmark.cli.bench.baseline;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cli.bench.BenchQuery;
import io.shelfmark.cli.bench.report.DuckDbRecord;
import io.shelfmark.cli.bench.report.LatencySummary;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.QueryResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The scan baseline: each benchmark query through DuckDB's JDBC driver over the table's Parquet
 * files on local disk, DuckDB's best case (no object storage, no injected latency). Per query, a
 * fresh in-memory database: run 1 is its cold run (the operating system's page cache may already
 * hold the files: DuckDB's cold is "new process state", not "disk cold"), runs 2..N the hot ones.
 * Times are taken around the JDBC call including reading the result, as a client sees them.
 */
public final class DuckDbBaseline {
  private DuckDbBaseline() {}

  /**
   * Runs each query {@code runs} times.
   *
   * @param onQuery told each record as it is measured (progress output)
   */
  public static List<DuckDbRecord> run(
      List<BenchQuery> queries, List<Path> files, int runs, Consumer<DuckDbRecord> onQuery) {
    requireNonNull(queries, "queries is null");
    requireNonNull(files, "files is null");
    if (runs < 2) {
      throw new IllegalArgumentException(
          "Cannot run the DuckDB baseline " + runs + " times (need at least 2)");
    }
    List<DuckDbRecord> records = new ArrayList<>();
    for (BenchQuery query : queries) {
      try (DuckDbOracle duckDb = DuckDbOracle.open()) {
        duckDb.registerTable("obs.metrics", files);
        long[] times = new long[runs];
        long rows = 0;
        for (int i = 0; i < runs; i++) {
          long start = System.nanoTime();
          QueryResult result = duckDb.query(query.duckDbSql());
          times[i] = System.nanoTime() - start;
          rows = result.rows().size();
        }
        DuckDbRecord record =
            new DuckDbRecord(query.name(), times[0] / 1e6, LatencySummary.ofNanos(times), rows);
        records.add(record);
        onQuery.accept(record);
      }
    }
    return List.copyOf(records);
  }
}
