package io.shelfmark.cli.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TestMarkdownReport {
  @Test
  void rendersEveryTable() {
    String md = MarkdownReport.render(TestingReports.sample(), List.of("latency.png"));
    assertThat(md)
        .startsWith("# Shelfmark benchmark\n")
        .contains("- command: `bin/shelfmark bench --rows 20000`")
        .contains("## Table and index build")
        .contains(
            "| obs.metrics | 20,000 | 150 | 1.14 MiB | 4 s | 2.0 | 10,000 | 150 | 293 KiB | 25.0% |")
        .contains("## Lower bounds")
        .contains("| Q2 | 100 | 4 | sum_rollup | 6 | 2 | 8.79 KiB | 58.6 KiB |")
        .contains("## Latency (client-observed, ms)")
        .contains("| Q2 | pinned | 120 | 45.0 | 50.0 | – | 50.0 | 0.90 | 100 | 4 | 146 |  |")
        .contains("## Object-storage traffic per query")
        .contains(
            "| Q2 | pinned | 11.7 KiB / 11.7 KiB | 3 / 3 | 1 | 0 B (3 / 0) | 11.7 KiB / 11.7 KiB |"
                + " 3 / 3 | 1 | 0 / 3 | 8.79 KiB | 1.33 |")
        .contains("## Scan baseline: DuckDB")
        .contains("## QPS sweeps")
        .contains("| Q1 | pinned | 10 | 8.5 | 90.0 | 80.0 | 140 | 90% | 0 | 8 |")
        .contains("| Q1 | pinned | 5.0 |")
        .contains("## Targets")
        .contains("![latency.png](latency.png)")
        .contains("- cold = a fresh child JVM");
  }

  @Test
  void missingValuesShowAsDashesAndPipesInErrorsAreEscaped() {
    String md = MarkdownReport.render(TestingReports.sample(), List.of());
    assertThat(md)
        .contains(
            "| Q2 | pinned+pages | – | 2.00 | 3.00 | – | 50.0 | 0.04 | 100 | 4 | 146 |"
                + " Cannot run query: test / error |")
        .contains("| Q2 | pinned+pages | – | – | – |")
        .doesNotContain("## Charts");
  }

  @Test
  void targetsSayMetOrMissedAndByHowMuch() {
    String md = MarkdownReport.render(TestingReports.sample(), List.of());
    assertThat(md)
        .contains(
            "| Q1 hot median ≤ 10 ms (pinned) | 4 ms | met | met (4 ms, 60% under target ≤ 10"
                + " ms) |")
        .contains(
            "| Q2 hot median ≤ 30 ms (pinned) | 45 ms | missed | missed by 1.50× the target"
                + " (45 ms, target ≤ 30 ms) |")
        .contains(
            "| Q3 hot median ≤ 35 ms (pinned) | – | not-measured | not measured in this run |");
  }

  @Test
  void bytesUseBinaryUnits() {
    assertThat(MarkdownReport.bytes(0)).isEqualTo("0 B");
    assertThat(MarkdownReport.bytes(1023)).isEqualTo("1023 B");
    assertThat(MarkdownReport.bytes(1024)).isEqualTo("1.00 KiB");
    assertThat(MarkdownReport.bytes(6_720_000)).isEqualTo("6.41 MiB");
    assertThat(MarkdownReport.bytes(5L << 30)).isEqualTo("5.00 GiB");
  }
}
