package io.shelfmark.cli.command;

import io.shelfmark.cli.LogSettings;
import io.shelfmark.cli.quickstart.Quickstart;
import io.shelfmark.config.cluster.PortsConfig;
import io.shelfmark.generator.GeneratorOptions;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code shelfmark quickstart}: the whole system on this machine, on a generated table. */
@Command(
    name = "quickstart",
    mixinStandardHelpOptions = true,
    description =
        "Start an embedded lake, generate the benchmark table, index it, answer the four"
            + " benchmark queries and keep serving SQL over HTTP on 127.0.0.1.")
public final class QuickstartCommand implements Callable<Integer> {
  @Option(
      names = "--rows",
      description = "Rows of the generated obs.metrics table (default: ${DEFAULT-VALUE}).")
  long rows = GeneratorOptions.DEFAULT_ROWS;

  @Option(names = "--seed", description = "Generator seed (default: ${DEFAULT-VALUE}).")
  long seed = GeneratorOptions.DEFAULT_SEED;

  @Option(
      names = "--data-dir",
      description =
          "Where the lake lives; kept between runs so the table is reused (default:"
              + " ${DEFAULT-VALUE}).")
  Path dataDir = Path.of(System.getProperty("user.home"), ".shelfmark", "quickstart");

  @Option(
      names = "--port",
      description = "The broker's HTTP port on 127.0.0.1 (default: ${DEFAULT-VALUE}).")
  int port = 8099;

  @Option(
      names = "--flight-port",
      description =
          "The broker's Arrow Flight SQL port (JDBC, ADBC) on 127.0.0.1; 0 picks a free one"
              + " (default: ${DEFAULT-VALUE}).")
  int flightPort = PortsConfig.DEFAULT_BROKER_FLIGHT_PORT;

  @Override
  public Integer call() throws Exception {
    Quickstart quickstart =
        Quickstart.start(
            new Quickstart.Options(rows, seed, dataDir, port, false, flightPort), System.out);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    quickstart.close();
                  } catch (Exception e) {
                    System.err.println("Cannot stop cleanly: " + e.getMessage());
                  }
                  stopped.countDown();
                }));
    String url = quickstart.url();
    System.out.println();
    System.out.println("Shelfmark is serving on " + url + ". Try:");
    System.out.println(
        "  bin/shelfmark query --broker "
            + url
            + " \"SELECT metric, COUNT(*) FROM obs.metrics GROUP BY metric ORDER BY 2 DESC"
            + " LIMIT 5\"");
    System.out.println("  bin/shelfmark table status --broker " + url + " obs.metrics");
    System.out.println(
        "  curl -s -X POST "
            + url
            + "/query/sql -H 'Content-Type: application/json' -d '{\"sql\": \"SELECT COUNT(*)"
            + " FROM obs.metrics\"}'");
    System.out.println("  JDBC / DBeaver (Arrow Flight SQL driver): " + quickstart.jdbcUrl());
    System.out.println("Press Ctrl-C to stop.");
    System.out.flush();
    LogSettings.logActivity(System.getenv());
    stopped.await();
    return 0;
  }
}
