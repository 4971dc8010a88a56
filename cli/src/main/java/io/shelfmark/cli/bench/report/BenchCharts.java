package io.shelfmark.cli.bench.report;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The charts of a run as PNG files (XChart, drawn headless):
 *
 * <ul>
 *   <li>{@value #LATENCY}: hot median latency per query, one bar per mode and one for DuckDB
 *       (linear axis: XChart's bars cannot be drawn on a logarithmic one);
 *   <li>{@value #QPS}: p99 latency against achieved QPS, one line per swept query and mode.
 * </ul>
 */
public final class BenchCharts {
  public static final String LATENCY = "latency.png";
  public static final String QPS = "qps.png";

  private static final int WIDTH = 900;
  private static final int HEIGHT = 520;

  private BenchCharts() {}

  /** Writes the charts the report has data for into {@code dir}; returns their file names. */
  public static List<String> write(BenchReport report, Path dir) throws IOException {
    requireNonNull(report, "report is null");
    requireNonNull(dir, "dir is null");
    // AWT must not look for a display: the benchmark runs on servers and in CI.
    System.setProperty("java.awt.headless", "true");
    List<String> written = new ArrayList<>();
    if (!report.queries().isEmpty()) {
      save(latencyChart(report), dir.resolve(LATENCY));
      written.add(LATENCY);
    }
    if (!report.qpsSweeps().isEmpty()) {
      save(qpsChart(report), dir.resolve(QPS));
      written.add(QPS);
    }
    return List.copyOf(written);
  }

  static CategoryChart latencyChart(BenchReport report) {
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title(
                "Hot median latency, client-observed ("
                    + String.format(java.util.Locale.ROOT, "%,d", report.settings().rows())
                    + " rows, "
                    + report.settings().latencyMs()
                    + " ms per S3 request)")
            .xAxisTitle("query")
            .yAxisTitle("ms")
            .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    Set<String> queries = new LinkedHashSet<>();
    Set<String> modes = new LinkedHashSet<>();
    for (QueryRecord r : report.queries()) {
      queries.add(r.query());
      modes.add(r.mode());
    }
    List<String> x = List.copyOf(queries);
    for (String mode : modes) {
      List<Double> y = new ArrayList<>();
      for (String query : x) {
        y.add(
            report.queries().stream()
                .filter(r -> r.query().equals(query) && r.mode().equals(mode))
                .map(r -> positive(r.hot().medianMs()))
                .findFirst()
                .orElse(null));
      }
      chart.addSeries("Shelfmark " + mode, x, y);
    }
    if (!report.duckDb().isEmpty()) {
      List<Double> y = new ArrayList<>();
      for (String query : x) {
        y.add(
            report.duckDb().stream()
                .filter(d -> d.query().equals(query))
                .map(d -> positive(d.hot().medianMs()))
                .findFirst()
                .orElse(null));
      }
      chart.addSeries("DuckDB, local disk", x, y);
    }
    return chart;
  }

  static XYChart qpsChart(BenchReport report) {
    XYChart chart =
        new XYChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title("QPS sweep: p99 latency against achieved QPS (open loop)")
            .xAxisTitle("achieved QPS")
            .yAxisTitle("p99 ms")
            .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    for (QpsSweep sweep : report.qpsSweeps()) {
      if (sweep.steps().isEmpty()) {
        continue;
      }
      List<Double> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      for (QpsStep step : sweep.steps()) {
        // A step with no answer has no latency to draw.
        if (!Double.isNaN(step.p99Ms())) {
          x.add(step.achievedQps());
          y.add(step.p99Ms());
        }
      }
      if (!x.isEmpty()) {
        chart.addSeries(sweep.query() + " " + sweep.mode(), x, y);
      }
    }
    return chart;
  }

  private static double positive(double ms) {
    return Math.max(ms, 0);
  }

  private static void save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, Path file)
      throws IOException {
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
  }
}
