package io.shelfmark.cli.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.cli.Shelfmark;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.config.ConfigFormat;
import io.shelfmark.config.ConfigWriter;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.PortsConfig;
import io.shelfmark.config.cluster.Role;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A node on a non-default port is reached by {@code query} and {@code table} through its cluster
 * config ({@code --config}), without spelling out {@code --broker}; and {@code table list} on a
 * node without tables says so without an empty table header (issue 26's newcomer findings).
 */
class TestCliFindsTheBrokerFromConfig {
  @TempDir Path directory;
  private LocalLake lake;
  private AllInOne node;
  private Path configFile;

  @BeforeEach
  void start() throws Exception {
    lake = LocalLake.start(directory.resolve("lake"), 0);
    ClusterConfig config = TestingNodes.config(lake, directory.resolve("node")).build();
    node = TestingNodes.start(lake, config);
    int port = URI.create(node.url()).getPort();
    assertThat(port).as("a free port, not the default").isNotEqualTo(8099);
    // The file an operator would have started this node with: its host and broker port.
    ClusterConfig asStarted =
        TestingNodes.config(lake, directory.resolve("node"))
            .ports(
                new PortsConfig(
                    port,
                    PortsConfig.DEFAULT_SERVER_RPC_PORT,
                    PortsConfig.DEFAULT_CONTROLLER_HTTP_PORT,
                    PortsConfig.DEFAULT_BROKER_FLIGHT_PORT))
            .build();
    configFile = directory.resolve("node.yaml");
    Files.writeString(configFile, ConfigWriter.write(asStarted, ConfigFormat.YAML));
  }

  @AfterEach
  void stop() throws Exception {
    if (node != null) {
      node.close();
    }
    if (lake != null) {
      lake.close();
    }
  }

  @Test
  void queryAndTableListReachTheNodeTheConfigNames() {
    Run query = run("query", "SELECT 1", "--config", configFile.toString());
    assertThat(query.exitCode).as(query.output).isZero();
    assertThat(query.output).contains("1");

    Run list = run("table", "list", "--config", configFile.toString());
    assertThat(list.exitCode).as(list.output).isZero();
    assertThat(list.output)
        .as("no tables: the sentence alone, no header")
        .contains("No tables served")
        .doesNotContain("TABLE")
        .doesNotContain("STATE");
  }

  @Test
  void anExplicitBrokerWinsOverTheConfig() {
    Run query =
        run(
            "query",
            "SELECT 1",
            "--config",
            configFile.toString(),
            "--broker",
            "http://127.0.0.1:1");
    assertThat(query.exitCode).isNotZero();
    assertThat(query.output).contains("127.0.0.1:1");
  }

  @Test
  void aConfigWithoutTheBrokerRoleIsRefusedByName() throws Exception {
    ClusterConfig server =
        TestingNodes.config(lake, directory.resolve("server"))
            .roles(EnumSet.of(Role.SERVER))
            .build();
    Path serverFile = directory.resolve("server.yaml");
    Files.writeString(serverFile, ConfigWriter.write(server, ConfigFormat.YAML));

    Run query = run("query", "SELECT 1", "--config", serverFile.toString());
    assertThat(query.exitCode).isNotZero();
    assertThat(query.output)
        .contains("Cannot reach a broker through " + serverFile)
        .contains("its roles are [server], not broker");
  }

  private record Run(int exitCode, String output) {}

  private static Run run(String... arguments) {
    StringWriter output = new StringWriter();
    CommandLine command = Shelfmark.commandLine();
    command.setOut(new PrintWriter(output));
    command.setErr(new PrintWriter(output));
    int exitCode = command.execute(arguments);
    return new Run(exitCode, output.toString());
  }
}
