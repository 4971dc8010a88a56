package io.shelfmark.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.shelfmark.cli.Shelfmark;
import io.shelfmark.cli.bench.report.BenchReport;
import io.shelfmark.cli.bench.report.HopRecord;
import io.shelfmark.cli.bench.report.QueryRecord;
import io.shelfmark.cli.bench.report.ReportJson;
import io.shelfmark.cli.bench.report.TargetCheck;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code bench --topology all-in-one,cluster} at a small scale: the same queries through the
 * all-in-one node and through a local cluster of real processes (ZooKeeper, a controller, a broker,
 * two servers), answers equal to the all-in-one node's (a difference would be the record's error)
 * and counted as TestBenchSmoke counts them, one hop per query with the broker's EXPLAIN view, and
 * no cluster process left running. No timing assertions.
 */
class TestBenchCluster {
  @TempDir Path dir;

  @Test
  void measuresEachQueryThroughTheClusterBesideTheAllInOneNode() throws Exception {
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
            "--topology",
            "all-in-one,cluster",
            "--servers",
            "2",
            "--runs",
            "10",
            "--duckdb-runs",
            "2",
            "--latency-ms",
            "5",
            "--cold",
            "in-jvm",
            "--data-dir",
            dir.resolve("data").toString(),
            "--out",
            out.toString());
    assertThat(errors.toString()).isEmpty();
    assertThat(status).isZero();

    BenchReport report = ReportJson.read(out.resolve("bench.json"));
    assertThat(report.settings().topologies()).containsExactly("all-in-one", "cluster");
    assertThat(report.settings().servers()).isEqualTo(2);
    assertThat(report.queries())
        .extracting(QueryRecord::query, QueryRecord::mode, QueryRecord::topology)
        .containsExactly(
            tuple("Q1", "pinned", "all-in-one"),
            tuple("Q2-rows", "pinned", "all-in-one"),
            tuple("Q1", "pinned", "cluster"),
            tuple("Q2-rows", "pinned", "cluster"));
    for (QueryRecord record : report.queries()) {
      assertThat(record.error()).as(record.query() + " " + record.topology()).isNull();
      assertThat(record.hot().runs()).isEqualTo(10);
      assertThat(record.totalDocs()).isEqualTo(20_000);
    }
    QueryRecord q1 = report.queries().get(2);
    QueryRecord q2 = report.queries().get(3);
    assertThat(q1.coldMs()).as("no cold run through the cluster").isNull();
    // Through the cluster as on one node: Q1 from the pinned segments alone, Q2-rows reads its
    // pages, the servers' storage statistics summed by the broker equal what the proxy saw.
    assertThat(q1.hotIo().storageBytes()).isZero();
    assertThat(q1.hotIo().proxyRequests()).isZero();
    assertThat(q2.hotIo().proxyBytes()).isEqualTo(q2.hotIo().storageBytes()).isPositive();
    assertThat(q2.docsMatched()).isEqualTo(report.bounds().get(1).matchingRows());
    assertThat(q2.segmentsQueried()).isEqualTo(report.queries().get(1).segmentsQueried());
    assertThat(q2.flightSqlHot()).as("Flight SQL through the cluster broker").isNotNull();

    assertThat(report.hops()).extracting(HopRecord::query).containsExactly("Q1", "Q2-rows");
    for (HopRecord hop : report.hops()) {
      assertThat(hop.servers()).isEqualTo(2);
      assertThat(hop.hopMs()).isEqualTo(hop.clusterHotMedianMs() - hop.allInOneHotMedianMs());
      assertThat(hop.allInOneExplain()).as(hop.query()).isNotNull();
      assertThat(hop.clusterExplain()).as(hop.query()).isNotNull();
      assertThat(hop.allInOneExplain().servers()).as("the all-in-one node's local server").isOne();
      assertThat(hop.explainHopMs()).isNotNull();
    }
    // Q1 counts over 50 files, which one query spreads over both replicas: one fragment each.
    assertThat(report.hops().get(0).clusterExplain().servers()).isEqualTo(2);
    assertThat(report.targets())
        .extracting(TargetCheck::id)
        .contains("hop/Q1/pinned", "hop/Q2-rows/pinned", "hot-median/Q1/pinned");

    assertThat(Files.readString(out.resolve("bench.md")))
        .contains("| Q1 | pinned |")
        .contains("| Q1 | pinned (cluster) |")
        .contains("## The broker → server hop");
    Path runDir = dir.resolve("data").resolve("cluster-20000-42").resolve("pinned");
    assertThat(runDir.resolve("cluster.json"))
        .as("cluster down forgot its processes")
        .doesNotExist();
    assertThat(
            ProcessHandle.current()
                .descendants()
                .filter(p -> p.isAlive())
                .filter(p -> p.info().commandLine().orElse("").contains(runDir.toString())))
        .as("cluster processes left running")
        .isEmpty();
  }

  @Test
  void topologyOptionsAreParsedAndBadOnesNamed() {
    assertThat(parse().topologies()).containsExactly(BenchTopology.ALL_IN_ONE);
    BenchOptions both = parse("--topology", "all-in-one,cluster", "--servers", "3");
    assertThat(both.topologies()).containsExactly(BenchTopology.ALL_IN_ONE, BenchTopology.CLUSTER);
    assertThat(both.servers()).isEqualTo(3);
    // The default modes: the cluster runs the pinned ones, remote stays the all-in-one node's.
    assertThat(both.clusterModes()).containsExactly(BenchMode.PINNED, BenchMode.PINNED_PAGES);
    assertThatThrownBy(() -> parse("--topology", "cluster", "--modes", "remote"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot use --modes [remote] for the benchmark (the cluster topology measures pinned"
                + " and pinned+pages only (its servers pin their segments); name one of them, or"
                + " run remote with --topology all-in-one)");
    assertThatThrownBy(() -> parse("--topology", "cluster", "--modes", "pinned", "--qps-sweep"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot use --qps-sweep true for the benchmark (the sweep runs on the all-in-one node;"
                + " add --topology all-in-one,cluster)");
    assertThatThrownBy(() -> parse("--topology", "cluster", "--servers", "0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot use --servers 0 for the benchmark (need at least 1 server process)");
    assertThatThrownBy(() -> parse("--topology", "mesh"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot use bench topology 'mesh': unknown (use all-in-one or cluster)");
  }

  private static BenchOptions parse(String... args) {
    BenchCommand command = new BenchCommand();
    new CommandLine(command).parseArgs(args);
    return command.options();
  }
}
