package io.shelfmark.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code systemd-analyze verify} of the written template unit, one instance per process, when this
 * machine has systemd-analyze (it checks the syntax, the directives and that ExecStart's binary
 * exists); logged and skipped otherwise.
 */
final class SystemdVerify {
  private static final Logger log = LoggerFactory.getLogger(SystemdVerify.class);
  private static final Path SYSTEMD_ANALYZE = Path.of("/usr/bin/systemd-analyze");

  private SystemdVerify() {}

  static void verify(Path templateUnit, List<String> processes, Path scratch) throws Exception {
    if (!Files.isExecutable(SYSTEMD_ANALYZE)) {
      log.warn("No {}: the units are not verified", SYSTEMD_ANALYZE);
      return;
    }
    Path units = Files.createDirectories(scratch.resolve("systemd-verify"));
    List<String> command = new ArrayList<>(List.of(SYSTEMD_ANALYZE.toString(), "verify"));
    Path template = Files.copy(templateUnit, units.resolve(templateUnit.getFileName()));
    for (String process : processes) {
      // An instance name linked to the template, as systemctl enable does.
      Path instance = units.resolve("shelfmark@" + process + ".service");
      Files.createSymbolicLink(instance, template.getFileName());
      command.add(instance.toString());
    }
    Path output = scratch.resolve("systemd-verify.log");
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String printed = Files.readString(output);
    log.info("systemd-analyze verify: exit {}, output:\n{}", process.exitValue(), printed);
    assertThat(printed)
        .as("systemd-analyze verify output")
        .doesNotContain(templateUnit.getFileName() + ":");
    assertThat(process.exitValue()).as("systemd-analyze verify: %s", printed).isZero();
  }
}
