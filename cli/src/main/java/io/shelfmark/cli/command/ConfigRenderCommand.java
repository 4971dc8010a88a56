package io.shelfmark.cli.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.config.cluster.PortsConfig;
import io.shelfmark.config.cluster.Role;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.cluster.ZooKeeperConfig;
import io.shelfmark.config.render.NodeKind;
import io.shelfmark.config.render.NodeSettings;
import io.shelfmark.config.render.NodeSizing;
import io.shelfmark.config.render.RoleConfigs;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code shelfmark config render}: the cluster config of one role process of a deployed node,
 * written through the renderer {@code cluster up} uses ({@link RoleConfigs}), with its cache bounds
 * derived from the node's memory and disk ({@link NodeSizing}). The bootstrap script runs it once
 * per role (docs/distribution.md).
 */
@Command(
    name = "render",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Write the cluster config (YAML) of one role process of a deployed node, the way cluster up"
          + " writes its processes' configs; cache sizes are derived from --memory-mb and"
          + " --disk-mb (see docs/distribution.md).",
      "Example: shelfmark config render --role=server --host=10.0.1.20"
          + " --zookeeper-connect=10.0.1.10:2181 --catalog-type=jdbc"
          + " --catalog-uri=jdbc:postgresql://db:5432/iceberg --catalog-warehouse=s3://lake/warehouse"
          + " --segment-store=s3://lake/_shelfmark/segments --data-dir=/var/lib/shelfmark/server"
          + " --memory-mb=126976 --disk-mb=900000 --output=/etc/shelfmark/server.yaml"
    })
public final class ConfigRenderCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Spec CommandSpec spec;

  @Option(names = "--role", required = true, description = "controller, broker or server.")
  String role;

  @Option(names = "--cluster-name", description = "The cluster's name (default: ${DEFAULT-VALUE}).")
  String clusterName = "shelfmark";

  @Option(
      names = "--host",
      required = true,
      description = "The address other members reach this node at.")
  String host;

  @Option(
      names = "--zookeeper-connect",
      required = true,
      description = "host:port[,host:port] of the ZooKeeper ensemble.")
  String zookeeperConnect;

  @Option(
      names = "--broker-http-port",
      description = "The broker's HTTP port (default: ${DEFAULT-VALUE}).")
  int brokerHttpPort = PortsConfig.DEFAULT_BROKER_HTTP_PORT;

  @Option(
      names = "--broker-flight-port",
      description = "The broker's Arrow Flight SQL port (default: ${DEFAULT-VALUE}).")
  int brokerFlightPort = PortsConfig.DEFAULT_BROKER_FLIGHT_PORT;

  @Option(
      names = "--controller-http-port",
      description = "The controller's HTTP admin port (default: ${DEFAULT-VALUE}).")
  int controllerHttpPort = PortsConfig.DEFAULT_CONTROLLER_HTTP_PORT;

  @Option(
      names = "--server-rpc-port",
      description =
          "The server's Arrow Flight port brokers scatter to (default: ${DEFAULT-VALUE}).")
  int serverRpcPort = PortsConfig.DEFAULT_SERVER_RPC_PORT;

  @Option(names = "--storage-region", description = "The S3 region (default: ${DEFAULT-VALUE}).")
  String storageRegion = StorageConfig.DEFAULT_REGION;

  @Option(
      names = "--storage-endpoint",
      description = "An S3-compatible endpoint instead of AWS (path-style addressing).")
  URI storageEndpoint;

  @Option(
      names = "--catalog-type",
      required = true,
      description = "The Iceberg catalog's type: jdbc, rest or glue.")
  String catalogType;

  @Option(
      names = "--catalog-name",
      description = "The catalog's name in SQL (default: ${DEFAULT-VALUE}).")
  String catalogName = CatalogConfig.DEFAULT_NAME;

  @Option(names = "--catalog-uri", description = "The catalog's URI.")
  String catalogUri;

  @Option(names = "--catalog-warehouse", description = "The catalog's warehouse location.")
  String catalogWarehouse;

  @Option(
      names = "--catalog-properties-json",
      description =
          "More catalog properties as a JSON object of strings; a secret's property is declared"
              + " with an empty value and set by its SHELFMARK_CATALOG_PROPERTIES_* variable.")
  String catalogPropertiesJson;

  @Option(
      names = "--segment-store",
      required = true,
      description = "Where segments are kept: s3://bucket/prefix.")
  String segmentStore;

  @Option(
      names = "--data-dir",
      required = true,
      description = "The role's own data directory (pinned segments, cache, state).")
  Path dataDir;

  @Option(names = "--memory-mb", required = true, description = "The node's memory in MiB.")
  long memoryMegabytes;

  @Option(
      names = "--disk-mb",
      required = true,
      description = "The size of the data directory's file system in MiB.")
  long diskMegabytes;

  @Option(
      names = "--allow-unauthenticated-remote-access",
      description =
          "Accept a host other than loopback without users: only when something in front of the"
              + " node (a security group) keeps others out (see docs/security.md).")
  boolean allowUnauthenticatedRemoteAccess;

  @Option(names = "--output", description = "Write to this file (default: standard output).")
  Path output;

  @Override
  public Integer call() throws IOException {
    Role parsed = role(role);
    NodeKind kind = parsed == Role.SERVER ? NodeKind.SERVER : NodeKind.COORDINATOR;
    NodeSizing sizing = new NodeSizing(kind, memoryMegabytes, diskMegabytes);
    String yaml =
        RoleConfigs.render(settings(), parsed, dataDir, sizing.cache(parsed.configName(), dataDir));
    if (output == null) {
      spec.commandLine().getOut().print(yaml);
      spec.commandLine().getOut().flush();
    } else {
      Files.writeString(output, yaml, StandardCharsets.UTF_8);
    }
    return 0;
  }

  private NodeSettings settings() throws IOException {
    StorageConfig.Builder storage = StorageConfig.builder().region(storageRegion);
    if (storageEndpoint != null) {
      storage.endpoint(storageEndpoint).pathStyleAccess(true);
    }
    CatalogConfig.Builder catalog =
        CatalogConfig.builder().type(catalogType(catalogType)).name(catalogName);
    if (catalogUri != null && !catalogUri.isEmpty()) {
      catalog.uri(catalogUri);
    }
    if (catalogWarehouse != null && !catalogWarehouse.isEmpty()) {
      catalog.warehouse(catalogWarehouse);
    }
    for (Map.Entry<String, String> property : properties(catalogPropertiesJson).entrySet()) {
      catalog.property(property.getKey(), property.getValue());
    }
    return new NodeSettings(
        clusterName,
        host,
        new PortsConfig(brokerHttpPort, serverRpcPort, controllerHttpPort, brokerFlightPort),
        storage.build(),
        catalog.build(),
        segmentStore,
        ZooKeeperConfig.ensemble(zookeeperConnect),
        allowUnauthenticatedRemoteAccess);
  }

  private static Role role(String name) {
    for (Role candidate : new Role[] {Role.CONTROLLER, Role.BROKER, Role.SERVER}) {
      if (candidate.configName().equals(name)) {
        return candidate;
      }
    }
    throw new IllegalArgumentException(
        "Cannot render a config for role \""
            + name
            + "\" (--role: controller, broker or server; ZooKeeper takes no config)");
  }

  private static CatalogType catalogType(String name) {
    for (CatalogType type : CatalogType.values()) {
      if (type.configName().equals(name)) {
        return type;
      }
    }
    throw new IllegalArgumentException(
        "Cannot use --catalog-type: \""
            + name
            + "\" (allowed: "
            + String.join(
                ", ", Arrays.stream(CatalogType.values()).map(CatalogType::configName).toList())
            + ")");
  }

  private static Map<String, String> properties(String json) {
    Map<String, String> properties = new LinkedHashMap<>();
    if (json == null || json.isBlank()) {
      return properties;
    }
    JsonNode node;
    try {
      node = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "Cannot read --catalog-properties-json: "
              + e.getOriginalMessage()
              + " (expected a JSON object such as {\"jdbc.user\": \"shelfmark\"})",
          e);
    }
    if (!node.isObject()) {
      throw new IllegalArgumentException(
          "Cannot read --catalog-properties-json: a JSON "
              + node.getNodeType().name().toLowerCase(Locale.ROOT)
              + " (expected an object of strings such as {\"jdbc.user\": \"shelfmark\"})");
    }
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      if (!field.getValue().isValueNode() || field.getValue().isNull()) {
        throw new IllegalArgumentException(
            "Cannot use catalog property "
                + field.getKey()
                + " of --catalog-properties-json: "
                + field.getValue()
                + " (expected a string)");
      }
      properties.put(field.getKey(), field.getValue().asText());
    }
    return properties;
  }
}
