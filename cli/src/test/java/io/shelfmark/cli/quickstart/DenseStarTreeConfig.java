package io.shelfmark.cli.quickstart;

import io.shelfmark.config.ConfigFormat;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.table.TableConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The bundled {@code obs.metrics} table config with its star-tree keeping a record per second
 * however sparse ({@code min-rows-per-record: 1}), as docs/config.md tells a user who wants the
 * tree at any density. At the tests' few thousand rows every second is sparse, so the bundled
 * roll-up answers Q2 and Q3 from their rows; tests about star-tree answers use this one.
 */
public final class DenseStarTreeConfig {
  private static final String ROLL_UP = "min-rows-per-record: 2";

  private DenseStarTreeConfig() {}

  public static TableConfig load() {
    String bundled;
    try (InputStream in =
        ConfigLoader.class.getResourceAsStream(ConfigLoader.BENCHMARK_TABLE_RESOURCE)) {
      bundled = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (!bundled.contains(ROLL_UP)) {
      throw new IllegalStateException(
          "The bundled obs.metrics config no longer says '" + ROLL_UP + "': update this fixture");
    }
    return ConfigLoader.parseTable(
        bundled.replace(ROLL_UP, "min-rows-per-record: 1"),
        ConfigFormat.YAML,
        ConfigLoader.BENCHMARK_TABLE_RESOURCE + " with min-rows-per-record: 1");
  }
}
