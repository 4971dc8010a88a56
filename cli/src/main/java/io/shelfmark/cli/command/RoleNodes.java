package io.shelfmark.cli.command;

import io.shelfmark.catalog.Catalogs;
import io.shelfmark.cli.LogSettings;
import io.shelfmark.cli.process.ReadyFile;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.Closeable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.catalog.Catalog;

/**
 * What every role command ({@code controller}, {@code broker}, {@code server}) does around its
 * node: load the cluster config, open the object store and the catalog, start the node, say where
 * it listens (and write {@code --ready-file} for the process that started it), then serve until
 * SIGTERM or Ctrl-C, and close everything in reverse order.
 */
final class RoleNodes {
  /** How long a stop waits for the node to close before the JVM exits anyway. */
  private static final long CLOSE_WAIT_SECONDS = 30;

  private RoleNodes() {}

  /** A started node: where it listens, and how to stop it. */
  interface Started extends AutoCloseable {
    /** Its ports, by name ({@code broker-http}, {@code server-rpc}, {@code controller-http}). */
    Map<String, Integer> ports();

    @Override
    void close();
  }

  /** Starts a node from the process's cluster config, store and catalog. */
  @FunctionalInterface
  interface Starter {
    Started start(ClusterConfig config, Map<String, Catalog> catalogs, ObjectStore store)
        throws Exception;
  }

  /** Runs the node {@code starter} makes until the process is asked to stop. */
  static int run(
      String role, Path configFile, Optional<Path> readyFile, PrintWriter out, Starter starter)
      throws Exception {
    ClusterConfig config = ConfigLoader.withSystemEnvironment().loadCluster(configFile);
    CatalogConfig catalogConfig =
        config
            .catalog()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "Cannot run the "
                            + role
                            + " with "
                            + configFile
                            + ": it has no catalog section (every role reads tables' snapshots"
                            + " from the catalog)"));
    ObjectStore store = ObjectStores.open(config.storage());
    Catalog catalog = Catalogs.open(catalogConfig, store);
    Started node;
    try {
      node = starter.start(config, Map.of(catalogConfig.name(), catalog), store);
    } catch (Exception | Error e) {
      close(catalog);
      store.close();
      throw e;
    }
    CountDownLatch stop = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  stop.countDown();
                  try {
                    closed.await(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                },
                role + "-stop"));
    try {
      out.println(
          "Shelfmark "
              + role
              + " (pid "
              + ProcessHandle.current().pid()
              + ") is serving: "
              + node.ports());
      out.flush();
      if (readyFile.isPresent()) {
        ReadyFile.of(node.ports()).write(readyFile.get());
      }
      LogSettings.logActivity(System.getenv());
      stop.await();
      out.println("Shelfmark " + role + " stopping");
      out.flush();
    } finally {
      try {
        node.close();
        close(catalog);
        store.close();
      } finally {
        closed.countDown();
      }
    }
    return 0;
  }

  private static void close(Catalog catalog) {
    if (catalog instanceof Closeable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        System.err.println("Cannot close the catalog cleanly: " + e.getMessage());
      }
    }
  }
}
