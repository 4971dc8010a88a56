package io.shelfmark.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class TestShelfmarkCommandLine {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine commandLine = Shelfmark.commandLine();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    return commandLine.execute(args);
  }

  @Test
  void helpListsEveryCommandWithADescription() {
    assertThat(run("--help")).isZero();
    String help = out.toString();
    for (String command :
        new String[] {"quickstart", "query", "table", "generate", "lake", "config", "help"}) {
      assertThat(help).containsPattern("(?m)^  " + command + "\\s+\\S.*$");
    }
  }

  @Test
  void everySubcommandHasHelp() {
    for (String command :
        new String[] {"quickstart", "query", "table", "generate", "lake", "config"}) {
      out.getBuffer().setLength(0);
      assertThat(run(command, "--help")).as(command).isZero();
      assertThat(out.toString()).as(command).startsWith("Usage: shelfmark " + command);
    }
  }

  @Test
  void badClusterConfigIsOneMessageWithoutStackTrace(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("cluster.yaml");
    Files.writeString(
        file, "storage:\n  type: gcs\ncache:\n  disk:\n    max-size: 12 parsecs\n", UTF_8);
    assertThat(run("config", "check", file.toString())).isEqualTo(1);
    assertThat(err.toString())
        .contains("storage.type")
        .contains("gcs")
        .contains("cache.disk.max-size")
        .doesNotContain("\tat ");
  }

  @Test
  void configCheckRefusesARemoteBindWithoutTheOverride(@TempDir Path dir) throws Exception {
    // Issue 21 finding 6: 0.0.0.0 used to pass silently although nothing authenticates clients.
    Path file = dir.resolve("cluster.yaml");
    Files.writeString(file, "roles: [server]\nsegment-store: /s\nhost: 0.0.0.0\n", UTF_8);
    assertThat(run("config", "check", file.toString())).isEqualTo(1);
    assertThat(err.toString())
        .contains("Cannot use host: \"0.0.0.0\" (without authentication")
        .contains("broker.allow-unauthenticated-remote-access: true")
        .doesNotContain("\tat ");

    Files.writeString(
        file,
        "roles: [server]\nsegment-store: /s\nhost: 0.0.0.0\n"
            + "broker:\n  allow-unauthenticated-remote-access: true\n",
        UTF_8);
    assertThat(run("config", "check", file.toString())).isZero();
  }

  @Test
  void validTableConfigIsConfirmed(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("t.yaml");
    Files.writeString(
        file,
        "table:\n  catalog: lake\n  namespace: obs\n  name: metrics\ncolumns:\n  metric:\n"
            + "    indexes: [inverted]\n",
        UTF_8);
    assertThat(run("config", "check", "--table", file.toString())).isZero();
    assertThat(out.toString())
        .isEqualTo(
            "OK: " + file + " is a valid table config for obs.metrics" + System.lineSeparator());
  }

  @Test
  void unknownCommandIsExplained() {
    assertThat(run("frobnicate")).isEqualTo(2);
    assertThat(err.toString()).contains("Unmatched argument at index 0: 'frobnicate'");
  }
}
