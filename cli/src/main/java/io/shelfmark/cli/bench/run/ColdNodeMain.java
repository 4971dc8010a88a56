package io.shelfmark.cli.bench.run;

import io.shelfmark.catalog.Catalogs;
import io.shelfmark.cli.bench.lake.ProxiedLake;
import io.shelfmark.cli.node.AllInOne;
import io.shelfmark.cli.process.ChildJvm;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.PortsConfig;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.catalog.Catalog;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The main class of the child JVM a cold run starts ({@link ColdNodeProcess}): one all-in-one node
 * configured by a cluster config file, as {@code shelfmark all-in-one --config FILE} runs it, with
 * three differences the benchmark needs:
 *
 * <ul>
 *   <li>the broker binds a free port (config files refuse port 0) and writes it to {@code
 *       --port-file} once it serves, so the parent learns it without a race;
 *   <li>the catalog reads its files from {@code --catalog-endpoint} (the embedded S3 server
 *       directly), while data files and the segment store go through the config's {@code
 *       storage.endpoint} (the parent's latency proxy), so catalog reads never land in a query's
 *       counters — as in the benchmark's in-process nodes;
 *   <li>{@code SHELFMARK_*} environment variables are ignored: the config is exactly what the
 *       parent wrote.
 * </ul>
 *
 * <p>The node stops on SIGTERM (the parent's {@link Process#destroy()}) and also when its standard
 * input ends, which happens when the parent exits in any way, even killed: a cold node never
 * outlives its benchmark. Everything the node logs goes to standard output and error, which the
 * parent sends to a log file. Tables are onboarded by the parent over HTTP ({@code POST /tables}).
 */
@Command(
    name = "cold-node",
    description = "An all-in-one node for one cold benchmark run (started by shelfmark bench).")
public final class ColdNodeMain implements Callable<Integer> {
  /** How long a stop waits for the node to close before the JVM exits anyway. */
  private static final long CLOSE_WAIT_SECONDS = 20;

  @Option(names = "--config", required = true, description = "The cluster config file.")
  Path config;

  @Option(
      names = "--catalog-endpoint",
      required = true,
      description = "The S3 endpoint the catalog reads metadata files from.")
  URI catalogEndpoint;

  @Option(
      names = "--port-file",
      required = true,
      description = "Where to write the broker's port once it serves.")
  Path portFile;

  public static void main(String[] args) {
    // picocli prints a failure's stack trace to standard error: the log file the parent names.
    System.exit(new CommandLine(new ColdNodeMain()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    ClusterConfig cluster = ConfigLoader.withoutEnvironment().loadCluster(config);
    CatalogConfig catalogConfig =
        cluster
            .catalog()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "Cannot start a cold node with "
                            + config
                            + ": it has no catalog section (the bench writes one)"));
    CountDownLatch stop = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    // SIGTERM runs the hooks, then halts the JVM: the hook waits until the node below is closed.
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
                "cold-node-stop"));
    try (ObjectStore dataStore = ObjectStores.open(cluster.storage());
        ObjectStore catalogStore =
            ObjectStores.open(ProxiedLake.withEndpoint(cluster.storage(), catalogEndpoint))) {
      Catalog catalog = Catalogs.open(catalogConfig, catalogStore);
      try (AllInOne node =
          AllInOne.start(
              cluster,
              Map.of(catalogConfig.name(), catalog),
              dataStore,
              PortsConfig.ANY_FREE_PORT)) {
        writePort(node.port());
        System.out.println(
            "Cold node (pid " + ProcessHandle.current().pid() + ") is serving on " + node.url());
        System.out.flush();
        watchStandardInput(stop);
        stop.await();
        System.out.println("Cold node stopping");
        System.out.flush();
      } finally {
        if (catalog instanceof Closeable closeable) {
          closeable.close();
        }
      }
    } finally {
      closed.countDown();
    }
    return 0;
  }

  /** Written whole, then renamed: the parent never reads half a port. */
  private void writePort(int port) throws IOException {
    ChildJvm.writeAtomically(portFile, Integer.toString(port));
  }

  /** Counts {@code stop} down when standard input ends: the parent has exited or closed it. */
  private static void watchStandardInput(CountDownLatch stop) {
    Thread.ofPlatform()
        .daemon(true)
        .name("cold-node-stdin")
        .start(
            () -> {
              InputStream in = System.in;
              byte[] buffer = new byte[256];
              try {
                while (in.read(buffer) >= 0) {
                  // the parent writes nothing; any bytes are ignored
                }
              } catch (IOException e) {
                System.err.println("Cannot read standard input (stopping): " + e.getMessage());
              }
              stop.countDown();
            });
  }
}
