package io.shelfmark.cli.bench.run;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestDataDirLock {
  @Test
  void aSecondRunInThisProcessIsRefusedUntilTheFirstEnds(@TempDir Path dir) throws IOException {
    Path data = dir.resolve("bench");
    try (DataDirLock first = DataDirLock.acquire(data)) {
      assertThatThrownBy(() -> DataDirLock.acquire(data))
          .isInstanceOf(IOException.class)
          .hasMessageContaining(data.toAbsolutePath().toString())
          .hasMessageContaining("process " + ProcessHandle.current().pid())
          .hasMessageContaining("another --data-dir");
    }
    DataDirLock.acquire(data).close();
  }

  @Test
  void aRunInAnotherProcessIsRefusedUntilItExits(@TempDir Path dir) throws Exception {
    Path data = dir.resolve("bench");
    Process holder =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                TestDataDirLock.class.getName(),
                data.toString())
            .redirectErrorStream(true)
            .start();
    try {
      BufferedReader output =
          new BufferedReader(new InputStreamReader(holder.getInputStream(), UTF_8));
      assertThat(output.readLine()).isEqualTo("locked");
      assertThatThrownBy(() -> DataDirLock.acquire(data))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("process " + holder.pid());
      holder.getOutputStream().close(); // the holder exits at the end of its input
      assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
      DataDirLock.acquire(data).close();
    } finally {
      holder.destroyForcibly();
    }
  }

  /** The other process: holds the lock of {@code args[0]} until its standard input ends. */
  public static void main(String[] args) throws IOException {
    try (DataDirLock lock = DataDirLock.acquire(Path.of(args[0]))) {
      System.out.println("locked");
      System.out.flush();
      while (System.in.read() >= 0) {
        // wait for the end of input
      }
    }
  }
}
