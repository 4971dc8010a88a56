package io.shelfmark.cli.bench.run;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cli.bench.BenchMode;
import io.shelfmark.cli.bench.lake.ProxiedLake;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.cli.node.AllInOne;
import io.shelfmark.cli.node.warmup.NodeWarmup;
import io.shelfmark.cli.quickstart.Quickstart;
import io.shelfmark.config.ConfigFormat;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.ConfigWriter;
import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.QueryConfig;
import io.shelfmark.config.cluster.SegmentMode;
import io.shelfmark.config.cluster.WarmupConfig;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.controller.table.OnboardingException;
import io.shelfmark.controller.table.ServedTable;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Starts all-in-one nodes for the benchmark, every role in one process: in this JVM ({@link
 * AllInOne}) or in a fresh child JVM ({@link ColdNodeProcess}, for cold runs). Either reads data
 * files and the segment store through the latency proxy and the catalog's files directly, and is
 * configured per {@link BenchMode}:
 *
 * <pre>
 * remote        server.segment-mode: remote   cache.disk.max-size: 0   (no local disk for segments)
 * pinned        server.segment-mode: pinned   cache.disk.max-size: 0   (no page cache)
 * pinned+pages  server.segment-mode: pinned   cache.disk.max-size: 4GiB
 * </pre>
 */
final class BenchNodes {
  static final DataSize MEMORY_CACHE = DataSize.of(256, DataSize.Unit.MEBIBYTE);
  static final DataSize PAGE_CACHE = DataSize.of(4, DataSize.Unit.GIBIBYTE);

  private final ProxiedLake lake;
  private final TableConfig tableConfig;

  BenchNodes(ProxiedLake lake) throws IOException {
    this.lake = requireNonNull(lake, "lake is null");
    this.tableConfig = ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE);
  }

  static ClusterConfig config(ProxiedLake lake, BenchMode mode, Path nodeDir) {
    return config(lake, mode, nodeDir, WarmupConfig.defaults());
  }

  /** The node's config; {@code warmup} as a node's default unless the node only builds. */
  static ClusterConfig config(ProxiedLake lake, BenchMode mode, Path nodeDir, WarmupConfig warmup) {
    return ClusterConfig.builder()
        .warmup(warmup)
        .storage(lake.proxiedStorage())
        .catalog(lake.lake().catalogConfig())
        .segmentStore(Quickstart.SEGMENT_STORE)
        .dataDir(nodeDir)
        .segmentMode(mode.pinned() ? SegmentMode.PINNED : SegmentMode.REMOTE)
        .cache(
            CacheConfig.builder()
                .memoryMaxSize(MEMORY_CACHE)
                .diskMaxSize(mode.pageCache() ? PAGE_CACHE : DataSize.ofBytes(0))
                .build(nodeDir))
        .query(queryConfig())
        .build();
  }

  /**
   * The node's query config: the defaults, but HTTP may keep {@link LargeResultBench#MAX_ROWS} rows
   * (the large-result query is timed over HTTP too; Flight SQL streams it without keeping it), and
   * with {@code -Dshelfmark.bench.slow-profile=false} (through {@code SHELFMARK_JAVA_OPTS}) without
   * slow queries' profiles, to measure what recording them costs every query (docs/operations.md).
   */
  private static QueryConfig queryConfig() {
    QueryConfig defaults = QueryConfig.defaults();
    boolean profile =
        Boolean.parseBoolean(
            System.getProperty(
                "shelfmark.bench.slow-profile", Boolean.toString(defaults.slowProfile())));
    return new QueryConfig(
        defaults.heavyMaxRunning(),
        defaults.heavyMaxQueued(),
        defaults.cheapMaxRunning(),
        defaults.cheapMaxQueued(),
        defaults.cheapMaxRows(),
        defaults.maxGroups(),
        defaults.maxDistinctValues(),
        Math.max(defaults.maxRows(), LargeResultBench.MAX_ROWS),
        defaults.maxInListItems(),
        defaults.slowThreshold(),
        profile);
  }

  /**
   * A node in {@code mode} over {@code nodeDir}, with the table onboarded, every segment ready and
   * the node's warm-up done.
   */
  AllInOne start(BenchMode mode, Path nodeDir) throws IOException, OnboardingException {
    return start(config(lake, mode, nodeDir));
  }

  /**
   * A pinned node that builds the segments: no warm-up, so that returning once every segment is
   * ready times the build alone.
   */
  AllInOne startBuild(Path nodeDir) throws IOException, OnboardingException {
    return start(config(lake, BenchMode.PINNED, nodeDir, WarmupConfig.off()));
  }

  private AllInOne start(ClusterConfig config) throws IOException, OnboardingException {
    AllInOne node =
        AllInOne.start(
            config, Map.of(LocalLake.CATALOG_NAME, lake.lake().catalog()), lake.proxiedStore(), 0);
    try {
      waitReady(node, node.registry().onboard(tableConfig).sqlName());
      return node;
    } catch (OnboardingException | RuntimeException e) {
      node.close();
      throw e;
    }
  }

  /**
   * A node in {@code mode} over {@code nodeDir} in a fresh child JVM, with the table onboarded over
   * HTTP and every segment ready. Its config ({@link #config}, as JSON) and log go to {@code
   * runDir} as {@code <name>.json} and {@code <name>.log}.
   *
   * @throws IOException naming the child's log file when it cannot start or serve the table
   */
  ColdNodeProcess startProcess(BenchMode mode, Path nodeDir, Path runDir, String name)
      throws IOException {
    ClusterConfig config = config(lake, mode, nodeDir.toAbsolutePath());
    Files.createDirectories(runDir);
    Path configFile = runDir.resolve(name + ".json");
    writeConfig(config, configFile);
    URI catalogEndpoint =
        lake.lake()
            .storageConfig()
            .endpoint()
            .orElseThrow(() -> new IllegalStateException("The embedded lake has no S3 endpoint"));
    ColdNodeProcess node =
        ColdNodeProcess.start(configFile, catalogEndpoint, config.host(), runDir, name);
    try {
      node.onboard(tableConfig);
      return node;
    } catch (IOException | RuntimeException e) {
      node.close();
      throw e;
    }
  }

  /**
   * Writes {@code config} as the file the child reads, and checks that it reads back equal. The
   * file holds the embedded S3 server's secret key, so only its owner may read it (where the file
   * system has POSIX permissions).
   */
  static void writeConfig(ClusterConfig config, Path file) throws IOException {
    String text = ConfigWriter.write(config, ConfigFormat.JSON);
    ClusterConfig readBack =
        ConfigLoader.withoutEnvironment().parseCluster(text, ConfigFormat.JSON, file.toString());
    if (!readBack.equals(config)) {
      throw new IllegalStateException(
          "Cannot write the cold node's config "
              + file
              + ": it reads back as "
              + readBack
              + ", not "
              + config
              + " (a key ConfigWriter does not write?)");
    }
    Files.deleteIfExists(file);
    if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      Files.createFile(
          file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  /**
   * Waits until no segment of the table is pending and the node's warm-up is over (or off); returns
   * the table's final state.
   */
  static ServedTable waitReady(AllInOne node, String name) {
    while (true) {
      ServedTable table = node.registry().table(name).orElseThrow();
      NodeWarmup.State warmup = node.warmupState();
      if (table.segmentsPending() == 0
          && (warmup == NodeWarmup.State.DONE || warmup == NodeWarmup.State.OFF)) {
        return table;
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for " + name + " to index", e);
      }
    }
  }

  TableConfig tableConfig() {
    return tableConfig;
  }

  /** Deletes {@code dir} and everything below it, if it exists. */
  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
