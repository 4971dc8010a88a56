package io.shelfmark.cli.segments;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.cli.Shelfmark;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code shelfmark segments bench} at a tiny scale: its figures are printed and consistent. */
class TestSegmentsBenchCommand {
  @Test
  void testPrintsConsistentFigures(@TempDir Path dir) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine commandLine = Shelfmark.commandLine();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));

    int status =
        commandLine.execute(
            "segments",
            "bench",
            "--rows",
            "20000",
            "--seed",
            "3",
            "--threads",
            "2",
            "--data-dir",
            dir.toString(),
            "--passes",
            "2",
            // The bundled star-tree (one-second buckets) outweighs the data in files of ~130 rows:
            // this test's ratio check is about the indexes (star-trees: docs/performance.md).
            "--no-star-trees",
            "--quiet");

    String printed = out.toString();
    assertThat(status).as("%s%n%s", printed, err).isZero();
    long dataFiles = figure(printed, "dataFiles");
    long rows = figure(printed, "rows");
    long dataBytes = figure(printed, "dataBytes");
    long indexBytes = figure(printed, "indexBytes");
    assertThat(dataFiles).isPositive();
    assertThat(rows).isEqualTo(20_000);
    assertThat(indexBytes).isPositive().isLessThan(dataBytes);
    Matcher ratio = Pattern.compile("(?m)^  ratio\\s+([0-9.]+)%").matcher(printed);
    assertThat(ratio.find()).as(printed).isTrue();
    assertThat(Double.parseDouble(ratio.group(1)))
        .isCloseTo(100.0 * indexBytes / dataBytes, org.assertj.core.data.Offset.offset(0.006));
    assertThat(printed)
        .containsPattern("(?m)^  rowsPerSecond\\s+[0-9,]+ \\(target at least 1,000,000: ")
        .containsPattern("(?m)^  threads\\s+2$")
        .containsPattern("(?m)^  processCpuSeconds\\s+[0-9.]+$")
        .containsPattern("(?m)^  rowsPerCpuSecond\\s+[0-9,]+$")
        .containsPattern("(?m)^  jitSeconds\\s+[0-9.]+$")
        .containsPattern("(?m)^pass 1 of 2: .* rows/s, .*JIT compilation")
        .containsPattern("(?m)^pass 2 of 2: ")
        .containsPattern("(?m)^Segments of obs.metrics .*, pass 2 of 2 \\(warm\\)$")
        .containsPattern("(?m)^    inverted\\s+[0-9,]+")
        .containsPattern("(?m)^    sorted\\s+[0-9,]+")
        .containsPattern("(?m)^  failedFiles\\s+0$")
        .contains("time by phase");
  }

  @Test
  void testAlternatesBuildsWithAndWithoutStarTrees(@TempDir Path dir) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine commandLine = Shelfmark.commandLine();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));

    int status =
        commandLine.execute(
            "segments",
            "bench",
            "--rows",
            "20000",
            "--seed",
            "3",
            "--threads",
            "2",
            "--data-dir",
            dir.toString(),
            "--passes",
            "2",
            "--alternate-star-trees",
            "--quiet");

    String printed = out.toString();
    assertThat(status).as("%s%n%s", printed, err).isZero();
    // Pass 1 builds with the trees first, pass 2 without them first: the order alternates.
    assertThat(printed)
        .containsPattern(
            "(?s)pass 1 of 2 with trees: .*pass 1 of 2 without trees: .*"
                + "pass 2 of 2 without trees: .*pass 2 of 2 with trees: ")
        .containsPattern(
            "(?m)^pass 2 of 2 without trees: .* star-trees 0\\.00 CPU-s, GC [0-9.]+ s, ")
        .containsPattern("(?m)^star-tree cost over 1 warm passes each way ")
        .containsPattern("(?m)^  withTreesRowsPerCpuS\\s+[0-9,]+ ")
        .containsPattern("(?m)^  withoutRowsPerCpuS\\s+[0-9,]+ ")
        .containsPattern("(?m)^  treeCpuByDifference\\s+-?[0-9.]+ µs a row")
        .containsPattern("(?m)^  starTreeCpuSeconds\\s+[0-9.]+ \\([0-9.]+ µs a row");
    Matcher timers = Pattern.compile("(?m)^  treeCpuByTimers\\s+([0-9.]+) µs").matcher(printed);
    assertThat(timers.find()).as(printed).isTrue();
    assertThat(Double.parseDouble(timers.group(1))).as(printed).isPositive();
    // The full report is the warm pass with the trees: it has a star-tree part.
    assertThat(printed).containsPattern("(?m)^    star-tree\\s+[0-9,]+");
  }

  @Test
  void testAlternatingNeedsStarTrees(@TempDir Path dir) {
    StringWriter err = new StringWriter();
    CommandLine commandLine = Shelfmark.commandLine();
    commandLine.setOut(new PrintWriter(new StringWriter(), true));
    commandLine.setErr(new PrintWriter(err, true));

    int status =
        commandLine.execute(
            "segments",
            "bench",
            "--rows",
            "1000",
            "--data-dir",
            dir.toString(),
            "--alternate-star-trees",
            "--no-star-trees",
            "--quiet");

    assertThat(status).isNotZero();
    assertThat(err.toString())
        .contains("Cannot use --alternate-star-trees: --no-star-trees is given");
  }

  @Test
  void testHelpExplainsTheFigures() {
    // Also: picocli formats descriptions, so a bare percent sign would print a warning instead.
    StringWriter out = new StringWriter();
    CommandLine commandLine = Shelfmark.commandLine();
    commandLine.setOut(new PrintWriter(out, true));
    assertThat(commandLine.execute("segments", "bench", "--help")).isZero();
    assertThat(out.toString())
        .startsWith("Usage: shelfmark segments bench")
        .contains("--rows")
        .contains("--threads")
        .contains("target: at most 25%");
  }

  private static long figure(String printed, String name) {
    Matcher matcher = Pattern.compile("(?m)^  " + name + "\\s+([0-9,]+)$").matcher(printed);
    assertThat(matcher.find()).as("%s in%n%s", name, printed).isTrue();
    return Long.parseLong(matcher.group(1).replace(",", ""));
  }
}
