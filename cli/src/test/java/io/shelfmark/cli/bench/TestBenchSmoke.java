package io.shelfmark.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.cli.Shelfmark;
import io.shelfmark.cli.bench.report.BenchReport;
import io.shelfmark.cli.bench.report.QueryRecord;
import io.shelfmark.cli.bench.report.ReportJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The whole command at a small scale through picocli: files written, records present, cold runs in
 * child JVMs (the default) whose storage requests the proxy in this JVM counts, and no child left
 * running. No timing assertions: times on a shared machine say nothing about correctness.
 */
class TestBenchSmoke {
  @TempDir Path dir;

  @Test
  void writesTheReportForEachQueryAndMode() throws Exception {
    Path out = dir.resolve("out");
    StringWriter errors = new StringWriter();
    CommandLine line = Shelfmark.commandLine();
    line.setErr(new PrintWriter(errors));
    int status =
        line.execute(
            "bench",
            "--rows",
            "20000",
            "--queries",
            "Q1,Q2-rows",
            "--modes",
            "pinned",
            "--runs",
            "10",
            "--duckdb-runs",
            "2",
            "--latency-ms",
            "5",
            "--data-dir",
            dir.resolve("data").toString(),
            "--out",
            out.toString());
    assertThat(errors.toString()).isEmpty();
    assertThat(status).isZero();
    assertThat(out.resolve("bench.json")).isRegularFile();
    assertThat(out.resolve("bench.md")).isRegularFile();
    assertThat(out.resolve("latency.png")).isRegularFile();
    assertThat(Files.size(out.resolve("latency.png"))).isPositive();

    BenchReport report = ReportJson.read(out.resolve("bench.json"));
    assertThat(report.schemaVersion()).isEqualTo(BenchReport.SCHEMA_VERSION);
    assertThat(report.table().rows()).isEqualTo(20_000);
    assertThat(report.build().segments()).isEqualTo(report.table().dataFiles());
    assertThat(report.build().indexBytes()).isPositive();
    assertThat(report.queries())
        .extracting(QueryRecord::query, QueryRecord::mode)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("Q1", "pinned"),
            org.assertj.core.groups.Tuple.tuple("Q2-rows", "pinned"));
    for (QueryRecord record : report.queries()) {
      assertThat(record.error()).as(record.query()).isNull();
      assertThat(record.hot().runs()).isEqualTo(10);
      assertThat(record.coldMs()).isNotNull();
      assertThat(record.totalDocs()).isEqualTo(20_000);
    }
    QueryRecord q1 = report.queries().get(0);
    QueryRecord q2 = report.queries().get(1);
    // The two sides of the wire agree, and Q1 is answered from pinned segments alone; Q2-rows is Q2
    // read from its rows (Q2 itself may be answered from the star-tree, reading nothing).
    assertThat(q1.hotIo().storageBytes()).isZero();
    assertThat(q1.hotIo().proxyRequests()).isZero();
    assertThat(q2.hotIo().proxyBytes()).isEqualTo(q2.hotIo().storageBytes()).isPositive();
    assertThat(q2.docsMatched()).isEqualTo(report.bounds().get(1).matchingRows());
    assertThat(q2.lowerBoundBytes()).isEqualTo(report.bounds().get(1).lowerBoundBytes());
    assertThat(report.duckDb()).hasSize(2);
    // The large-result query ran over both protocols (the whole 20,000-row table here).
    assertThat(report.notes())
        .anySatisfy(
            note ->
                assertThat(note)
                    .startsWith("Large result (pinned, LIMIT 100,000: 20,000 rows")
                    .contains("HTTP median")
                    .contains("Flight SQL median"));
    assertThat(report.settings().coldProcess()).isTrue();
    // Cold runs happened in child JVMs, whose requests crossed the proxy in this one.
    for (String run : new String[] {"pinned-Q1", "pinned-Q2-rows"}) {
      String log = Files.readString(dir.resolve("data").resolve("cold").resolve(run + ".log"));
      assertThat(log).as(run).contains("is serving on http://127.0.0.1:").contains("stopping");
      assertThat(log).as(run).doesNotContain("(pid " + ProcessHandle.current().pid() + ")");
    }
    assertThat(q1.coldIo().storageBytes()).isZero();
    assertThat(q2.coldIo().storageBytes()).isPositive();
    assertThat(q2.coldIo().proxyBytes()).isGreaterThanOrEqualTo(q2.coldIo().storageBytes());
    assertThat(
            ProcessHandle.current()
                .descendants()
                .filter(
                    p ->
                        p.info()
                            .commandLine()
                            .orElse("")
                            .contains("io.shelfmark.cli.bench.run.ColdNodeMain")))
        .as("cold node processes left running")
        .isEmpty();
    assertThat(report.targets()).isNotEmpty();

    JsonNode json = new ObjectMapper().readTree(out.resolve("bench.json").toFile());
    assertThat(json.get("queries").get(1).get("hotIo").get("sequentialRounds").isInt()).isTrue();
    assertThat(Files.readString(out.resolve("bench.md")))
        .contains("| Q2-rows | pinned |")
        .contains("![latency.png](latency.png)");
  }
}
