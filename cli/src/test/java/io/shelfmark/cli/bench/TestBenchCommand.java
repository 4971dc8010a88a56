package io.shelfmark.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.cli.Shelfmark;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class TestBenchCommand {
  @Test
  void helpExplainsEveryOptionAndTheOutputs() {
    StringWriter text = new StringWriter();
    CommandLine line = Shelfmark.commandLine();
    line.setOut(new PrintWriter(text));
    int status = line.execute("bench", "--help");
    assertThat(status).isZero();
    assertThat(text.toString())
        .contains("Usage: shelfmark bench")
        .contains("latency-injecting proxy")
        .contains("DIR/bench.json")
        .contains("--rows=<rows>")
        .contains("--latency-ms=<latencyMs>")
        .contains("--modes=<modes>")
        .contains("--queries=<queries>")
        .contains("--qps-sweep")
        .contains("--cold=<cold>")
        .contains("in-jvm (a fresh node")
        .contains("--out=<out>")
        .contains("--data-dir=<dataDir>")
        .contains("--writer=<writer>")
        .contains("--python=<python>")
        .contains("20000000")
        .contains("pinned+pages");
  }

  @Test
  void parsesOptions() {
    BenchCommand command = new BenchCommand();
    new CommandLine(command)
        .parseArgs(
            "--rows",
            "20000",
            "--queries",
            "q1,Q2",
            "--modes",
            "pinned",
            "--latency-ms",
            "5",
            "--bandwidth-mib",
            "100",
            "--out",
            "/tmp/x");
    BenchOptions options = command.options();
    assertThat(options.rows()).isEqualTo(20_000);
    assertThat(options.queries()).containsExactly(BenchQueries.Q1, BenchQueries.Q2);
    assertThat(options.modes()).containsExactly(BenchMode.PINNED);
    assertThat(options.latency()).isEqualTo(Duration.ofMillis(5));
    assertThat(options.bandwidth()).hasValue(100L << 20);
    assertThat(options.outDir()).isEqualTo(Path.of("/tmp/x"));
    assertThat(options.cold()).isEqualTo(ColdStart.PROCESS);
    assertThat(options.nodeDir(BenchMode.PINNED_PAGES).getFileName().toString())
        .isEqualTo("pinned-pages");
  }

  @Test
  void defaultsAreTheIssues() {
    BenchCommand command = new BenchCommand();
    new CommandLine(command).parseArgs();
    BenchOptions options = command.options();
    assertThat(options.rows()).isEqualTo(20_000_000);
    assertThat(options.latency()).isEqualTo(Duration.ofMillis(20));
    assertThat(options.modes())
        .containsExactly(BenchMode.REMOTE, BenchMode.PINNED, BenchMode.PINNED_PAGES);
    assertThat(options.queries())
        .extracting(BenchQuery::name)
        .containsExactly("Q1", "Q2", "Q3", "Q4", "Q2-rows", "Q3-rows");
    assertThat(options.queries().get(5).sql())
        .isEqualTo(BenchQueries.Q3.sql() + " OPTION(useStarTree=false)");
    assertThat(options.hotRuns()).isGreaterThanOrEqualTo(10);
    assertThat(options.qpsSweep()).isFalse();
    assertThat(options.cold()).isEqualTo(ColdStart.PROCESS);
    assertThat(parse("--cold", "in-jvm").cold()).isEqualTo(ColdStart.IN_JVM);
    assertThat(options.writer()).isEqualTo(BenchWriter.JAVA);
    assertThat(options.python()).isEmpty();
    assertThat(options.lakeDir().getFileName().toString()).isEqualTo("lake-20000000-42");
  }

  @Test
  void thePyarrowWriterHasItsOwnDirectories() {
    BenchOptions options =
        parse("--writer", "PyArrow", "--python", "/opt/py/bin/python", "--data-dir", "/tmp/b");
    assertThat(options.writer()).isEqualTo(BenchWriter.PYARROW);
    assertThat(options.python()).hasValue(Path.of("/opt/py/bin/python"));
    assertThat(options.lakeDir()).isEqualTo(Path.of("/tmp/b/lake-20000000-42-pyarrow"));
    assertThat(options.nodeDir(BenchMode.PINNED))
        .isEqualTo(Path.of("/tmp/b/node-20000000-42-pyarrow/pinned"));
    assertThat(options.clusterDir()).isEqualTo(Path.of("/tmp/b/cluster-20000000-42-pyarrow"));
    assertThat(options.stagingDir()).isEqualTo(Path.of("/tmp/b/staging-20000000-42-pyarrow"));
  }

  @Test
  void badOptionsAreNamed() {
    assertThatThrownBy(() -> parse("--modes", "pinned,fast"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot use bench mode 'fast': unknown (use remote, pinned or pinned+pages)");
    assertThatThrownBy(() -> parse("--queries", "Q5"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot run benchmark query 'Q5': unknown (use Q1, Q2, Q3, Q4, Q2-rows, Q3-rows,"
                + " GROUP-COUNT, COUNT-DISTINCT, LIKE-PREFIX, MINMAX-GROUP, MINMAX-PAGES or"
                + " MINMAX-PAGES-rows)");
    assertThatThrownBy(() -> parse("--runs", "3"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot use --runs 3 for the benchmark (need at least 10: the median and p95 are"
                + " over runs 2..N)");
    assertThatThrownBy(() -> parse("--modes", "pinned,pinned"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot use --modes [pinned, pinned] for the benchmark (name each once)");
    assertThatThrownBy(() -> parse("--cold", "warm"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot use --cold 'warm': unknown (use process or in-jvm)");
    assertThatThrownBy(() -> parse("--writer", "spark"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot use bench writer 'spark': unknown (use java, pyarrow or pyiceberg)");
  }

  @Test
  void theQueriesAreTheBenchmarks() {
    assertThat(BenchQueries.ALL)
        .extracting(BenchQuery::name)
        .containsExactly("Q1", "Q2", "Q3", "Q4");
    assertThat(BenchQueries.Q3.duckDbSql())
        .contains("(logical_timestamp // 1000) * 1000 AS time_bucket")
        .doesNotContain("dateTrunc");
    assertThat(BenchQueries.Q4.sql())
        .isEqualTo(
            "SELECT dimensions['service'] AS service, SUM(sum_rollup) AS total_value FROM"
                + " obs.metrics WHERE metric = 'tk_cache' AND org_id = '184833768' AND resolution"
                + " = 15000 AND dimensions['node'] = 'xyz' AND logical_timestamp >= 1754229600000"
                + " - 360000 AND logical_timestamp <= 1754229600000 GROUP BY"
                + " dimensions['service'] ORDER BY total_value DESC");
    assertThat(BenchQueries.select(List.of("q4", "Q1")))
        .containsExactly(BenchQueries.Q1, BenchQueries.Q4);
    // The index-only shapes are named, never in the default set, and need no Parquet column.
    assertThat(BenchQueries.select(List.of("minmax-group", "Group-Count", "Q2")))
        .containsExactly(
            BenchQueries.Q2, IndexOnlyQueries.GROUP_COUNT, IndexOnlyQueries.MINMAX_GROUP);
    assertThat(IndexOnlyQueries.ALL).allSatisfy(q -> assertThat(q.neededColumns()).isEmpty());
    assertThat(BenchQueries.select(List.of("minmax-pages", "MINMAX-PAGES-rows")))
        .containsExactly(
            PageStatisticsQueries.MINMAX_PAGES, PageStatisticsQueries.MINMAX_PAGES_ROWS);
    assertThat(IndexOnlyQueries.LIKE_PREFIX.sql())
        .isEqualTo(
            "SELECT COUNT(*) FROM obs.metrics WHERE metric LIKE 'tk%' AND org_id = 184833768 AND"
                + " dimensions['node'] = 'xyz'");
  }

  private static BenchOptions parse(String... args) {
    BenchCommand command = new BenchCommand();
    new CommandLine(command).parseArgs(args);
    return command.options();
  }
}
