package io.shelfmark.distribution;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The tarball the distribution module packaged, unpacked into a temporary directory, and the
 * environment its commands run in: a PATH of the system commands without Maven ({@code mvn*}),
 * {@code JAVA_HOME} of this JVM's JDK, and a working directory outside the source tree.
 */
final class UnpackedDistribution {
  /** Where a JVM started by a test gets the time to start and serve. */
  static final Duration START_TIMEOUT = Duration.ofMinutes(3);

  private static final String SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";

  private final Path home;
  private final Path workDir;

  private UnpackedDistribution(Path home, Path workDir) {
    this.home = home;
    this.workDir = workDir;
  }

  /** The tarball of this build ({@code distribution/target/shelfmark-VERSION.tar.gz}). */
  static Path tarball() {
    Path tarball = Path.of(requireNonNull(System.getProperty("shelfmark.dist.tarball")));
    assertThat(tarball)
        .as("the tarball of the package phase (run the distribution module's tests through Maven)")
        .isRegularFile();
    return tarball;
  }

  /** Unpacks the tarball under {@code directory} with the system's tar. */
  static UnpackedDistribution unpack(Path directory) throws Exception {
    Path workDir = Files.createDirectories(directory.resolve("work"));
    run(List.of("tar", "-xzf", tarball().toString(), "-C", directory.toString()), directory);
    Path home = directory.resolve(System.getProperty("shelfmark.dist.name"));
    assertThat(home.resolve("bin/shelfmark")).isExecutable();
    return new UnpackedDistribution(home, workDir);
  }

  Path home() {
    return home;
  }

  Path workDir() {
    return workDir;
  }

  /** The launcher of the unpacked tree. */
  Path launcher() {
    return home.resolve("bin/shelfmark");
  }

  /**
   * The environment every command gets: this JDK, a PATH of one directory linking every system
   * command except Maven's ({@code mvn*}), nothing from the build's environment.
   */
  static Map<String, String> environment() throws IOException {
    return Map.of(
        "PATH", toolsWithoutMaven().toString(),
        "JAVA_HOME", System.getProperty("java.home"),
        "HOME", System.getProperty("java.io.tmpdir"),
        "LANG", "C.UTF-8");
  }

  private static Path tools;

  /** A directory of links to the commands of the system directories, leaving Maven's out. */
  private static synchronized Path toolsWithoutMaven() throws IOException {
    if (tools == null) {
      Path directory = Files.createTempDirectory("shelfmark-tools");
      for (String system : SYSTEM_PATH.split(":")) {
        Path source = Path.of(system);
        if (!Files.isDirectory(source)) {
          continue;
        }
        try (var commands = Files.list(source)) {
          for (Path command : (Iterable<Path>) commands::iterator) {
            String name = command.getFileName().toString();
            Path link = directory.resolve(name);
            if (!name.startsWith("mvn") && !Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
              Files.createSymbolicLink(link, command);
            }
          }
        }
      }
      assertThat(directory.resolve("mvn"))
          .as("Maven must not be on the test's PATH")
          .doesNotExist();
      assertThat(directory.resolve("mvnw")).doesNotExist();
      assertThat(directory.resolve("bash")).exists();
      tools = directory;
    }
    return tools;
  }

  /**
   * Starts {@code command} in {@code workDir} with {@link #environment()}, output to {@code log}.
   */
  static Process start(List<String> command, Path workDir, Path log, Map<String, String> extraEnv)
      throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().clear();
    builder.environment().putAll(environment());
    builder.environment().putAll(extraEnv);
    return builder.start();
  }

  /** Runs {@code command} to its end and returns its output; fails the test on a non-zero exit. */
  static String run(List<String> command, Path workDir) throws Exception {
    return run(command, workDir, Map.of());
  }

  static String run(List<String> command, Path workDir, Map<String, String> extraEnv)
      throws Exception {
    Path log = Files.createTempFile("shelfmark-command", ".log");
    try {
      Process process = start(command, workDir, log, extraEnv);
      if (!process.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(
            "Command did not finish in " + START_TIMEOUT + ": " + command + "\n" + read(log));
      }
      String output = read(log);
      assertThat(process.exitValue())
          .as("exit status of %s; output:%n%s", command, output)
          .isZero();
      return output;
    } finally {
      Files.deleteIfExists(log);
    }
  }

  /** Waits until {@code log} holds {@code text}; fails when the process exits first. */
  static String awaitLog(Process process, Path log, String text) throws Exception {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (true) {
      String content = read(log);
      if (content.contains(text)) {
        return content;
      }
      if (!process.isAlive()) {
        throw new AssertionError(
            "Process exited with "
                + process.exitValue()
                + " before printing "
                + text
                + ":\n"
                + content);
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("No " + text + " after " + START_TIMEOUT + ":\n" + content);
      }
      Thread.sleep(200);
    }
  }

  /** Stops {@code process} with SIGTERM and returns whether it exited by itself in time. */
  static boolean stop(Process process) throws InterruptedException {
    if (!process.isAlive()) {
      return true;
    }
    process.destroy();
    if (process.waitFor(60, TimeUnit.SECONDS)) {
      return true;
    }
    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    return false;
  }

  static String read(Path log) throws IOException {
    return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  static List<String> command(Path launcher, String... arguments) {
    List<String> command = new ArrayList<>();
    command.add(launcher.toString());
    command.addAll(List.of(arguments));
    return command;
  }
}
