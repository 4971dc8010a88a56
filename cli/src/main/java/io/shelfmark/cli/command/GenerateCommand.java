package io.shelfmark.cli.command;

import io.shelfmark.catalog.Catalogs;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.cli.progress.ProgressLine;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.generator.ExistingTablePolicy;
import io.shelfmark.generator.GenerateReport;
import io.shelfmark.generator.GeneratorOptions;
import io.shelfmark.generator.MetricsTableGenerator;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code shelfmark generate}: writes the benchmark table into a catalog and object store. */
@Command(
    name = "generate",
    mixinStandardHelpOptions = true,
    description =
        "Write the obs.metrics benchmark table (deterministic, streaming) into an Iceberg"
            + " catalog.")
public final class GenerateCommand implements Callable<Integer> {
  @Option(names = "--rows", description = "Rows to generate (default: ${DEFAULT-VALUE}).")
  long rows = GeneratorOptions.DEFAULT_ROWS;

  @Option(names = "--seed", description = "Generator seed (default: ${DEFAULT-VALUE}).")
  long seed = GeneratorOptions.DEFAULT_SEED;

  @Option(
      names = "--table",
      description = "Target table as namespace.name (default: ${DEFAULT-VALUE}).")
  String table = "obs.metrics";

  @Option(
      names = "--config",
      description =
          "A cluster config naming the catalog and storage to write to; without it, the local"
              + " lake in --data-dir is used.")
  Path config;

  @Option(
      names = "--data-dir",
      description =
          "The local lake's directory when no --config is given (default: ${DEFAULT-VALUE}).")
  Path dataDir = Path.of(System.getProperty("user.home"), ".shelfmark", "quickstart");

  @Option(
      names = "--replace",
      description = "Drop and rewrite the table even when it already holds these rows and seed.")
  boolean replace;

  @Option(
      names = "--parallelism",
      description = "Data files written at once (default: ${DEFAULT-VALUE}).")
  int parallelism = Math.max(1, Runtime.getRuntime().availableProcessors());

  @Override
  public Integer call() throws Exception {
    TableIdentifier id = parseTable(table);
    GeneratorOptions options =
        GeneratorOptions.builder()
            .rows(rows)
            .seed(seed)
            .parallelism(parallelism)
            .existingTable(replace ? ExistingTablePolicy.REPLACE : ExistingTablePolicy.REUSE)
            .build();
    try (Target target = openTarget()) {
      System.out.println("Writing " + id + " into " + target.description);
      if (target.catalog instanceof SupportsNamespaces namespaces
          && !namespaces.namespaceExists(id.namespace())) {
        namespaces.createNamespace(id.namespace());
      }
      ProgressLine progress = ProgressLine.onStandardError("generating " + id, "rows");
      GenerateReport report =
          MetricsTableGenerator.generate(target.catalog, id, options, progress::update);
      System.out.println(report.summary());
    }
    return 0;
  }

  private static TableIdentifier parseTable(String name) {
    int dot = name.lastIndexOf('.');
    if (dot <= 0 || dot == name.length() - 1) {
      throw new IllegalArgumentException(
          "Cannot use --table: \"" + name + "\" (expected namespace.name, e.g. obs.metrics)");
    }
    return TableIdentifier.of(
        Namespace.of(name.substring(0, dot).split("\\.")), name.substring(dot + 1));
  }

  private Target openTarget() throws IOException {
    if (config == null) {
      LocalLake lake = LocalLake.start(LocalLake.locate(dataDir, dataDir), 0);
      return new Target(lake.catalog(), "the local lake in " + lake.directory(), lake);
    }
    ClusterConfig cluster = ConfigLoader.withSystemEnvironment().loadCluster(config);
    CatalogConfig catalogConfig =
        cluster
            .catalog()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "Cannot generate into "
                            + config
                            + ": it has no catalog section (add catalog.type, catalog.uri and"
                            + " catalog.warehouse)"));
    ObjectStore store = ObjectStores.open(cluster.storage());
    Catalog catalog = Catalogs.open(catalogConfig, store);
    return new Target(
        catalog,
        "catalog '" + catalogConfig.name() + "' at " + catalogConfig.uri().orElse("?"),
        () -> {
          try (store) {
            if (catalog instanceof Closeable closeable) {
              closeable.close();
            }
          }
        });
  }

  private record Target(Catalog catalog, String description, Closeable resources)
      implements Closeable {
    @Override
    public void close() throws IOException {
      resources.close();
    }
  }
}
