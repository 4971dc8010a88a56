package io.shelfmark.cli.bench.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.cli.Shelfmark;
import io.shelfmark.cli.bench.BenchCommand;
import io.shelfmark.cli.bench.BenchMode;
import io.shelfmark.cli.bench.BenchOptions;
import io.shelfmark.cli.bench.BenchQueries;
import io.shelfmark.cli.bench.BenchQuery;
import io.shelfmark.cli.bench.BenchWriter;
import io.shelfmark.cli.bench.lake.ProxiedLake;
import io.shelfmark.cli.bench.report.BenchReport;
import io.shelfmark.cli.bench.report.QueryBound;
import io.shelfmark.cli.bench.report.QueryRecord;
import io.shelfmark.cli.bench.report.ReportJson;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.node.AllInOne;
import io.shelfmark.cli.quickstart.TestQuickstart;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.ResultComparison;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code bench --writer pyarrow} at a small scale: the table's data files are pyarrow's (footer
 * {@code created_by}, a dictionary page in every column chunk, no Java writer's metadata), the
 * report names the writer, every query matches as many rows as DuckDB finds, and every query's
 * answer over those files equals DuckDB's. Needs a Python with pyarrow: bin/test passes the venv it
 * builds as {@code -Dshelfmark.python}.
 */
class TestPyarrowWriterBench {
  private static final long ROWS = 20_000;
  @TempDir static Path dir;
  private static String python;

  @BeforeAll
  static void findPython() {
    python = System.getProperty("shelfmark.python", "");
    if (python.isEmpty() || !Files.isExecutable(Path.of(python))) {
      throw new IllegalStateException(
          "Cannot run the pyarrow writer's bench test: no Python with pyarrow"
              + (python.isEmpty() ? "" : " at " + python)
              + " (run bin/test, which builds .shelfmark-build/pyenv from"
              + " cli/src/test/python/requirements.txt and passes -Dshelfmark.python to Maven)");
    }
  }

  @Test
  void benchOnPyarrowFilesMatchesDuckDb() throws Exception {
    Path data = dir.resolve("data");
    Path out = dir.resolve("out");
    List<String> names = BenchQueries.known().map(BenchQuery::name).toList();
    String[] args = {
      "bench",
      "--writer",
      "pyarrow",
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
    assertThat(report.settings().writer()).isEqualTo("pyarrow");
    assertThat(report.table().writer()).isEqualTo("pyarrow");
    assertThat(report.table().rows()).isEqualTo(ROWS);
    assertThat(report.table().createdBy()).startsWith("parquet-cpp-arrow version ");
    assertThat(Files.readString(out.resolve("bench.md")))
        .contains("- data files written by: pyarrow (created_by `parquet-cpp-arrow version ");
    assertThat(report.queries()).hasSize(names.size());
    for (QueryRecord record : report.queries()) {
      QueryBound bound =
          report.bounds().stream().filter(b -> b.query().equals(record.query())).findFirst().get();
      assertThat(record.error()).as(record.query()).isNull();
      assertThat(record.totalDocs()).as(record.query()).isEqualTo(ROWS);
      // DuckDB's count of the rows the WHERE clause matches, over the same files.
      assertThat(record.docsMatched()).as(record.query()).isEqualTo(bound.matchingRows());
    }

    BenchOptions options = options(data);
    assertThat(options.lakeDir().getFileName().toString()).endsWith("-pyarrow");
    try (ProxiedLake lake =
        ProxiedLake.start(options.lakeDir(), Duration.ZERO, OptionalLong.empty())) {
      List<Path> files =
          BenchTable.localFiles(lake, lake.lake().catalog().loadTable(BenchTable.ID));
      assertThat(files).hasSize((int) report.table().dataFiles());
      for (Path file : files) {
        assertPyarrowLayout(file);
      }
      assertAnswersEqualDuckDb(lake, options, files);
    }
  }

  /** Written by pyarrow, with a dictionary page in every column chunk. */
  private static void assertPyarrowLayout(Path file) throws Exception {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
      assertThat(reader.getFileMetaData().getCreatedBy())
          .as(file.toString())
          .startsWith("parquet-cpp-arrow version ");
      assertThat(reader.getFileMetaData().getKeyValueMetaData())
          .as("%s carries no Java writer's metadata", file)
          .doesNotContainKey("iceberg.schema");
      assertThat(reader.getRowGroups()).isNotEmpty();
      for (BlockMetaData rowGroup : reader.getRowGroups()) {
        assertThat(rowGroup.getColumns()).hasSize(8);
        for (ColumnChunkMetaData column : rowGroup.getColumns()) {
          assertThat(column.hasDictionaryPage())
              .as("%s column %s has a dictionary page", file, column.getPath())
              .isTrue();
        }
      }
    }
  }

  /** Every bench query over the Python-written files, through a node and through DuckDB. */
  static void assertAnswersEqualDuckDb(ProxiedLake lake, BenchOptions options, List<Path> files)
      throws Exception {
    List<String> failures = new ArrayList<>();
    try (AllInOne node =
            new BenchNodes(lake).start(BenchMode.PINNED, options.nodeDir(BenchMode.PINNED));
        DuckDbOracle duckDb = DuckDbOracle.open()) {
      duckDb.registerTable("obs.metrics", files);
      BrokerClient broker = new BrokerClient(node.url());
      for (BenchQuery query : BenchQueries.known().toList()) {
        JsonNode response = broker.query(query.sql(), Optional.of(Duration.ofMinutes(1)));
        if (!response.path("exceptions").isEmpty()) {
          failures.add(query.name() + ": " + response.path("exceptions"));
          continue;
        }
        assertThat(response.path("resultTable").path("rows").size())
            .as(query.name() + " returns rows")
            .isPositive();
        ResultComparison.difference(
                duckDb.query(query.duckDbSql()),
                TestQuickstart.resultOf(response),
                false,
                1e-9,
                Map.of())
            .ifPresent(difference -> failures.add(query.name() + ": " + difference));
      }
    }
    assertThat(failures).isEmpty();
  }

  private static BenchOptions options(Path data) {
    BenchCommand command = new BenchCommand();
    new CommandLine(command)
        .parseArgs(
            "--writer", "pyarrow", "--rows", Long.toString(ROWS), "--data-dir", data.toString());
    BenchOptions options = command.options();
    assertThat(options.writer()).isEqualTo(BenchWriter.PYARROW);
    return options;
  }
}
