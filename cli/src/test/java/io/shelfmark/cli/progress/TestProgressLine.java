package io.shelfmark.cli.progress;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TestProgressLine {
  @Test
  void withoutTerminalPrintsOneLinePerTenthWithRate() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    AtomicLong clock = new AtomicLong();
    ProgressLine line =
        new ProgressLine(
            new PrintStream(bytes, true, UTF_8), "generating", "rows", false, clock::get);
    for (int done = 0; done <= 1000; done += 10) {
      clock.addAndGet(10_000_000L); // 10 ms per 10 rows: 1,000 rows/s
      line.update(done, 1000);
    }
    String[] lines = bytes.toString(UTF_8).split("\n");
    assertThat(lines).hasSize(11);
    assertThat(lines[10])
        .isEqualTo(
            "  generating [##############################] 100% 1,000/1,000 rows  990 rows/s");
  }

  @Test
  void terminalRedrawsInPlace() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    AtomicLong clock = new AtomicLong();
    ProgressLine line =
        new ProgressLine(
            new PrintStream(bytes, true, UTF_8), "indexing", "files", true, clock::get);
    line.update(1, 4);
    clock.addAndGet(1_000_000_000L);
    line.update(2, 4);
    line.finish("4 files in 1.0 s");
    String out = bytes.toString(UTF_8);
    assertThat(out).startsWith("\r  indexing [########");
    assertThat(out).contains("\r  indexing [###############               ]  50% 2/4 files");
    assertThat(out).endsWith("  indexing: 4 files in 1.0 s\n");
  }
}
