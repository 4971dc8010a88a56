package io.shelfmark.cli.command;

import io.shelfmark.catalog.Catalogs;
import io.shelfmark.cli.node.AllInOne;
import io.shelfmark.cluster.state.ZNodes;
import io.shelfmark.cluster.zookeeper.ClusterZooKeeper;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.controller.state.StateRecovery;
import io.shelfmark.controller.state.ZooKeeperTableStateStore;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.iceberg.catalog.Catalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code shelfmark cluster}: operations on the cluster's state in ZooKeeper. */
@Command(
    name = "cluster",
    mixinStandardHelpOptions = true,
    description = "Operations on the cluster state kept in ZooKeeper (see docs/cluster-state.md).",
    subcommands = {ClusterCommand.Recover.class})
public final class ClusterCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code shelfmark cluster recover --config FILE}. */
  @Command(
      name = "recover",
      mixinStandardHelpOptions = true,
      description = {
        "Rebuild the tables' state in ZooKeeper from the segment store and the catalog, after"
            + " ZooKeeper's data was lost: each table config copied beside the segments is"
            + " recorded again, with a ready record for each live data file whose segment is in"
            + " the store. Files without a segment are built when the node next serves the table.",
        "Stop the node first: with zookeeper.connect: embedded this runs the embedded server on"
            + " the node's data directory."
      })
  public static final class Recover implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--config", required = true, description = "The node's cluster config.")
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
                          "Cannot recover with "
                              + config
                              + ": it has no catalog section (recovery reads each table's"
                              + " snapshot from its catalog)"));
      PrintWriter out = spec.commandLine().getOut();
      try (ObjectStore store = ObjectStores.open(cluster.storage());
          ClusterZooKeeper zookeeper =
              ClusterZooKeeper.start(cluster.zookeeper(), cluster.dataDir())) {
        Catalog catalog = Catalogs.open(catalogConfig, store);
        try {
          List<StateRecovery.Recovered> recovered =
              StateRecovery.recover(
                  new ZooKeeperTableStateStore(
                      zookeeper.client(), new ZNodes(cluster.clusterName())),
                  new SegmentStore(store, AllInOne.segmentStoreLocation(cluster)),
                  Map.of(catalogConfig.name(), catalog));
          if (recovered.isEmpty()) {
            out.println(
                "No table config found in the segment store's _tables/ (nothing to recover;"
                    + " onboard the tables again)");
          }
          for (StateRecovery.Recovered table : recovered) {
            out.printf(
                Locale.ROOT,
                "Recovered %s at snapshot %d: %,d of %,d data files have their segment%n",
                table.table(),
                table.snapshotId(),
                table.segmentsFound(),
                table.dataFiles());
          }
        } finally {
          if (catalog instanceof AutoCloseable closeable) {
            closeable.close();
          }
        }
      }
      out.flush();
      return 0;
    }
  }
}
