package io.shelfmark.cli.quickstart;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.http.BrokerHttpServer;
import io.shelfmark.broker.http.BrokerRoutes;
import io.shelfmark.broker.query.RefusingQueryService;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.cli.progress.ProgressLine;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.controller.table.OnboardingException;
import io.shelfmark.controller.table.ServedTable;
import io.shelfmark.controller.table.TableRegistry;
import io.shelfmark.generator.ExistingTablePolicy;
import io.shelfmark.generator.GenerateReport;
import io.shelfmark.generator.GeneratorOptions;
import io.shelfmark.generator.MetricsTableGenerator;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Everything in one JVM on this machine: the local lake (embedded S3 + SQLite catalog), the
 * benchmark table generated into it (or reused), the table onboarded by the controller, and the
 * broker's HTTP endpoint. Used by {@code shelfmark quickstart} and by its end-to-end test.
 */
public final class Quickstart implements AutoCloseable {
  /** The roles this process plays; reported by {@code /health}. */
  public static final List<String> ROLES = List.of("controller", "broker");

  private final LocalLake lake;
  private final BrokerHttpServer broker;
  private final ExecutorService queryExecutor;
  private final ServedTable table;
  private final int port;

  private Quickstart(
      LocalLake lake,
      BrokerHttpServer broker,
      ExecutorService queryExecutor,
      ServedTable table,
      int port) {
    this.lake = lake;
    this.broker = broker;
    this.queryExecutor = queryExecutor;
    this.table = table;
    this.port = port;
  }

  /**
   * Options of one quickstart.
   *
   * @param rows rows of the generated table
   * @param seed its generator seed
   * @param dataDir where the lake lives (kept between runs, so the table is reused)
   * @param port the broker's HTTP port on 127.0.0.1; 0 picks a free one
   * @param quiet no progress lines (tests)
   */
  public record Options(long rows, long seed, Path dataDir, int port, boolean quiet) {
    public Options {
      requireNonNull(dataDir, "dataDir is null");
      if (rows <= 0) {
        throw new IllegalArgumentException("Cannot generate " + rows + " rows (need at least 1)");
      }
    }
  }

  /** Starts every part, printing each step to {@code out}; returns once the broker serves. */
  public static Quickstart start(Options options, PrintStream out)
      throws IOException, OnboardingException {
    out.println("Shelfmark quickstart — data in " + options.dataDir().toAbsolutePath());
    LocalLake lake = LocalLake.start(options.dataDir(), 0);
    ExecutorService queryExecutor = Executors.newFixedThreadPool(4);
    BrokerHttpServer broker = null;
    try {
      out.println(
          "  [1/4] embedded S3 store: "
              + lake.s3().endpoint()
              + " (bucket "
              + LocalLake.BUCKET
              + ")");
      out.println(
          "  [2/4] Iceberg catalog: "
              + lake.catalogConfig().uri().orElse("?")
              + ", warehouse "
              + LocalLake.WAREHOUSE);
      TableConfig tableConfig =
          ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE);
      generate(lake, tableConfig, options, out);
      TableRegistry registry =
          new TableRegistry(Map.of(LocalLake.CATALOG_NAME, lake.catalog()), Clock.systemUTC());
      ServedTable table = registry.onboard(tableConfig);
      out.printf(
          Locale.ROOT,
          "  [4/4] onboarded %s at snapshot %d: %,d data files, %,d rows, %,d bytes"
              + " (index segments are not built by this version yet)%n",
          table.sqlName(),
          table.snapshotId(),
          table.dataFiles(),
          table.records(),
          table.dataBytes());
      broker =
          new BrokerHttpServer(
              new BrokerRoutes(
                  new RefusingQueryService(),
                  new RegistryTableDirectory(registry),
                  ROLES,
                  () -> true));
      int port = broker.start("127.0.0.1", options.port(), queryExecutor);
      return new Quickstart(lake, broker, queryExecutor, table, port);
    } catch (IOException | OnboardingException | RuntimeException e) {
      if (broker != null) {
        broker.close();
      }
      queryExecutor.shutdownNow();
      lake.close();
      throw e;
    }
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
        options.quiet() ? null : ProgressLine.onStandardError("[3/4] generating " + id, "rows");
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
    out.println("  [3/4] " + report.summary());
  }

  /** The broker's HTTP port. */
  public int port() {
    return port;
  }

  public String url() {
    return "http://127.0.0.1:" + port;
  }

  public ServedTable table() {
    return table;
  }

  @Override
  public void close() throws IOException {
    broker.close();
    queryExecutor.shutdownNow();
    lake.close();
  }
}
