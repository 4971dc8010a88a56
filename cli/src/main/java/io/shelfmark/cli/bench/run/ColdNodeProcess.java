package io.shelfmark.cli.bench.run;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.client.BrokerClientException;
import io.shelfmark.cli.node.warmup.NodeWarmup;
import io.shelfmark.config.ConfigFormat;
import io.shelfmark.config.ConfigWriter;
import io.shelfmark.config.table.TableConfig;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One all-in-one node in a fresh child JVM ({@link ColdNodeMain}), for a cold run: the same java
 * binary and class path as this process, the JVM flags the CLI needs and this process's heap and
 * collector options ({@link #memoryOptions}), so that a cold run differs from a hot one by its
 * empty caches and JIT, not by how its heap is sized or collected.
 *
 * <p>Lifecycle: {@link #start} launches the child and returns once its broker serves (it wrote its
 * port file); {@link #onboard} onboards a table over HTTP and waits until every segment is ready;
 * {@link #close} stops the child (SIGTERM, then a forced kill after {@link #STOP_TIMEOUT}). A
 * shutdown hook stops the child if this JVM exits first (Ctrl-C), and the child also stops when its
 * standard input, a pipe from this process, ends: no child outlives the benchmark. The child's
 * standard output and error go to {@link #log()}; every failure names that file. Not thread safe.
 */
final class ColdNodeProcess implements AutoCloseable {
  /**
   * The JVM flags of {@code bin/shelfmark} (native access for SQLite and zstd, Unsafe quiet, and
   * java.nio open to Arrow's memory for the node's Flight SQL endpoint).
   */
  static final List<String> JVM_FLAGS =
      List.of(
          "--enable-native-access=ALL-UNNAMED",
          "--sun-misc-unsafe-memory-access=allow",
          "--add-opens=java.base/java.nio=ALL-UNNAMED");

  static final Duration START_TIMEOUT = Duration.ofMinutes(2);
  static final Duration READY_TIMEOUT = Duration.ofMinutes(10);
  static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
  private static final long POLL_MILLIS = 20;

  private final Process process;
  private final Path log;
  private final String url;
  private final Thread shutdownHook;

  private ColdNodeProcess(Process process, Path log, String url, Thread shutdownHook) {
    this.process = process;
    this.log = log;
    this.url = url;
    this.shutdownHook = shutdownHook;
  }

  /**
   * Starts a child JVM serving the cluster config in {@code configFile} and waits until its broker
   * answers.
   *
   * @param catalogEndpoint the S3 endpoint the child's catalog reads metadata from
   * @param host the address the child binds ({@code host} of the config)
   * @param runDir where the child's port file and log go ({@code <name>.port}, {@code <name>.log})
   * @param name names this run in files and messages, such as {@code pinned-Q1}
   * @throws IOException naming the log file when the child exits early or does not serve in time
   */
  static ColdNodeProcess start(
      Path configFile, URI catalogEndpoint, String host, Path runDir, String name)
      throws IOException {
    requireNonNull(configFile, "configFile is null");
    requireNonNull(catalogEndpoint, "catalogEndpoint is null");
    requireNonNull(host, "host is null");
    requireNonNull(name, "name is null");
    Files.createDirectories(runDir);
    Path portFile = runDir.resolve(name + ".port");
    Path log = runDir.resolve(name + ".log");
    Files.deleteIfExists(portFile);
    ProcessBuilder builder =
        new ProcessBuilder(command(configFile, catalogEndpoint, portFile))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
    // Standard input stays a pipe from this process: the child stops when it ends.
    Process process = builder.start();
    Thread hook = new Thread(() -> stop(process), "cold-node-" + name + "-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    ColdNodeProcess started = null;
    try {
      int port = awaitPort(process, portFile, log, name);
      started = new ColdNodeProcess(process, log, "http://" + host + ":" + port, hook);
      return started;
    } finally {
      if (started == null) {
        stop(process);
        removeHook(hook);
      }
    }
  }

  /** The child's command line: this JVM's java binary and class path, then the node's options. */
  static List<String> command(Path configFile, URI catalogEndpoint, Path portFile) {
    List<String> command = new ArrayList<>();
    command.add(javaBinary());
    command.addAll(JVM_FLAGS);
    command.addAll(memoryOptions());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(ColdNodeMain.class.getName());
    command.add("--config=" + configFile.toAbsolutePath());
    command.add("--catalog-endpoint=" + catalogEndpoint);
    command.add("--port-file=" + portFile.toAbsolutePath());
    return command;
  }

  private static String javaBinary() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  /**
   * This JVM's heap and collector options as given ({@code -Xms}, {@code -Xmx}, {@code -XX:...}, in
   * their order, so the last one still wins in the child), plus its effective maximum heap as
   * {@code -Xmx} when none was given. A flight recording started on this JVM stays with it: the
   * children would otherwise overwrite its file.
   */
  static List<String> memoryOptions() {
    return memoryOptions(
        ManagementFactory.getRuntimeMXBean().getInputArguments(), Runtime.getRuntime().maxMemory());
  }

  static List<String> memoryOptions(List<String> jvmArguments, long maxHeapBytes) {
    List<String> options = new ArrayList<>();
    boolean maxHeapGiven = false;
    for (String argument : jvmArguments) {
      if (argument.startsWith("-XX:StartFlightRecording")) {
        continue;
      }
      boolean maxHeap = argument.startsWith("-Xmx");
      if (maxHeap || argument.startsWith("-Xms") || argument.startsWith("-XX:")) {
        options.add(argument);
        maxHeapGiven |= maxHeap;
      }
    }
    if (!maxHeapGiven) {
      options.add("-Xmx" + (maxHeapBytes >> 20) + "m");
    }
    return options;
  }

  private static int awaitPort(Process process, Path portFile, Path log, String name)
      throws IOException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (true) {
      try {
        return Integer.parseInt(Files.readString(portFile, StandardCharsets.UTF_8).strip());
      } catch (NoSuchFileException e) {
        // not serving yet
      }
      if (!process.isAlive()) {
        throw new IOException(
            "Cannot start the cold node "
                + name
                + ": its JVM exited with status "
                + process.exitValue()
                + " before serving (see "
                + log
                + ")");
      }
      if (System.nanoTime() > deadline) {
        throw new IOException(
            "Cannot start the cold node "
                + name
                + ": not serving after "
                + START_TIMEOUT.toSeconds()
                + " s (see "
                + log
                + ")");
      }
      pause(name);
    }
  }

  /**
   * Onboards {@code table} over HTTP ({@code POST /tables}) and waits until none of its segments is
   * pending and the node's warm-up is over ({@code GET /tables/{name}}), as the in-process nodes
   * wait.
   *
   * @return the table's final status
   * @throws IOException naming the log file when the child dies, refuses the table or is not ready
   *     in time
   */
  JsonNode onboard(TableConfig table) throws IOException {
    requireNonNull(table, "table is null");
    BrokerClient client = new BrokerClient(url);
    String tableName;
    try {
      tableName =
          client.onboard(ConfigWriter.write(table, ConfigFormat.YAML)).path("name").asText();
    } catch (BrokerClientException e) {
      throw failure("cannot onboard " + table.identity().qualifiedName() + ": " + e.getMessage());
    }
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (true) {
      Optional<JsonNode> status;
      try {
        status = client.table(tableName);
      } catch (BrokerClientException e) {
        throw failure("cannot read the status of " + tableName + ": " + e.getMessage());
      }
      if (status.isEmpty()) {
        throw failure("it does not serve " + tableName + " after onboarding it");
      }
      String warmup = status.get().path("warmup").asText();
      if (status.get().path("segmentsPending").asLong(-1) == 0
          && (warmup.equals(NodeWarmup.State.DONE.label())
              || warmup.equals(NodeWarmup.State.OFF.label()))) {
        return status.get();
      }
      if (System.nanoTime() > deadline) {
        throw failure(
            tableName + " has segments pending after " + READY_TIMEOUT.toSeconds() + " s");
      }
      pause(tableName);
    }
  }

  private IOException failure(String what) {
    String state =
        process.isAlive() ? "" : " (its JVM exited with status " + process.exitValue() + ")";
    return new IOException(
        "Cannot use the cold node at " + url + ": " + what + state + " (see " + log + ")");
  }

  /** The broker's base URL, such as {@code http://127.0.0.1:41234}. */
  String url() {
    return url;
  }

  /** The child's standard output and error. */
  Path log() {
    return log;
  }

  /** The child, for tests that stop it the way a dying parent does (its standard input ends). */
  Process process() {
    return process;
  }

  /** Stops the child and waits for it; forcibly after {@link #STOP_TIMEOUT}. */
  @Override
  public void close() {
    stop(process);
    removeHook(shutdownHook);
  }

  private static void stop(Process process) {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    boolean interrupted = false;
    try {
      if (process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        return;
      }
    } catch (InterruptedException e) {
      interrupted = true; // still kill it below, then restore the flag
    }
    process.destroyForcibly();
    try {
      process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      interrupted = true;
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // This JVM is shutting down: the hook itself is stopping the child.
    }
  }

  private static void pause(String what) throws InterruptedIOException {
    try {
      Thread.sleep(POLL_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while waiting for the cold node " + what);
    }
  }
}
