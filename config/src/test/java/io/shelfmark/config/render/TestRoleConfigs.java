package io.shelfmark.config.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.PortsConfig;
import io.shelfmark.config.cluster.Role;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.cluster.ZooKeeperConfig;
import io.shelfmark.config.unit.DataSize;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestRoleConfigs {
  @TempDir Path directory;

  private static NodeSettings node(String host, boolean allowRemote) {
    return new NodeSettings(
        "prod",
        host,
        new PortsConfig(8099, 8098, 8097, 8815),
        StorageConfig.builder().region("eu-west-1").build(),
        CatalogConfig.builder()
            .type(CatalogType.JDBC)
            .uri("jdbc:postgresql://db:5432/iceberg")
            .warehouse("s3://lake/warehouse")
            .property("jdbc.password", "")
            .build(),
        "s3://lake/_shelfmark/segments",
        ZooKeeperConfig.ensemble("10.0.1.10:2181"),
        allowRemote);
  }

  @Test
  void renderedYamlLoadsBackAsTheSameConfig() throws Exception {
    NodeSizing sizing = new NodeSizing(NodeKind.SERVER, 128 * 1024, 900_000);
    Path dataDir = Path.of("/var/lib/shelfmark/server");
    ClusterConfig expected =
        RoleConfigs.of(
            node("10.0.1.20", true), Role.SERVER, dataDir, sizing.cache("server", dataDir));
    Path file = directory.resolve("server.yaml");
    Files.writeString(
        file,
        RoleConfigs.render(
            node("10.0.1.20", true), Role.SERVER, dataDir, sizing.cache("server", dataDir)));

    // The secret's property is declared empty; the service's env file sets it.
    ClusterConfig loaded =
        new ConfigLoader(Map.of("SHELFMARK_CATALOG_PROPERTIES_JDBC_PASSWORD", "s3cret"))
            .loadCluster(file);

    assertThat(loaded).usingRecursiveComparison().ignoringFields("catalog").isEqualTo(expected);
    assertThat(loaded.catalog().orElseThrow().properties())
        .isEqualTo(Map.of("jdbc.password", "s3cret"));
    assertThat(loaded.catalog().orElseThrow().uri())
        .isEqualTo(expected.catalog().orElseThrow().uri());
    assertThat(loaded.roles()).containsExactly(Role.SERVER);
    assertThat(loaded.zookeeper().connect()).isEqualTo(Optional.of("10.0.1.10:2181"));
    assertThat(loaded.cache().diskDirectory()).isEqualTo(dataDir.resolve("cache"));
  }

  @Test
  void remoteHostWithoutUsersNeedsTheExplicitOverride() {
    NodeSizing sizing = new NodeSizing(NodeKind.COORDINATOR, 16 * 1024, 100_000);
    Path dataDir = Path.of("/var/lib/shelfmark/broker");
    assertThatThrownBy(
            () ->
                RoleConfigs.of(
                    node("10.0.1.10", false),
                    Role.BROKER,
                    dataDir,
                    sizing.cache("broker", dataDir)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cannot use host: 10.0.1.10");
  }

  @Test
  void sizingOfTheReferenceInstances() {
    // m7g.xlarge: 16 GiB; r6gd.4xlarge: 128 GiB and 950 GB of NVMe.
    NodeSizing coordinator = new NodeSizing(NodeKind.COORDINATOR, 16 * 1024, 30_000);
    assertThat(coordinator.heapMegabytes("zookeeper")).isEqualTo(512);
    assertThat(coordinator.heapMegabytes("controller")).isEqualTo(4096);
    assertThat(coordinator.heapMegabytes("broker")).isEqualTo(5734);
    assertThat(coordinator.cache("broker", Path.of("/d")).diskMaxSize())
        .isEqualTo(DataSize.of(1500, DataSize.Unit.MEBIBYTE));

    NodeSizing server = new NodeSizing(NodeKind.SERVER, 128 * 1024, 906_000);
    assertThat(server.heapMegabytes("server")).isEqualTo(NodeSizing.MAX_HEAP_MEGABYTES);
    assertThat(server.cache("server", Path.of("/d")).memoryMaxSize())
        .isEqualTo(DataSize.of(31 * 1024 * 40 / 100, DataSize.Unit.MEBIBYTE));
    assertThat(server.cache("server", Path.of("/d")).diskMaxSize())
        .isEqualTo(DataSize.of(906_000 * 40 / 100, DataSize.Unit.MEBIBYTE));
    // A small server: half its memory.
    assertThat(new NodeSizing(NodeKind.SERVER, 8192, 10_000).heapMegabytes("server"))
        .isEqualTo(4096);
  }

  @Test
  void sizingRefusesWhatANodeDoesNotRun() {
    NodeSizing server = new NodeSizing(NodeKind.SERVER, 8192, 10_000);
    assertThatThrownBy(() -> server.heapMegabytes("broker"))
        .hasMessage("Cannot size broker on a server node (it runs [server])");
    assertThatThrownBy(() -> new NodeSizing(NodeKind.SERVER, 512, 10_000))
        .hasMessage("Cannot size a node of 512 MiB memory (at least 2048 MiB)");
    assertThatThrownBy(() -> NodeKind.of("worker"))
        .hasMessage("Cannot use node kind: \"worker\" (expected coordinator or server)");
  }
}
