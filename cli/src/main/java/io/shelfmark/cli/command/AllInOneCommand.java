package io.shelfmark.cli.command;

import io.shelfmark.catalog.Catalogs;
import io.shelfmark.cli.LogSettings;
import io.shelfmark.cli.node.AllInOne;
import io.shelfmark.cli.node.NodeBanner;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.Closeable;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.iceberg.catalog.Catalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code shelfmark all-in-one --config FILE}: every role in one process, on your own lake. */
@Command(
    name = "all-in-one",
    mixinStandardHelpOptions = true,
    description = {
      "Run every role (controller, index builder, server, broker) in one process against the"
          + " catalog and object store a cluster config names (see docs/config.md and"
          + " docs/query-your-own-table.md).",
      "Then onboard tables with `bin/shelfmark table onboard TABLE-CONFIG` and query them with"
          + " `bin/shelfmark query \"SQL\"`."
    })
public final class AllInOneCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--config",
      required = true,
      description = "The cluster config (YAML or JSON; SHELFMARK_* variables override keys).")
  Path config;

  @Override
  public Integer call() throws Exception {
    ClusterConfig cluster = ConfigLoader.withSystemEnvironment().loadCluster(config);
    CatalogConfig catalogConfig =
        cluster
            .catalog()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "Cannot run all-in-one with "
                            + config
                            + ": it has no catalog section (all-in-one runs the controller,"
                            + " which reads tables from a catalog)"));
    ObjectStore store = ObjectStores.open(cluster.storage());
    Catalog catalog = Catalogs.open(catalogConfig, store);
    AllInOne node =
        AllInOne.start(
            cluster,
            Map.of(catalogConfig.name(), catalog),
            store,
            cluster.ports().brokerHttpPort());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  node.close();
                  if (catalog instanceof Closeable closeable) {
                    try {
                      closeable.close();
                    } catch (Exception e) {
                      System.err.println("Cannot close the catalog cleanly: " + e.getMessage());
                    }
                  }
                  try {
                    store.close();
                  } catch (Exception e) {
                    System.err.println("Cannot close the object store cleanly: " + e.getMessage());
                  }
                  stopped.countDown();
                }));
    var out = spec.commandLine().getOut();
    out.println("Shelfmark all-in-one is serving on " + node.url());
    out.println(NodeBanner.consoleLine(node.url(), cluster.authenticationConfigured()));
    out.println("  catalog '" + catalogConfig.name() + "' (" + catalogConfig.type() + ")");
    out.println(
        "  segment store " + cluster.segmentStore() + ", segments " + cluster.segmentMode());
    out.println(NodeBanner.cacheLine(cluster.cache()));
    // With users configured, say how to log in (the password stays in the environment).
    String login =
        cluster.authenticationConfigured()
            ? " --user ADMIN-USER (password in SHELFMARK_PASSWORD)"
            : "";
    if (cluster.security().tls().isPresent()) {
      login += " --ca-cert " + cluster.security().tls().get().certificateFile();
    }
    out.println(
        "Onboard a table: bin/shelfmark table onboard TABLE-CONFIG --broker " + node.url() + login);
    out.println("Press Ctrl-C to stop.");
    out.flush();
    LogSettings.logActivity(System.getenv());
    stopped.await();
    return 0;
  }
}
