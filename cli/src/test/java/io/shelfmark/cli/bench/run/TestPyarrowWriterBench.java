package io.shelfmark.cli.bench.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.cli.bench.BenchMode;
import io.shelfmark.cli.bench.BenchOptions;
import io.shelfmark.cli.bench.BenchQueries;
import io.shelfmark.cli.bench.BenchQuery;
import io.shelfmark.cli.bench.lake.ProxiedLake;
import io.shelfmark.cli.bench.report.BenchReport;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.node.AllInOne;
import io.shelfmark.cli.quickstart.TestQuickstart;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.ResultComparison;
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

/**
 * {@code bench --writer pyarrow} at a small scale: the table's data files are pyarrow's (footer
 * {@code created_by}, a dictionary page in every column chunk, no Java writer's metadata), the
 * report names the writer, every query matches as many rows as DuckDB finds, and every query's
 * answer over those files equals DuckDB's. Needs a Python with pyarrow: bin/test passes the venv it
 * builds as {@code -Dshelfmark.python}.
 */
class TestPyarrowWriterBench {
  @TempDir static Path dir;
  private static String python;

  @BeforeAll
  static void findPython() {
    python = WriterBenchRun.python("pyarrow");
  }

  @Test
  void benchOnPyarrowFilesMatchesDuckDb() throws Exception {
    WriterBenchRun run = WriterBenchRun.run("pyarrow", python, dir);
    BenchReport report = run.report();
    BenchOptions options = run.options();
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
}
