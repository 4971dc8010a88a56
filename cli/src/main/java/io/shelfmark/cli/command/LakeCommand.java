package io.shelfmark.cli.command;

import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.cli.process.ChildJvm;
import io.shelfmark.config.ConfigFormat;
import io.shelfmark.config.ConfigWriter;
import io.shelfmark.config.cluster.ClusterConfig;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code shelfmark lake}: the local lake alone, for other tools and for --config files. */
@Command(
    name = "lake",
    mixinStandardHelpOptions = true,
    description =
        "Run the local lake (embedded S3 server and SQLite Iceberg catalog) and print its"
            + " config.")
public final class LakeCommand implements Callable<Integer> {
  @Option(names = "--data-dir", description = "The lake's directory (default: ${DEFAULT-VALUE}).")
  Path dataDir = Path.of(System.getProperty("user.home"), ".shelfmark", "quickstart");

  @Option(
      names = "--s3-port",
      description =
          "The S3 endpoint's port on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int s3Port = 9000;

  @Option(
      names = "--config-file",
      description =
          "Also write the cluster config that reaches the lake to this file, once it serves (for"
              + " the process starting it, such as shelfmark cluster up).")
  Path configFile;

  @Override
  public Integer call() throws Exception {
    Path directory = LocalLake.locate(dataDir, dataDir);
    if (!directory.equals(dataDir)) {
      System.out.println("Opening the quickstart's lake in " + directory.toAbsolutePath());
    }
    LocalLake lake = LocalLake.start(directory, s3Port);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    lake.close();
                  } catch (Exception e) {
                    System.err.println("Cannot stop cleanly: " + e.getMessage());
                  }
                  stopped.countDown();
                }));
    ClusterConfig config =
        ClusterConfig.builder()
            .storage(lake.storageConfig())
            .catalog(lake.catalogConfig())
            .segmentStore("s3://" + LocalLake.BUCKET + "/_shelfmark/segments")
            .dataDir(lake.directory().resolve("node"))
            .build();
    if (configFile != null) {
      ChildJvm.writeAtomically(configFile, ConfigWriter.write(config, ConfigFormat.YAML));
    }
    System.out.println("The local lake is running. A cluster config that reaches it:");
    System.out.println();
    System.out.println(ConfigWriter.write(config, ConfigFormat.YAML));
    System.out.println("Press Ctrl-C to stop.");
    stopped.await();
    return 0;
  }
}
