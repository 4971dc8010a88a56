package io.shelfmark.distribution;

import static io.shelfmark.distribution.UnpackedDistribution.awaitLog;
import static io.shelfmark.distribution.UnpackedDistribution.command;
import static io.shelfmark.distribution.UnpackedDistribution.freePort;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tarball runs on its own: unpacked in a temporary directory, with a PATH that holds no Maven
 * and a working directory outside the source tree, {@code bin/shelfmark quickstart} serves the
 * benchmark table and {@code bin/shelfmark query} gets its row count; SIGTERM stops it cleanly.
 */
class TestDistributionTarball {
  private static final long ROWS = 20_000;

  @TempDir Path directory;

  @Test
  void containsLauncherJarsConfigsUnitsBootstrapAndNotice() throws Exception {
    UnpackedDistribution dist = UnpackedDistribution.unpack(directory);
    Path home = dist.home();
    try (var jars = Files.list(home.resolve("lib"))) {
      List<String> names = jars.map(jar -> jar.getFileName().toString()).toList();
      assertThat(names).anyMatch(name -> name.startsWith("shelfmark-cli-"));
      assertThat(names).anyMatch(name -> name.startsWith("zookeeper-"));
      assertThat(names).noneMatch(name -> name.startsWith("junit-"));
    }
    assertThat(home.resolve("conf/cluster.yaml")).isRegularFile();
    assertThat(home.resolve("deploy/bootstrap/shelfmark-bootstrap.sh")).isExecutable();
    assertThat(home.resolve("deploy/systemd/shelfmark@.service")).isRegularFile();
    assertThat(Files.readString(home.resolve("LICENSE"))).contains("Apache License");
    // Generated from the dependency metadata: every third-party jar of lib/ has its line.
    String notice = Files.readString(home.resolve("NOTICE"));
    assertThat(notice).contains("org.apache.zookeeper:zookeeper:").doesNotContain("io.shelfmark:");
    List<String> listed = new ArrayList<>();
    for (String line : notice.lines().toList()) {
      String[] coordinates = line.replaceFirst("^\\[[^]]*] ", "").split("[: ]");
      if (line.startsWith("[") && coordinates.length >= 3) {
        listed.add(coordinates[1] + "-" + coordinates[2]);
      }
    }
    try (var jars = Files.list(home.resolve("lib"))) {
      List<String> thirdParty =
          jars.map(jar -> jar.getFileName().toString())
              .filter(name -> !name.startsWith("shelfmark-"))
              .toList();
      assertThat(thirdParty).hasSizeGreaterThan(100);
      assertThat(thirdParty)
          .as("jars of lib/ without a NOTICE line")
          .allMatch(jar -> listed.stream().anyMatch(prefix -> jar.startsWith(prefix)));
      assertThat(listed).hasSameSizeAs(thirdParty);
    }
  }

  @Test
  void launcherRefusesAnOldJava() throws Exception {
    UnpackedDistribution dist = UnpackedDistribution.unpack(directory);
    Path fakeJdk = Files.createDirectories(directory.resolve("old-jdk/bin"));
    Path java = fakeJdk.resolve("java");
    Files.writeString(
        java, "#!/bin/sh\necho '    java.specification.version = 17' >&2\n"); // what -version says
    java.toFile().setExecutable(true);
    Path log = directory.resolve("old-java.log");
    Process process =
        UnpackedDistribution.start(
            command(dist.launcher(), "--help"),
            dist.workDir(),
            log,
            Map.of("JAVA_HOME", fakeJdk.getParent().toString()));
    assertThat(process.waitFor()).isEqualTo(1);
    assertThat(UnpackedDistribution.read(log))
        .contains("Cannot run Shelfmark: " + java + " is Java 17")
        .contains("needs 25 or newer");
  }

  @Test
  void quickstartAndQueryRunFromTheUnpackedTree() throws Exception {
    UnpackedDistribution dist = UnpackedDistribution.unpack(directory);
    int port = freePort();
    Path log = directory.resolve("quickstart.log");
    Process quickstart =
        UnpackedDistribution.start(
            command(
                dist.launcher(),
                "quickstart",
                "--rows=" + ROWS,
                "--data-dir=" + dist.workDir().resolve("quickstart"),
                "--port=" + port,
                "--flight-port=0"),
            dist.workDir(),
            log,
            Map.of());
    try {
      String printed = awaitLog(quickstart, log, "[5/5] serving");
      assertThat(printed).contains(String.format(Locale.ROOT, "%,d rows", ROWS));

      String answer =
          UnpackedDistribution.run(
              command(
                  dist.launcher(),
                  "query",
                  "--broker=http://127.0.0.1:" + port,
                  "--json",
                  "SELECT COUNT(*) FROM obs.metrics"),
              dist.workDir());
      JsonNode response = new ObjectMapper().readTree(answer.substring(answer.indexOf('{')));
      assertThat(response.path("exceptions").isEmpty()).as(answer).isTrue();
      assertThat(response.path("resultTable").path("rows").path(0).path(0).asLong())
          .isEqualTo(ROWS);
    } finally {
      assertThat(UnpackedDistribution.stop(quickstart))
          .as("quickstart stops on SIGTERM within 60 s; log:%n%s", UnpackedDistribution.read(log))
          .isTrue();
    }
  }
}
