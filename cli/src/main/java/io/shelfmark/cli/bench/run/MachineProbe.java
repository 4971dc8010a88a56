package io.shelfmark.cli.bench.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads what the JVM does not say about the machine. */
final class MachineProbe {
  private MachineProbe() {}

  /** The CPU model from /proc/cpuinfo (Linux), or "unknown". */
  static String cpuModel() {
    Path cpuInfo = Path.of("/proc/cpuinfo");
    if (!Files.isReadable(cpuInfo)) {
      return "unknown";
    }
    try {
      for (String line : Files.readAllLines(cpuInfo)) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    }
    return "unknown";
  }
}
