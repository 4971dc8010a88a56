package io.shelfmark.cli.quickstart;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.client.ResultTablePrinter;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.cli.node.AllInOne;
import io.shelfmark.cli.node.NodeBanner;
import io.shelfmark.cli.node.warmup.NodeWarmup;
import io.shelfmark.cli.progress.ProgressLine;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.controller.table.OnboardingException;
import io.shelfmark.controller.table.ServedTable;
import io.shelfmark.generator.ExistingTablePolicy;
import io.shelfmark.generator.GenerateReport;
import io.shelfmark.generator.GeneratorOptions;
import io.shelfmark.generator.MetricsTableGenerator;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Everything in one JVM on this machine: the local lake (embedded S3 + SQLite catalog), the
 * benchmark table generated into it (or reused), every Shelfmark role ({@link AllInOne}) with the
 * table onboarded and indexed, and the four benchmark queries answered over HTTP. Used by {@code
 * shelfmark quickstart} and by its end-to-end test.
 */
public final class Quickstart implements AutoCloseable {
  /** The segment store inside the lake's bucket, as a deployment would keep it beside the data. */
  public static final String SEGMENT_STORE = "s3://" + LocalLake.BUCKET + "/_shelfmark/segments/";

  /** The four queries of ../shared/BENCHMARK.md, by name. */
  public static final Map<String, String> BENCHMARK_QUERIES = benchmarkQueries();

  private final LocalLake lake;
  private final AllInOne node;
  private final ServedTable table;

  private Quickstart(LocalLake lake, AllInOne node, ServedTable table) {
    this.lake = lake;
    this.node = node;
    this.table = table;
  }

  /**
   * Options of one quickstart.
   *
   * @param rows rows of the generated table
   * @param seed its generator seed
   * @param dataDir where the lake and the node's data live (kept between runs, so the table and its
   *     segments are reused)
   * @param port the broker's HTTP port on 127.0.0.1; 0 picks a free one
   * @param quiet no progress lines (tests)
   * @param flightPort the broker's Arrow Flight SQL port (JDBC, ADBC); 0 picks a free one
   */
  public record Options(
      long rows,
      long seed,
      Path dataDir,
      int port,
      boolean quiet,
      int flightPort,
      Optional<TableConfig> tableConfig) {
    public Options {
      requireNonNull(dataDir, "dataDir is null");
      requireNonNull(tableConfig, "tableConfig is null");
      if (rows <= 0) {
        throw new IllegalArgumentException("Cannot generate " + rows + " rows (need at least 1)");
      }
    }

    /** Options with the bundled table config. */
    public Options(long rows, long seed, Path dataDir, int port, boolean quiet, int flightPort) {
      this(rows, seed, dataDir, port, quiet, flightPort, Optional.empty());
    }

    /** Options whose Flight SQL port is any free one. */
    public Options(long rows, long seed, Path dataDir, int port, boolean quiet) {
      this(rows, seed, dataDir, port, quiet, 0);
    }

    /** These options indexing the table as {@code config} says instead of the bundled config. */
    public Options withTableConfig(TableConfig config) {
      return new Options(rows, seed, dataDir, port, quiet, flightPort, Optional.of(config));
    }
  }

  /**
   * Starts every part, printing each step to {@code out}; returns once the table is indexed, the
   * benchmark queries have been answered and printed, and the broker serves.
   */
  public static Quickstart start(Options options, PrintStream out)
      throws IOException, OnboardingException {
    out.println("Shelfmark quickstart — data in " + options.dataDir().toAbsolutePath());
    LocalLake lake =
        LocalLake.start(
            LocalLake.locate(
                options.dataDir(), options.dataDir().resolve(LocalLake.QUICKSTART_LAKE)),
            0);
    AllInOne node = null;
    try {
      out.println(
          "  [1/5] embedded S3 store: "
              + lake.s3().endpoint()
              + " (bucket "
              + LocalLake.BUCKET
              + ")");
      out.println(
          "  [2/5] Iceberg catalog: "
              + lake.catalogConfig().uri().orElse("?")
              + ", warehouse "
              + LocalLake.WAREHOUSE);
      TableConfig tableConfig =
          options
              .tableConfig()
              .orElseGet(
                  () -> ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE));
      generate(lake, tableConfig, options, out);
      ClusterConfig cluster = clusterConfig(lake, options.dataDir().resolve("node"));
      node =
          AllInOne.start(
              cluster,
              Map.of(LocalLake.CATALOG_NAME, lake.catalog()),
              lake.store(),
              options.port(),
              options.flightPort());
      out.println("        " + NodeBanner.cacheLine(cluster.cache()).strip());
      ServedTable table = index(node, tableConfig, options, out);
      out.printf(
          Locale.ROOT,
          "  [5/5] serving %s on %s; the benchmark queries:%n",
          table.sqlName(),
          node.url());
      out.println("        JDBC (Arrow Flight SQL): " + node.jdbcUrl());
      out.println("      " + NodeBanner.consoleLine(node.url(), false));
      runBenchmarkQueries(new BrokerClient(node.url()), out);
      return new Quickstart(lake, node, table);
    } catch (IOException | OnboardingException | RuntimeException e) {
      if (node != null) {
        node.close();
      }
      lake.close();
      throw e;
    }
  }

  private static ClusterConfig clusterConfig(LocalLake lake, Path nodeDir) {
    return ClusterConfig.builder()
        .storage(lake.storageConfig())
        .catalog(lake.catalogConfig())
        .segmentStore(SEGMENT_STORE)
        .dataDir(nodeDir)
        .cache(
            CacheConfig.builder()
                .memoryMaxSize(DataSize.of(256, DataSize.Unit.MEBIBYTE))
                .diskMaxSize(DataSize.of(1, DataSize.Unit.GIBIBYTE))
                .build(nodeDir))
        .build();
  }

  private static ServedTable index(
      AllInOne node, TableConfig tableConfig, Options options, PrintStream out)
      throws OnboardingException {
    ServedTable table = node.registry().onboard(tableConfig);
    String name = table.sqlName();
    // Segments ready at once were built by an earlier run (recorded in the node's ZooKeeper): they
    // are reused, and the rate below is of what this run indexes.
    long reusedSegments = table.segmentsReady();
    long reusedRows = table.recordsIndexed();
    ProgressLine progress =
        options.quiet() ? null : ProgressLine.onStandardError("[4/5] indexing " + name, "rows");
    long started = System.nanoTime();
    while (table.segmentsPending() > 0) {
      if (progress != null) {
        progress.update(table.recordsIndexed(), table.records());
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while indexing " + name, e);
      }
      table = node.registry().table(name).orElseThrow();
    }
    double seconds = Math.max(1e-3, (System.nanoTime() - started) / 1e9);
    if (progress != null) {
      progress.finish("done");
    }
    String sizes =
        String.format(
            Locale.ROOT,
            "%,d index bytes = %.1f%% of %,d Parquet bytes%s",
            table.indexBytes(),
            table.dataBytes() == 0 ? 0.0 : 100.0 * table.indexBytes() / table.dataBytes(),
            table.dataBytes(),
            table.segmentsFailed() == 0 ? "" : "; " + table.segmentsFailed() + " failed");
    if (reusedSegments == table.segmentsReady()) {
      out.printf(
          Locale.ROOT,
          "  [4/5] serving %s at snapshot %d: all %,d segments reused from an earlier run, nothing"
              + " to index; %s%n",
          name,
          table.snapshotId(),
          reusedSegments,
          sizes);
    } else {
      out.printf(
          Locale.ROOT,
          "  [4/5] indexed %s at snapshot %d: %,d segments of %,d data files in %.1f s (%,.0f"
              + " rows/s)%s, %s%n",
          name,
          table.snapshotId(),
          table.segmentsReady() - reusedSegments,
          table.dataFiles(),
          seconds,
          (table.recordsIndexed() - reusedRows) / seconds,
          reusedSegments == 0 ? "" : ", " + reusedSegments + " more reused from an earlier run",
          sizes);
    }
    awaitWarmup(node, out);
    return table;
  }

  /** The node warms up once its first table is ready; its first queries come after. */
  private static void awaitWarmup(AllInOne node, PrintStream out) {
    long started = System.nanoTime();
    while (node.warmupState() == NodeWarmup.State.PENDING
        || node.warmupState() == NodeWarmup.State.RUNNING) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while the node warms up", e);
      }
    }
    if (node.warmupState() == NodeWarmup.State.DONE) {
      out.printf(
          Locale.ROOT,
          "        warmed up the node in %.1f s (caches emptied afterwards: server.warmup.*)%n",
          (System.nanoTime() - started) / 1e9);
    }
  }

  private static void runBenchmarkQueries(BrokerClient client, PrintStream out) {
    PrintWriter writer = new PrintWriter(out, true, StandardCharsets.UTF_8);
    ResultTablePrinter printer = new ResultTablePrinter(20);
    for (Map.Entry<String, String> query : BENCHMARK_QUERIES.entrySet()) {
      writer.println();
      writer.println(query.getKey() + ": " + query.getValue());
      JsonNode response = client.query(query.getValue(), Optional.of(Duration.ofSeconds(60)));
      printer.print(response, writer);
    }
    writer.flush();
  }

  private static void generate(
      LocalLake lake, TableConfig tableConfig, Options options, PrintStream out)
      throws IOException {
    TableIdentifier id =
        TableIdentifier.of(tableConfig.identity().namespace(), tableConfig.identity().name());
    if (lake.catalog() instanceof SupportsNamespaces namespaces
        && !namespaces.namespaceExists(Namespace.of(tableConfig.identity().namespace()))) {
      namespaces.createNamespace(Namespace.of(tableConfig.identity().namespace()));
    }
    ProgressLine progress =
        options.quiet() ? null : ProgressLine.onStandardError("[3/5] generating " + id, "rows");
    GenerateReport report =
        MetricsTableGenerator.generate(
            lake.catalog(),
            id,
            GeneratorOptions.builder()
                .rows(options.rows())
                .seed(options.seed())
                .existingTable(ExistingTablePolicy.REUSE)
                .build(),
            (written, total) -> {
              if (progress != null) {
                progress.update(written, total);
              }
            });
    out.println("  [3/5] " + report.summary());
  }

  private static Map<String, String> benchmarkQueries() {
    Map<String, String> queries = new LinkedHashMap<>();
    queries.put(
        "Q1",
        "SELECT COUNT(*) FROM obs.metrics WHERE resolution = 15000"
            + " AND logical_timestamp >= 1754229600000 - 3600000"
            + " AND logical_timestamp <= 1754229600000");
    queries.put(
        "Q2",
        "SELECT SUM(sum_rollup) FROM obs.metrics WHERE metric = 'tk_cache'"
            + " AND org_id = 184833768 AND resolution = 15000"
            + " AND logical_timestamp >= 1754229600000 - 3600000"
            + " AND logical_timestamp <= 1754229600000");
    queries.put(
        "Q3",
        "SELECT dateTrunc('second', logical_timestamp) AS time_bucket, AVG(latest_rollup)"
            + " FROM obs.metrics WHERE metric = 'tk_cache' AND org_id = '184833768'"
            + " AND resolution = 15000 AND logical_timestamp >= 1754229600000 - 3600000"
            + " AND logical_timestamp <= 1754229600000"
            + " GROUP BY dateTrunc('second', logical_timestamp) ORDER BY time_bucket");
    queries.put(
        "Q4",
        "SELECT dimensions['service'] AS service, SUM(sum_rollup) AS total_value"
            + " FROM obs.metrics WHERE metric = 'tk_cache' AND org_id = '184833768'"
            + " AND resolution = 15000 AND dimensions['node'] = 'xyz'"
            + " AND logical_timestamp >= 1754229600000 - 360000"
            + " AND logical_timestamp <= 1754229600000"
            + " GROUP BY dimensions['service'] ORDER BY total_value DESC");
    return java.util.Collections.unmodifiableMap(queries);
  }

  /** The broker's HTTP port. */
  public int port() {
    return node.port();
  }

  public String url() {
    return node.url();
  }

  /** The Arrow Flight SQL JDBC driver's URL of the node. */
  public String jdbcUrl() {
    return node.jdbcUrl();
  }

  public ServedTable table() {
    return table;
  }

  public AllInOne node() {
    return node;
  }

  /** The directory the embedded S3 server keeps objects in: {@code <dir>/<bucket>/<key>}. */
  public Path lakeDirectory() {
    return lake.s3().baseDirectory();
  }

  @Override
  public void close() throws IOException {
    node.close();
    lake.close();
  }
}
