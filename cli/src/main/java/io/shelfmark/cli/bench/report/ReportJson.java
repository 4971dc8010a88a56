package io.shelfmark.cli.bench.report;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code bench.json}: a {@link BenchReport} as pretty-printed JSON, fields in declaration order,
 * map entries sorted by key, absent values as {@code null} (never left out), so two runs diff line
 * by line. Reading refuses a file of another {@code schemaVersion}.
 */
public final class ReportJson {
  private static final ObjectMapper JSON =
      JsonMapper.builder()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .build();

  private ReportJson() {}

  public static String toJson(BenchReport report) {
    requireNonNull(report, "report is null");
    try {
      return JSON.writeValueAsString(report) + "\n";
    } catch (IOException e) {
      throw new IllegalStateException("Cannot write the benchmark report as JSON: " + e, e);
    }
  }

  public static void write(BenchReport report, Path file) throws IOException {
    Files.writeString(file, toJson(report));
  }

  /**
   * Reads a report written by {@link #toJson}.
   *
   * @throws IOException naming the version when the file has another schema version
   */
  public static BenchReport fromJson(String json) throws IOException {
    requireNonNull(json, "json is null");
    int version = JSON.readTree(json).path("schemaVersion").asInt(-1);
    if (version != BenchReport.SCHEMA_VERSION) {
      throw new IOException(
          "Cannot read benchmark report: schemaVersion "
              + version
              + " (this Shelfmark reads version "
              + BenchReport.SCHEMA_VERSION
              + "; re-run bin/shelfmark bench)");
    }
    return JSON.readValue(json, BenchReport.class);
  }

  public static BenchReport read(Path file) throws IOException {
    return fromJson(Files.readString(file));
  }
}
