package io.shelfmark.cli.bench.report;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bench.md}: the tables of a {@link BenchReport} for people. Every figure comes from the
 * report; nothing is computed here but formatting and the ratios the report already holds.
 */
public final class MarkdownReport {
  private final StringBuilder out = new StringBuilder();

  private MarkdownReport() {}

  /** The report as Markdown; {@code charts} are file names beside bench.md to link. */
  public static String render(BenchReport report, List<String> charts) {
    requireNonNull(report, "report is null");
    requireNonNull(charts, "charts is null");
    MarkdownReport md = new MarkdownReport();
    md.header(report);
    md.build(report);
    md.bounds(report.bounds());
    md.latency(report.queries());
    md.hops(report.hops());
    md.io(report.queries());
    md.duckDb(report.duckDb());
    md.sweeps(report.qpsSweeps());
    md.targets(report.targets());
    md.notes(report.notes());
    md.charts(charts);
    return md.out.toString();
  }

  private void header(BenchReport report) {
    BenchSettings s = report.settings();
    MachineInfo m = report.machine();
    line("# Shelfmark benchmark");
    line("");
    line("- command: `" + report.command() + "`");
    line(
        "- finished: "
            + report.generatedAt()
            + " (bench.json schema "
            + report.schemaVersion()
            + ")");
    line(
        "- machine: %s, %d CPUs (%s), %s memory, %s; heap limit %s; load average at start %.2f"
            .formatted(
                m.os() + " " + m.arch(),
                m.cpus(),
                m.cpuModel(),
                bytes(m.memoryBytes()),
                m.jvm(),
                bytes(m.maxHeapBytes()),
                m.loadAverage()));
    line(
        "- workload: %s rows (seed %d), %d ms injected latency per request%s; modes %s; %d hot"
                .formatted(
                    count(s.rows()),
                    s.seed(),
                    s.latencyMs(),
                    s.bandwidthBytesPerSecond() == null
                        ? ""
                        : ", " + bytes(s.bandwidthBytesPerSecond()) + "/s per connection",
                    String.join(", ", s.modes()),
                    s.hotRuns())
            + " runs per query; cold runs in "
            + (s.coldProcess() ? "a fresh child JVM" : "a fresh in-process node"));
    TableFigures t = report.table();
    line(
        "- data files written by: "
            + s.writer()
            + (t.createdBy().isEmpty() ? "" : " (created_by `" + t.createdBy() + "`)"));
    StringBuilder versions = new StringBuilder("- versions:");
    for (Map.Entry<String, String> v : new java.util.TreeMap<>(report.versions()).entrySet()) {
      versions.append(' ').append(v.getKey()).append(' ').append(v.getValue()).append(';');
    }
    line(versions.substring(0, versions.length() - 1));
    line("");
  }

  private void build(BenchReport report) {
    TableFigures t = report.table();
    BuildFigures b = report.build();
    line("## Table and index build");
    line("");
    line(
        "| table | rows | data files | data bytes | generated | build s | rows/s | segments |"
            + " index bytes | index / data |");
    line("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|");
    line(
        "| %s | %s | %s | %s | %s | %.1f | %s | %s%s | %s | %.1f%% |"
            .formatted(
                t.name(),
                count(t.rows()),
                count(t.dataFiles()),
                bytes(t.dataBytes()),
                t.reused() ? "reused" : "%.0f s".formatted(t.generateSeconds()),
                b.seconds(),
                count(Math.round(b.rowsPerSecond())),
                count(b.segments()),
                b.segmentsFailed() == 0 ? "" : " (" + b.segmentsFailed() + " failed)",
                bytes(b.indexBytes()),
                100 * b.indexToDataRatio()));
    line("");
  }

  private void bounds(List<QueryBound> bounds) {
    line("## Lower bounds");
    line("");
    line(
        "Pages of the needed columns holding a matching row, plus their dictionary pages when"
            + " such a page is dictionary-encoded; a scan engine reads every referenced column of"
            + " the row groups holding a matching row.");
    line("");
    line(
        "| query | matching rows | files | needed columns | data pages | dictionary pages |"
            + " lower bound | scan engine bytes |");
    line("|---|---:|---:|---|---:|---:|---:|---:|");
    for (QueryBound b : bounds) {
      line(
          "| %s | %s | %s | %s | %s | %s | %s | %s |"
              .formatted(
                  b.query(),
                  count(b.matchingRows()),
                  count(b.filesWithMatches()),
                  b.neededColumns().isEmpty() ? "none" : String.join(", ", b.neededColumns()),
                  count(b.dataPages()),
                  count(b.dictionaryPages()),
                  bytes(b.lowerBoundBytes()),
                  bytes(b.scanBytes())));
    }
    line("");
  }

  private void latency(List<QueryRecord> records) {
    line("## Latency (client-observed, ms)");
    line("");
    line(
        "| query | mode | cold | hot median | hot p95 | Flight SQL hot median | DuckDB median |"
            + " Shelfmark / DuckDB | docs matched | segments queried | segments pruned | error |");
    line("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for (QueryRecord r : records) {
      line(
          "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |"
              .formatted(
                  r.query(),
                  modeOf(r),
                  ms(r.coldMs()),
                  ms(r.hot().medianMs()),
                  ms(r.hot().p95Ms()),
                  ms(r.flightSqlHot() == null ? null : r.flightSqlHot().medianMs()),
                  ms(r.duckDbMedianMs()),
                  ratio(r.shelfmarkOverDuckDb()),
                  count(r.docsMatched()),
                  count(r.segmentsQueried()),
                  count(r.segmentsPruned()),
                  r.error() == null ? "" : r.error().replace('|', '/')));
    }
    line("");
  }

  /** The mode, and the topology when it is not the all-in-one node: {@code pinned (cluster)}. */
  static String modeOf(QueryRecord record) {
    return record.allInOne() ? record.mode() : record.mode() + " (" + record.topology() + ")";
  }

  private void hops(List<HopRecord> hops) {
    if (hops.isEmpty()) {
      return;
    }
    line("## The broker → server hop: all-in-one against the cluster (ms)");
    line("");
    line(
        "Hot medians, client-observed over HTTP, of the same query on the all-in-one node and"
            + " through the local cluster's broker; hop = cluster − all-in-one (target ≤ "
            + Targets.fmt(HopTargets.HOP_MS)
            + " ms). The broker's view: EXPLAIN ANALYZE medians (row path: star-trees are not"
            + " profiled); server = the slowest server's time from fragment sent to partial result"
            + " back (in process for all-in-one), work = the files' own index + read + aggregate"
            + " time summed.");
    line("");
    line(
        "| query | mode | servers | all-in-one hot median | cluster hot median | hop |"
            + " all-in-one execute / server / work | cluster execute / server / work |"
            + " hop by the broker (server − server) |");
    line("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for (HopRecord h : hops) {
      line(
          "| %s | %s | %d | %s | %s | %s | %s | %s | %s |"
              .formatted(
                  h.query(),
                  h.mode(),
                  h.servers(),
                  ms(h.allInOneHotMedianMs()),
                  ms(h.clusterHotMedianMs()),
                  ms(h.hopMs()),
                  explain(h.allInOneExplain()),
                  explain(h.clusterExplain()),
                  ms(h.explainHopMs())));
    }
    line("");
  }

  private static String explain(ExplainTimes times) {
    return times == null
        ? "–"
        : ms(times.executeMs()) + " / " + ms(times.serverMs()) + " / " + ms(times.serverWorkMs());
  }

  private void io(List<QueryRecord> records) {
    line("## Object-storage traffic per query");
    line("");
    line(
        "Shelfmark's own statistics beside what the latency proxy counted on the wire."
            + " Hot = the last hot run. Second = the query run again right after the cold run, on"
            + " the same node (Shelfmark's bytes, cache hits / misses).");
    line("");
    line(
        "| query | mode | cold bytes (Shelfmark / proxy) | cold requests | cold rounds |"
            + " second bytes (hits / misses) |"
            + " hot bytes (Shelfmark / proxy) | hot requests | hot rounds | cache hits / misses |"
            + " lower bound | bytes / bound |");
    line("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (QueryRecord r : records) {
      IoFigures c = r.coldIo();
      IoFigures s = r.secondIo();
      IoFigures h = r.hotIo();
      line(
          "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |"
              .formatted(
                  r.query(),
                  modeOf(r),
                  c == null ? "–" : bytes(c.storageBytes()) + " / " + bytes(c.proxyBytes()),
                  c == null ? "–" : c.storageRequests() + " / " + c.proxyRequests(),
                  c == null ? "–" : String.valueOf(c.sequentialRounds()),
                  s == null
                      ? "–"
                      : bytes(s.storageBytes())
                          + " ("
                          + s.cacheHits()
                          + " / "
                          + s.cacheMisses()
                          + ")",
                  bytes(h.storageBytes()) + " / " + bytes(h.proxyBytes()),
                  h.storageRequests() + " / " + h.proxyRequests(),
                  h.sequentialRounds(),
                  h.cacheHits() + " / " + h.cacheMisses(),
                  bytes(r.lowerBoundBytes()),
                  ratio(r.bytesOverLowerBound())));
    }
    line("");
  }

  private void duckDb(List<DuckDbRecord> records) {
    if (records.isEmpty()) {
      return;
    }
    line("## Scan baseline: DuckDB over the same Parquet files on local disk (ms)");
    line("");
    line("| query | cold | hot median | hot p95 | result rows |");
    line("|---|---:|---:|---:|---:|");
    for (DuckDbRecord d : records) {
      line(
          "| %s | %s | %s | %s | %s |"
              .formatted(
                  d.query(),
                  ms(d.coldMs()),
                  ms(d.hot().medianMs()),
                  ms(d.hot().p95Ms()),
                  count(d.resultRows())));
    }
    line("");
  }

  private void sweeps(List<QpsSweep> sweeps) {
    if (sweeps.isEmpty()) {
      return;
    }
    line("## QPS sweeps (open loop, latency from intended start)");
    line("");
    line(
        "| query | mode | target QPS | achieved | mean ms | p50 ms | p99 ms | CPU | failed |"
            + " dropped |");
    line("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (QpsSweep sweep : sweeps) {
      for (QpsStep s : sweep.steps()) {
        line(
            "| %s | %s | %s | %.1f | %s | %s | %s | %.0f%% | %d | %d |"
                .formatted(
                    sweep.query(),
                    sweep.mode(),
                    Targets.fmt(s.targetQps()),
                    s.achievedQps(),
                    ms(s.meanMs()),
                    ms(s.p50Ms()),
                    ms(s.p99Ms()),
                    100 * s.processCpu(),
                    s.failed(),
                    s.dropped()));
      }
    }
    line("");
    line("| query | mode | max sustained QPS (p99 ≤ 100 ms, ≥ 90% of target) |");
    line("|---|---|---:|");
    for (QpsSweep sweep : sweeps) {
      line("| %s | %s | %.1f |".formatted(sweep.query(), sweep.mode(), sweep.maxSustainedQps()));
    }
    line("");
  }

  private void targets(List<TargetCheck> targets) {
    line("## Targets");
    line("");
    line("| target | measured | status | detail |");
    line("|---|---:|---|---|");
    for (TargetCheck t : targets) {
      line(
          "| %s | %s | %s | %s |"
              .formatted(
                  t.description(),
                  t.measured() == null ? "–" : Targets.fmt(t.measured()) + " " + t.unit(),
                  t.status(),
                  t.detail()));
    }
    line("");
  }

  private void notes(List<String> notes) {
    if (notes.isEmpty()) {
      return;
    }
    line("## Notes");
    line("");
    for (String note : notes) {
      line("- " + note);
    }
    line("");
  }

  private void charts(List<String> charts) {
    if (charts.isEmpty()) {
      return;
    }
    line("## Charts");
    line("");
    for (String chart : charts) {
      line("![" + chart + "](" + chart + ")");
      line("");
    }
  }

  private void line(String text) {
    out.append(text).append('\n');
  }

  static String ms(Double value) {
    if (value == null) {
      return "–";
    }
    double v = value;
    return v >= 100
        ? String.format(Locale.ROOT, "%,.0f", v)
        : v >= 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
  }

  static String ratio(Double value) {
    return value == null ? "–" : String.format(Locale.ROOT, "%.2f", value);
  }

  static String count(long value) {
    return String.format(Locale.ROOT, "%,d", value);
  }

  /** Bytes in binary units with three significant figures: 0 B, 812 B, 6.41 MiB. */
  static String bytes(long value) {
    if (value < 1024) {
      return value + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double scaled = value;
    int unit = -1;
    while (scaled >= 1024 && unit < units.length - 1) {
      scaled /= 1024;
      unit++;
    }
    String number =
        scaled >= 100
            ? String.format(Locale.ROOT, "%.0f", scaled)
            : scaled >= 10
                ? String.format(Locale.ROOT, "%.1f", scaled)
                : String.format(Locale.ROOT, "%.2f", scaled);
    return number + " " + units[unit];
  }
}
