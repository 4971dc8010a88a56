package io.shelfmark.cli.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestChildJvm {
  @Test
  void childInheritsHeapAndCollectorOptionsInOrderButNotAFlightRecording() {
    assertThat(
            ChildJvm.memoryOptions(
                List.of(
                    "-Xms2g",
                    "-Dfoo=bar",
                    "-Xmx1g",
                    "-XX:G1HeapRegionSize=8m",
                    "-XX:StartFlightRecording=filename=/tmp/p.jfr",
                    "--enable-native-access=ALL-UNNAMED",
                    "-Xmx2g"),
                64L << 20))
        .containsExactly("-Xms2g", "-Xmx1g", "-XX:G1HeapRegionSize=8m", "-Xmx2g");
    // No -Xmx given: the child gets this JVM's effective maximum, in MiB.
    assertThat(ChildJvm.memoryOptions(List.of("-XX:+UseG1GC"), 3L << 30))
        .containsExactly("-XX:+UseG1GC", "-Xmx3072m");
  }

  @Test
  void aFileWrittenAtomicallyReadsBackWholeAndReplacesTheOldOne(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("ready.json");
    ChildJvm.writeAtomically(file, "first");
    ChildJvm.writeAtomically(file, "second");
    assertThat(Files.readString(file)).isEqualTo("second");
    assertThat(dir.resolve("ready.json.partial")).doesNotExist();
  }

  @Test
  void stopEndsAChildThatHonoursSigterm() throws Exception {
    Process sleeper = new ProcessBuilder("sleep", "60").start();
    assertThat(ChildJvm.stop(sleeper.toHandle(), java.time.Duration.ofSeconds(10))).isTrue();
    assertThat(sleeper.isAlive()).isFalse();
  }
}
