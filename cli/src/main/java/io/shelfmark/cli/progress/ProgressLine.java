package io.shelfmark.cli.progress;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Shows the progress of a long step on one line: a bar, the count, the rate. On a terminal the line
 * is redrawn in place at most every 200 ms; otherwise (logs, CI) a line is printed at every tenth
 * of the way, so output stays short either way. Not thread safe: call from one thread, or
 * synchronise externally.
 */
public final class ProgressLine {
  private static final int BAR_WIDTH = 30;
  private static final long REDRAW_NANOS = 200_000_000L;

  private final PrintStream out;
  private final String label;
  private final String unit;
  private final boolean terminal;
  private final LongSupplier nanoTime;
  private final long startNanos;
  private long lastDrawNanos;
  private int lastTenth = -1;

  public ProgressLine(
      PrintStream out, String label, String unit, boolean terminal, LongSupplier nanoTime) {
    this.out = requireNonNull(out, "out is null");
    this.label = requireNonNull(label, "label is null");
    this.unit = requireNonNull(unit, "unit is null");
    this.terminal = terminal;
    this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
    this.startNanos = nanoTime.getAsLong();
    this.lastDrawNanos = startNanos - REDRAW_NANOS;
  }

  /** A progress line on standard error, redrawn in place when it is a terminal. */
  public static ProgressLine onStandardError(String label, String unit) {
    return new ProgressLine(System.err, label, unit, System.console() != null, System::nanoTime);
  }

  /** Reports {@code done} of {@code total}; cheap to call often. */
  public void update(long done, long total) {
    long now = nanoTime.getAsLong();
    if (terminal) {
      if (now - lastDrawNanos >= REDRAW_NANOS || done >= total) {
        lastDrawNanos = now;
        out.print("\r" + render(done, total, now));
        out.flush();
      }
    } else {
      int tenth = total <= 0 ? 10 : (int) Math.min(10, done * 10 / total);
      if (tenth > lastTenth) {
        lastTenth = tenth;
        out.println(render(done, total, now));
      }
    }
  }

  /** Ends the line with a summary such as "done in 12.3 s". */
  public void finish(String summary) {
    if (terminal) {
      out.print("\r\033[K");
    }
    out.println("  " + label + ": " + summary);
  }

  String render(long done, long total, long now) {
    double fraction = total <= 0 ? 1 : Math.min(1, (double) done / total);
    int filled = (int) Math.round(fraction * BAR_WIDTH);
    double seconds = Math.max(1e-9, (now - startNanos) / 1e9);
    return String.format(
        Locale.ROOT,
        "  %s [%s%s] %3d%% %,d/%,d %s  %,.0f %s/s",
        label,
        "#".repeat(filled),
        " ".repeat(BAR_WIDTH - filled),
        Math.round(fraction * 100),
        done,
        total,
        unit,
        done / seconds,
        unit);
  }
}
