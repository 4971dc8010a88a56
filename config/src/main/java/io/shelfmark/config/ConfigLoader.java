package io.shelfmark.config;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableMap;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.table.TableConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Loads configs from YAML or JSON and validates them up front, reporting every problem at once as a
 * {@link ConfigException}.
 *
 * <p>Cluster configs are read in three steps: the file, then {@code SHELFMARK_*} environment
 * overrides ({@code SHELFMARK_} and the key upper-cased with {@code .} and {@code -} as {@code _},
 * such as {@code SHELFMARK_CACHE_DISK_MAX_SIZE}; an empty value restores the default), then
 * validation. Table configs describe one table each and are shared by the whole cluster, so the
 * environment does not apply to them.
 *
 * <p>Thread safe; the environment is copied when the loader is made.
 */
public final class ConfigLoader {
  /** The prefix of environment variables that override cluster config keys. */
  public static final String ENVIRONMENT_PREFIX = "SHELFMARK_";

  /** The bundled config of the benchmark table {@code obs.metrics}. */
  public static final String BENCHMARK_TABLE_RESOURCE = "obs-metrics.table.yaml";

  private final Map<String, String> environment;

  /**
   * @param environment the environment variables to apply, usually {@link System#getenv()}
   */
  public ConfigLoader(Map<String, String> environment) {
    this.environment = ImmutableMap.copyOf(requireNonNull(environment, "environment is null"));
  }

  /** A loader that applies this process's environment variables. */
  public static ConfigLoader withSystemEnvironment() {
    return new ConfigLoader(System.getenv());
  }

  /** A loader that applies no environment variables. */
  public static ConfigLoader withoutEnvironment() {
    return new ConfigLoader(Map.of());
  }

  /**
   * Reads a cluster config file ({@code .yaml}, {@code .yml} or {@code .json}), applies the
   * environment and validates the result.
   *
   * @throws ConfigException listing every problem, each line prefixed by {@code file}
   */
  public ClusterConfig loadCluster(Path file) {
    requireNonNull(file, "file is null");
    return parseCluster(read(file), formatOf(file), file.toString());
  }

  /**
   * Parses cluster config text, applies the environment and validates the result.
   *
   * @param source names the text in messages, such as a file name
   * @throws ConfigException listing every problem, each line prefixed by {@code source}
   */
  public ClusterConfig parseCluster(String text, ConfigFormat format, String source) {
    return bind(
        text,
        format,
        source,
        (root, context) -> {
          EnvironmentOverrides.apply(root, environment, context);
          return ClusterConfigBinder.bind(new ConfigNode(root, "", context));
        });
  }

  /**
   * A cluster config from the environment alone, as containers are often configured.
   *
   * @throws ConfigException listing every problem, each line prefixed by {@code environment}
   */
  public ClusterConfig clusterFromEnvironment() {
    return parseCluster("{}", ConfigFormat.JSON, "environment");
  }

  /**
   * Reads and validates a table config file ({@code .yaml}, {@code .yml} or {@code .json}).
   *
   * @throws ConfigException listing every problem, each line prefixed by {@code file}
   */
  public static TableConfig loadTable(Path file) {
    requireNonNull(file, "file is null");
    return parseTable(read(file), formatOf(file), file.toString());
  }

  /**
   * Parses and validates table config text, such as a body sent to the controller.
   *
   * @param source names the text in messages
   * @throws ConfigException listing every problem, each line prefixed by {@code source}
   */
  public static TableConfig parseTable(String text, ConfigFormat format, String source) {
    return bind(
        text,
        format,
        source,
        (root, context) -> TableConfigBinder.bind(new ConfigNode(root, "", context)));
  }

  /**
   * A table config bundled with Shelfmark, such as {@link #BENCHMARK_TABLE_RESOURCE}.
   *
   * @throws IllegalArgumentException if no such resource is bundled
   */
  public static TableConfig loadBundledTable(String resourceName) {
    requireNonNull(resourceName, "resourceName is null");
    String text;
    try (InputStream in = ConfigLoader.class.getResourceAsStream(resourceName)) {
      if (in == null) {
        throw new IllegalArgumentException(
            "Cannot load bundled table config "
                + resourceName
                + ": no such resource (bundled: "
                + BENCHMARK_TABLE_RESOURCE
                + ")");
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read bundled table config " + resourceName, e);
    }
    return parseTable(text, ConfigFormat.YAML, resourceName);
  }

  /**
   * The variable that overrides {@code key}: {@code storage.path-style-access} gives {@code
   * SHELFMARK_STORAGE_PATH_STYLE_ACCESS}.
   */
  public static String environmentVariable(String key) {
    return ClusterKeys.environmentVariable(requireNonNull(key, "key is null"));
  }

  private interface Binder<T> {
    Optional<T> bind(ObjectNode root, BindContext context);
  }

  private static <T> T bind(String text, ConfigFormat format, String source, Binder<T> binder) {
    requireNonNull(text, "text is null");
    requireNonNull(format, "format is null");
    requireNonNull(source, "source is null");
    BindContext context = new BindContext();
    Optional<T> result =
        ConfigParser.parse(text, format, context)
            .flatMap(root -> bindChecked(root, context, binder));
    if (context.hasViolations()) {
      throw new ConfigException(source, context.violations());
    }
    // Binders answer empty only after recording why.
    return result.orElseThrow(
        () -> new IllegalStateException("No config and no violation: " + source));
  }

  private static <T> Optional<T> bindChecked(
      ObjectNode root, BindContext context, Binder<T> binder) {
    try {
      return binder.bind(root, context);
    } catch (IllegalArgumentException e) {
      // The records re-check their invariants; one the binder did not check first is still the
      // user's config at fault, so it is reported like the rest rather than as a crash.
      context.add("", e.getMessage());
      return Optional.empty();
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw failure(file, "Cannot read the file: no such file (check the path)");
    } catch (CharacterCodingException e) {
      throw failure(file, "Cannot read the file: not UTF-8 text (save it as UTF-8)");
    } catch (IOException e) {
      throw failure(file, "Cannot read the file: " + e + " (check that it is a readable file)");
    }
  }

  private static ConfigFormat formatOf(Path file) {
    return ConfigFormat.fromFileName(file)
        .orElseThrow(
            () ->
                failure(
                    file,
                    "Cannot read the file: unknown file type (name it .yaml, .yml or .json)"));
  }

  private static ConfigException failure(Path file, String message) {
    return new ConfigException(file.toString(), List.of(new Violation("", message)));
  }
}
