package io.shelfmark.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TestClusterKeys {
  private static final Path DOCS = Path.of("..", "docs", "config.md");

  @Test
  void binderReadsExactlyTheListedKeys() {
    BindContext context = new BindContext();
    ObjectNode root =
        ConfigParser.parse(TestClusterConfigLoader.FULL_YAML, ConfigFormat.YAML, context)
            .orElseThrow();
    assertThat(ClusterConfigBinder.bind(new ConfigNode(root, "", context))).isPresent();
    Set<String> leaves = new HashSet<>();
    // Users are named by the operator: their keys count as the users section itself.
    for (String key : context.readKeys()) {
      leaves.add(
          key.startsWith(ClusterKeys.SECURITY_USERS + ".") ? ClusterKeys.SECURITY_USERS : key);
    }
    // Sections are read too; only the keys that hold values count.
    leaves.removeIf(
        key ->
            !key.equals(ClusterKeys.SECURITY_USERS)
                && context.readKeys().stream().anyMatch(other -> other.startsWith(key + ".")));
    assertThat(leaves).containsExactlyInAnyOrderElementsOf(ClusterKeys.ALL);
  }

  @Test
  void everyKeyHasItsOwnVariable() {
    assertThat(ClusterKeys.BY_ENVIRONMENT_VARIABLE).hasSize(ClusterKeys.ALL.size() - 2);
    assertThat(ClusterKeys.BY_ENVIRONMENT_VARIABLE)
        .containsEntry("SHELFMARK_CACHE_DISK_MAX_SIZE", "cache.disk.max-size")
        .containsEntry("SHELFMARK_STORAGE_ENDPOINT", "storage.endpoint")
        .containsEntry("SHELFMARK_CLUSTER_NAME", "cluster-name");
  }

  @Test
  void docsDescribeEveryKeyAndVariable() throws Exception {
    String docs = Files.readString(DOCS, StandardCharsets.UTF_8);
    for (String key : ClusterKeys.ALL) {
      assertThat(docs).as("docs/config.md mentions %s", key).contains("`" + key + "`");
      if (!key.equals(ClusterKeys.CATALOG_PROPERTIES) && !key.equals(ClusterKeys.SECURITY_USERS)) {
        assertThat(docs).contains("`" + ClusterKeys.environmentVariable(key) + "`");
      }
    }
    List<String> tableKeys =
        List.of(
            "table.catalog",
            "table.namespace",
            "table.name",
            "time-column",
            "columns.<column>.indexes",
            "map-keys.<column>.keys",
            "map-keys.<column>.auto",
            "map-keys.<column>.min-share",
            "replication",
            "refresh-interval");
    for (String key : tableKeys) {
      assertThat(docs).as("docs/config.md mentions %s", key).contains("`" + key + "`");
    }
  }

  @Test
  void docsExamplesLoad() throws Exception {
    String docs = Files.readString(DOCS, StandardCharsets.UTF_8);
    String cluster = fencedBlockAfter(docs, "<!-- example: cluster -->");
    String table = fencedBlockAfter(docs, "<!-- example: table -->");
    // The example leaves its password to the variable, as the docs advise: set it, as users do.
    assertThat(
            new ConfigLoader(Map.of("SHELFMARK_CATALOG_PROPERTIES_JDBC_PASSWORD", "hunter2"))
                .parseCluster(cluster, ConfigFormat.YAML, "docs"))
        .isNotNull();
    assertThatThrownBy(
            () ->
                ConfigLoader.withoutEnvironment().parseCluster(cluster, ConfigFormat.YAML, "docs"))
        .hasMessageContaining("set SHELFMARK_CATALOG_PROPERTIES_JDBC_PASSWORD");
    assertThat(ConfigLoader.parseTable(table, ConfigFormat.YAML, "docs"))
        .isEqualTo(ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE));
  }

  private static String fencedBlockAfter(String docs, String marker) {
    int at = docs.indexOf(marker);
    assertThat(at).as("marker %s in docs/config.md", marker).isNotNegative();
    int start = docs.indexOf("```yaml\n", at) + "```yaml\n".length();
    int end = docs.indexOf("```", start);
    return docs.substring(start, end);
  }
}
