package io.shelfmark.cli.process;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JVM started by this one to run a part of Shelfmark on its own: the same java binary and class
 * path, the JVM flags {@code bin/shelfmark} gives, and heap options of the caller's choosing. Used
 * by the benchmark's cold nodes and the local cluster's processes.
 */
public final class ChildJvm {
  /**
   * The JVM flags of {@code bin/shelfmark}: native access for SQLite and zstd, Unsafe quiet, and
   * {@code java.nio} open for Arrow's memory (Flight).
   */
  public static final List<String> JVM_FLAGS =
      List.of(
          "--enable-native-access=ALL-UNNAMED",
          "--sun-misc-unsafe-memory-access=allow",
          "--add-opens=java.base/java.nio=ALL-UNNAMED");

  private static final long POLL_MILLIS = 20;

  private ChildJvm() {}

  /** The command line running {@code mainClass} with {@code arguments} in a child JVM. */
  public static List<String> command(
      List<String> memoryOptions, String mainClass, List<String> arguments) {
    List<String> command = new ArrayList<>();
    command.add(javaBinary());
    command.addAll(JVM_FLAGS);
    command.addAll(memoryOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(requireNonNull(mainClass, "mainClass is null"));
    command.addAll(arguments);
    return command;
  }

  /** This JVM's java binary. */
  public static String javaBinary() {
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
  public static List<String> memoryOptions() {
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

  /**
   * Waits until {@code file} exists and returns its content: a child writes it whole, then renames
   * it into place ({@link #writeAtomically}), once it serves.
   *
   * @param what names the child in errors, such as {@code the cold node pinned-Q1}
   * @throws IOException naming {@code log} when the child exits first or the timeout passes
   */
  public static String awaitFile(
      Process process, Path file, Duration timeout, String what, Path log) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      try {
        return Files.readString(file, StandardCharsets.UTF_8);
      } catch (NoSuchFileException e) {
        // not serving yet
      }
      if (!process.isAlive()) {
        throw new IOException(
            "Cannot start "
                + what
                + ": its JVM exited with status "
                + process.exitValue()
                + " before serving (see "
                + log
                + ")");
      }
      if (System.nanoTime() > deadline) {
        throw new IOException(
            "Cannot start "
                + what
                + ": not serving after "
                + timeout.toSeconds()
                + " s (see "
                + log
                + ")");
      }
      pause(what);
    }
  }

  /** Writes {@code content} whole, then renames it into place: a reader never sees half of it. */
  public static void writeAtomically(Path file, String content) throws IOException {
    Path partial = file.resolveSibling(file.getFileName() + ".partial");
    Files.writeString(partial, content, StandardCharsets.UTF_8);
    Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /**
   * Stops {@code process} (SIGTERM) and waits for it; kills it (SIGKILL) when it is still alive
   * after {@code timeout}.
   *
   * @return whether it stopped by itself
   */
  public static boolean stop(ProcessHandle process, Duration timeout) {
    if (!process.isAlive()) {
      return true;
    }
    process.destroy();
    boolean interrupted = false;
    boolean stopped = false;
    try {
      process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      stopped = true;
    } catch (InterruptedException e) {
      interrupted = true; // still kill it below, then restore the flag
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      // kill it below
    }
    if (!stopped) {
      process.destroyForcibly();
      try {
        process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        interrupted = true;
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        // gone or stuck in the kernel: nothing more to do from here
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return stopped;
  }

  private static void pause(String what) throws InterruptedIOException {
    try {
      Thread.sleep(POLL_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while waiting for " + what);
    }
  }
}
