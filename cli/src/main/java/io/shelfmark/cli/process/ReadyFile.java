package io.shelfmark.cli.process;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a process started with {@code --ready-file} writes once it serves: its pid and the ports it
 * bound, by name. Written whole and renamed into place ({@link ChildJvm#writeAtomically}), so the
 * parent waiting for it never reads half of it, and it exists only once every port listens.
 *
 * @param pid the process's id
 * @param ports what listens where, such as {@code broker-http} or {@code server-rpc}
 */
public record ReadyFile(long pid, Map<String, Integer> ports) {
  private static final ObjectMapper JSON = new ObjectMapper();

  public ReadyFile {
    ports = new TreeMap<>(requireNonNull(ports, "ports is null"));
  }

  /** This process, with {@code ports}. */
  public static ReadyFile of(Map<String, Integer> ports) {
    return new ReadyFile(ProcessHandle.current().pid(), ports);
  }

  /** Writes this to {@code file}, whole. */
  public void write(Path file) throws IOException {
    ChildJvm.writeAtomically(
        file, JSON.writeValueAsString(Map.of("pid", pid, "ports", new TreeMap<>(ports))));
  }

  /**
   * Waits until {@code process} wrote {@code file} and reads it.
   *
   * @throws IOException naming {@code log} when the process exits first or is not ready in time
   */
  public static ReadyFile await(Process process, Path file, Duration timeout, String what, Path log)
      throws IOException {
    return parse(ChildJvm.awaitFile(process, file, timeout, what, log), file);
  }

  static ReadyFile parse(String text, Path file) {
    try {
      Map<String, Object> fields = JSON.readValue(text, new TypeReference<>() {});
      Map<String, Integer> ports = new TreeMap<>();
      if (fields.get("ports") instanceof Map<?, ?> map) {
        map.forEach((name, port) -> ports.put(name.toString(), ((Number) port).intValue()));
      }
      return new ReadyFile(((Number) fields.get("pid")).longValue(), ports);
    } catch (IOException | RuntimeException e) {
      throw new UncheckedIOException(
          new IOException("Cannot read the ready file " + file + ": " + e.getMessage(), e));
    }
  }
}
