package io.shelfmark.config;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/** The text formats a config can be written in. */
public enum ConfigFormat {
  YAML,
  JSON;

  /** The format a file name's extension names: {@code .yaml}/{@code .yml} or {@code .json}. */
  public static Optional<ConfigFormat> fromFileName(Path file) {
    Path name = file.getFileName();
    String lower = name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
    if (lower.endsWith(".yaml") || lower.endsWith(".yml")) {
      return Optional.of(YAML);
    }
    if (lower.endsWith(".json")) {
      return Optional.of(JSON);
    }
    return Optional.empty();
  }
}
