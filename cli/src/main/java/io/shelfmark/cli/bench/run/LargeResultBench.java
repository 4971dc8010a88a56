package io.shelfmark.cli.bench.run;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cli.bench.report.LatencySummary;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The large-result query: a selection of five columns of the bench table in no order, {@link
 * #SIZES} rows, each read to its last row over HTTP (one JSON answer: the node keeps every row
 * first, so the bench node allows the largest size, {@code query.max-rows}) and over Arrow Flight
 * SQL (record batches streamed while the engine reads). Where columnar batches should beat JSON
 * text. Run on the node the hot runs just warmed; figures as printed lines and report notes.
 */
final class LargeResultBench {
  /** Rows selected: the default {@code query.max-rows}, and the table of a 1M-row run. */
  static final List<Long> SIZES = List.of(100_000L, 1_000_000L);

  /** The largest size: what the bench node's {@code query.max-rows} allows over HTTP. */
  static final long MAX_ROWS = 1_000_000;

  private final int runs;
  private final PrintStream out;

  LargeResultBench(int runs, PrintStream out) {
    if (runs < 2) {
      throw new IllegalArgumentException(
          "Cannot run the large-result query %d times (at least 2: the first is a warm-up)"
              .formatted(runs));
    }
    this.runs = runs;
    this.out = requireNonNull(out, "out is null");
  }

  static String sql(long rows) {
    return "SET timeoutMs=120000; SELECT org_id, metric, resolution, logical_timestamp, sum_rollup"
        + " FROM obs.metrics LIMIT "
        + rows;
  }

  /** Runs each size over both protocols; returns the report's notes with the figures. */
  List<String> run(String mode, QueryProbe http, FlightSqlProbe flight) {
    List<String> notes = new ArrayList<>();
    for (long size : SIZES) {
      notes.add(run(mode, size, http, flight));
    }
    return notes;
  }

  private String run(String mode, long size, QueryProbe http, FlightSqlProbe flight) {
    String sql = sql(size);
    long[] overHttp = new long[runs];
    long rows = -1;
    String httpFigure;
    try {
      for (int i = 0; i < runs; i++) {
        QueryObservation observation = http.run(sql);
        if (observation.error() != null) {
          throw new IllegalStateException(observation.error());
        }
        overHttp[i] = observation.latencyNanos();
        rows = observation.resultRows();
      }
      httpFigure = figure(LatencySummary.ofNanos(overHttp));
    } catch (RuntimeException e) {
      httpFigure = "failed: " + e.getMessage();
    }
    long[] overFlight = new long[runs];
    String flightFigure;
    try {
      for (int i = 0; i < runs; i++) {
        overFlight[i] = flight.run(sql);
      }
      flightFigure = figure(LatencySummary.ofNanos(overFlight));
    } catch (Exception e) {
      flightFigure = "failed: " + e.getMessage();
    }
    String line =
        String.format(
            Locale.ROOT,
            "Large result (%s, LIMIT %,d: %s rows of 5 columns, %d runs, median and p95 of runs"
                + " 2..N): HTTP %s; Flight SQL %s",
            mode,
            size,
            rows < 0 ? "HTTP counted no" : String.format(Locale.ROOT, "%,d", rows),
            runs,
            httpFigure,
            flightFigure);
    out.println("  " + line);
    return line;
  }

  private static String figure(LatencySummary hot) {
    return String.format(Locale.ROOT, "median %.1f ms, p95 %.1f ms", hot.medianMs(), hot.p95Ms());
  }
}
