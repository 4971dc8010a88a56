package io.shelfmark.cli.clients;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Pinot's Java clients in a JVM of their own (module pinot-clients, PinotClientProbe): their
 * dependencies would break the node on one class path, so the test talks to them through the
 * probe's stdin and stdout, one JSON command and answer per line.
 */
final class JavaClientProbe implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Process process;
  private final BufferedWriter commands;
  private final BufferedReader answers;

  private JavaClientProbe(Process process) {
    this.process = process;
    this.commands = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), UTF_8));
    this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8));
  }

  /** Starts the probe, built by the pinot-clients module (the root pom lists it before cli). */
  static JavaClientProbe start(Path logFile) throws IOException {
    String dir = System.getProperty("shelfmark.pinot-clients.dir", "");
    Path target = Path.of(dir.isEmpty() ? "../pinot-clients/target" : dir);
    Path classpathFile = target.resolve("probe-classpath.txt");
    if (!Files.isRegularFile(classpathFile) || !Files.isDirectory(target.resolve("classes"))) {
      throw new IllegalStateException(
          "Cannot start the Pinot Java client probe: "
              + classpathFile.toAbsolutePath()
              + " or its classes are missing (build the pinot-clients module: run bin/test, or add"
              + " it to the modules built: ./mvnw -pl pinot-clients,cli -am test)");
    }
    String classpath =
        target.resolve("classes") + File.pathSeparator + Files.readString(classpathFile).strip();
    String java = ProcessHandle.current().info().command().orElse("java");
    Process process =
        new ProcessBuilder(
                List.of(java, "-cp", classpath, "io.shelfmark.pinotclients.PinotClientProbe"))
            .redirectError(logFile.toFile())
            .start();
    return new JavaClientProbe(process);
  }

  /** Runs one command and returns the probe's answer. */
  JsonNode run(Map<String, String> command) throws IOException {
    commands.write(JSON.writeValueAsString(command));
    commands.newLine();
    commands.flush();
    String line = answers.readLine();
    if (line == null) {
      throw new IllegalStateException(
          "The Pinot Java client probe stopped answering (alive: "
              + process.isAlive()
              + "): see its log");
    }
    return JSON.readTree(line);
  }

  @Override
  public void close() throws IOException {
    commands.close();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
