package io.shelfmark.cli.bench.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.cli.Shelfmark;
import io.shelfmark.cli.bench.BenchCommand;
import io.shelfmark.cli.bench.BenchOptions;
import io.shelfmark.cli.bench.BenchQueries;
import io.shelfmark.cli.bench.BenchQuery;
import io.shelfmark.cli.bench.report.BenchReport;
import io.shelfmark.cli.bench.report.QueryBound;
import io.shelfmark.cli.bench.report.QueryRecord;
import io.shelfmark.cli.bench.report.ReportJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;

/**
 * {@code bench --writer <python writer>} at a small scale, as the pyarrow and pyiceberg writers'
 * tests run it: every named query, one pinned mode; the report names the writer and the files'
 * {@code created_by}, and every query matches as many rows as DuckDB finds over the same files.
 */
record WriterBenchRun(BenchReport report, BenchOptions options) {
  static final long ROWS = 20_000;

  /** The Python bin/test passes as {@code -Dshelfmark.python}, or a clear error without it. */
  static String python(String modules) {
    String python = System.getProperty("shelfmark.python", "");
    if (python.isEmpty() || !Files.isExecutable(Path.of(python))) {
      throw new IllegalStateException(
          ("Cannot run the bench writer test: no Python with %s"
                  + (python.isEmpty() ? "" : " at " + python)
                  + " (run bin/test, which builds .shelfmark-build/pyenv from"
                  + " cli/src/test/python/requirements.txt and passes -Dshelfmark.python to Maven)")
              .formatted(modules));
    }
    return python;
  }

  static WriterBenchRun run(String writer, String python, Path dir) throws Exception {
    Path data = dir.resolve("data");
    Path out = dir.resolve("out");
    List<String> names = BenchQueries.known().map(BenchQuery::name).toList();
    String[] args = {
      "bench",
      "--writer",
      writer,
      "--python",
      python,
      "--rows",
      Long.toString(ROWS),
      "--queries",
      String.join(",", names),
      "--modes",
      "pinned",
      "--runs",
      "10",
      "--duckdb-runs",
      "2",
      "--latency-ms",
      "0",
      "--cold",
      "in-jvm",
      "--data-dir",
      data.toString(),
      "--out",
      out.toString()
    };
    StringWriter errors = new StringWriter();
    CommandLine line = Shelfmark.commandLine();
    line.setErr(new PrintWriter(errors));
    assertThat(line.execute(args)).as(errors.toString()).isZero();

    BenchReport report = ReportJson.read(out.resolve("bench.json"));
    assertThat(report.settings().writer()).isEqualTo(writer);
    assertThat(report.table().writer()).isEqualTo(writer);
    assertThat(report.table().rows()).isEqualTo(ROWS);
    assertThat(report.table().createdBy()).startsWith("parquet-cpp-arrow version ");
    assertThat(Files.readString(out.resolve("bench.md")))
        .contains(
            "- data files written by: " + writer + " (created_by `parquet-cpp-arrow version ");
    assertThat(report.queries()).hasSize(names.size());
    for (QueryRecord record : report.queries()) {
      QueryBound bound =
          report.bounds().stream().filter(b -> b.query().equals(record.query())).findFirst().get();
      assertThat(record.error()).as(record.query()).isNull();
      assertThat(record.totalDocs()).as(record.query()).isEqualTo(ROWS);
      // DuckDB's count of the rows the WHERE clause matches, over the same files.
      assertThat(record.docsMatched()).as(record.query()).isEqualTo(bound.matchingRows());
    }

    BenchCommand command = new BenchCommand();
    new CommandLine(command)
        .parseArgs(
            "--writer", writer, "--rows", Long.toString(ROWS), "--data-dir", data.toString());
    BenchOptions options = command.options();
    assertThat(options.writer().name()).isEqualToIgnoringCase(writer);
    assertThat(options.lakeDir().getFileName().toString()).endsWith("-" + writer);
    return new WriterBenchRun(report, options);
  }
}
