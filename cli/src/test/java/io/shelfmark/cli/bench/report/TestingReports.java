package io.shelfmark.cli.bench.report;

import java.util.List;
import java.util.Map;

/** A small but complete {@link BenchReport} for tests: every record kind, nulls included. */
final class TestingReports {
  private TestingReports() {}

  static BenchReport sample() {
    MachineInfo machine =
        new MachineInfo(
            "Linux 6.1", "amd64", 2, "Test CPU", 8L << 30, "25", "Test VM 25", 2L << 30, 1.5);
    BenchSettings settings =
        new BenchSettings(
            20_000,
            42,
            20,
            null,
            List.of("pinned", "pinned+pages"),
            List.of("Q1", "Q2"),
            10,
            5,
            true,
            true);
    TableFigures table = new TableFigures("obs.metrics", 20_000, 150, 1_200_000, false, 3.5);
    BuildFigures build = BuildFigures.of(2.0, 20_000, 150, 0, 1_200_000, 300_000);
    List<QueryBound> bounds =
        List.of(
            new QueryBound("Q1", 1_000, 20, List.of(), 0, 0, 0, 40_000),
            new QueryBound("Q2", 100, 4, List.of("sum_rollup"), 6, 2, 9_000, 60_000));
    IoFigures none = new IoFigures(0, 0, 0, 0, 0, 0, 0);
    IoFigures q2Io = new IoFigures(12_000, 3, 3, 12_000, 1, 0, 3);
    List<QueryRecord> queries =
        List.of(
            new QueryRecord(
                "Q1",
                "pinned",
                30.0,
                none,
                new LatencySummary(10, 20, 4.0, 6.0, 3.0, 7.0),
                none,
                1_000,
                20_000,
                150,
                0,
                3,
                0,
                null,
                40.0,
                0.1,
                null,
                null,
                QueryRecord.ALL_IN_ONE,
                null),
            new QueryRecord(
                    "Q2",
                    "pinned",
                    120.0,
                    q2Io,
                    new LatencySummary(10, 60, 45.0, 50.0, 41.0, 52.0),
                    q2Io,
                    100,
                    20_000,
                    4,
                    146,
                    40,
                    9_000,
                    12_000 / 9_000.0,
                    50.0,
                    0.9,
                    null,
                    null,
                    QueryRecord.ALL_IN_ONE,
                    null)
                .withSecondIo(new IoFigures(0, 0, 0, 0, 0, 3, 0)),
            new QueryRecord(
                "Q2",
                "pinned+pages",
                null,
                null,
                new LatencySummary(10, 9, 2.0, 3.0, 1.5, 3.5),
                none,
                100,
                20_000,
                4,
                146,
                1,
                9_000,
                null,
                50.0,
                0.04,
                "Cannot run query: test | error",
                null,
                QueryRecord.ALL_IN_ONE,
                null));
    List<DuckDbRecord> duckDb =
        List.of(
            new DuckDbRecord("Q1", 80, new LatencySummary(5, 80, 40, 45, 38, 46), 1),
            new DuckDbRecord("Q2", 90, new LatencySummary(5, 90, 50, 55, 48, 56), 1));
    List<QpsSweep> sweeps =
        List.of(
            new QpsSweep(
                "Q1",
                "pinned",
                List.of(
                    new QpsStep(5, 5, 25, 25, 0, 0, 4.0, 4.0, 6.0, 0.1),
                    new QpsStep(10, 8.5, 50, 42, 0, 8, 90, 80, 140, 0.9)),
                5));
    List<TargetCheck> targets =
        Targets.evaluate(queries, bounds, duckDb, sweeps, 20_000, 2L << 30, true);
    return new BenchReport(
        BenchReport.SCHEMA_VERSION,
        "2026-01-01T00:00:00Z",
        "bin/shelfmark bench --rows 20000",
        machine,
        Map.of("shelfmark", "test", "duckdb", "v2.0.0"),
        settings,
        table,
        build,
        bounds,
        queries,
        duckDb,
        sweeps,
        targets,
        List.of("cold = a fresh child JVM"));
  }
}
