package io.shelfmark.config.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.config.unit.DataSize;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TestClusterConfig {
  @Test
  void builderFillsDefaults() {
    ClusterConfig config =
        ClusterConfig.builder().segmentStore("/srv/segments").roles(Role.SERVER).build();
    assertThat(config.clusterName()).isEqualTo("shelfmark");
    assertThat(config.hasRole(Role.SERVER)).isTrue();
    assertThat(config.hasRole(Role.BROKER)).isFalse();
    assertThat(config.host()).isEqualTo("127.0.0.1");
    assertThat(config.ports()).isEqualTo(PortsConfig.defaults());
    assertThat(config.storage()).isEqualTo(StorageConfig.defaults());
    assertThat(config.dataDir()).isEqualTo(ClusterConfig.DEFAULT_DATA_DIR);
    assertThat(config.cache().diskDirectory()).isEqualTo(Path.of(".shelfmark/cache"));
    assertThat(config.cache().memoryMaxSize()).isEqualTo(DataSize.of(1, DataSize.Unit.GIBIBYTE));
    assertThat(config.cache().diskMaxSize()).isEqualTo(DataSize.of(10, DataSize.Unit.GIBIBYTE));
  }

  @Test
  void builderRefusesSettingTwice() {
    assertThatThrownBy(() -> ClusterConfig.builder().host("a").host("b"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot set host twice: already set to a");
    assertThatThrownBy(() -> StorageConfig.builder().maxRetries(3).maxRetries(4))
        .hasMessage("Cannot set maxRetries twice: already set to 3");
    assertThatThrownBy(
            () ->
                StorageConfig.builder()
                    .credentials(new StaticCredentials("id", "secret"))
                    .credentials(new StaticCredentials("id2", "secret2")))
        .hasMessage(
            "Cannot set credentials twice: already set to"
                + " StaticCredentials[accessKeyId=id, secretAccessKey=****]");
    assertThatThrownBy(
            () ->
                CatalogConfig.builder()
                    .property("a", "1")
                    .property("a", "2")
                    .type(CatalogType.GLUE)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Multiple entries with same key: a=2 and a=1");
  }

  @Test
  void builderRequiresSegmentStoreAndControllersCatalog() {
    assertThatThrownBy(() -> ClusterConfig.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot build cluster config: segmentStore is not set");
    assertThatThrownBy(() -> ClusterConfig.builder().segmentStore("/s").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot use roles with controller without a catalog section");
    assertThatThrownBy(
            () -> ClusterConfig.builder().segmentStore("relative").roles(Role.SERVER).build())
        .hasMessage(
            "Cannot use segment-store: \"relative\" (expected s3://bucket/prefix or an absolute"
                + " path)");
    assertThatThrownBy(() -> ClusterConfig.builder().segmentStore("/s").roles(Set.of()).build())
        .hasMessage("Cannot use roles: empty (name at least one role)");
  }

  @Test
  void acceptsSegmentStoreLocations() {
    assertThat(ClusterConfig.isValidSegmentStore("s3://bucket")).isTrue();
    assertThat(ClusterConfig.isValidSegmentStore("s3://bucket/_shelfmark/segments")).isTrue();
    assertThat(ClusterConfig.isValidSegmentStore("s3a://bucket/x")).isTrue();
    assertThat(ClusterConfig.isValidSegmentStore("file:/srv/segments")).isTrue();
    assertThat(ClusterConfig.isValidSegmentStore("/srv/segments")).isTrue();
    assertThat(ClusterConfig.isValidSegmentStore("s3://")).isFalse();
    assertThat(ClusterConfig.isValidSegmentStore("s3:///x")).isFalse();
    assertThat(ClusterConfig.isValidSegmentStore("gs://bucket")).isFalse();
    assertThat(ClusterConfig.isValidSegmentStore("segments")).isFalse();
  }

  @Test
  void portsAllowAnyFreePortProgrammatically() {
    assertThat(PortsConfig.anyFreePorts().brokerHttpPort()).isZero();
    assertThatThrownBy(() -> new PortsConfig(8099, 65536, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot use server.rpc-port: 65536 (expected 1 to 65535, or 0 for any free port)");
  }

  @Test
  void storageChecksRulesByType() {
    assertThatThrownBy(() -> StorageConfig.builder().type(StorageType.LOCAL).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot use storage.type local without storage.root");
    assertThatThrownBy(() -> StorageConfig.builder().root(Path.of("/x")).build())
        .hasMessage("Cannot use storage.root with storage.type s3");
    assertThatThrownBy(
            () ->
                StorageConfig.builder()
                    .type(StorageType.LOCAL)
                    .root(Path.of("/x"))
                    .endpoint(URI.create("http://h"))
                    .build())
        .hasMessage("Cannot use storage.endpoint with storage.type local");
    assertThatThrownBy(() -> StorageConfig.builder().requestTimeout(Duration.ZERO).build())
        .hasMessage("Cannot use storage.request-timeout: PT0S (expected a positive duration)");
    assertThatThrownBy(() -> StorageConfig.builder().maxConnections(0).build())
        .hasMessage("Cannot use storage.max-connections: 0 (expected 1 to 10000)");
    assertThatThrownBy(() -> new StaticCredentials("id", " "))
        .hasMessage("Cannot use storage.secret-access-key: blank");
  }

  @Test
  void catalogChecksRulesByType() {
    assertThatThrownBy(() -> CatalogConfig.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot build catalog config: type is not set");
    assertThatThrownBy(
            () -> CatalogConfig.builder().type(CatalogType.JDBC).uri("jdbc:sqlite:/c.db").build())
        .hasMessage("Cannot use catalog.type jdbc without catalog.warehouse");
    assertThatThrownBy(() -> CatalogConfig.builder().type(CatalogType.JDBC).build())
        .hasMessage(
            "Cannot use catalog.uri: absent (expected a JDBC URL such as"
                + " jdbc:sqlite:/path/catalog.db)");
    assertThatThrownBy(() -> CatalogConfig.builder().type(CatalogType.REST).uri("ftp://x").build())
        .hasMessage("Cannot use catalog.uri: ftp://x (expected an http:// or https:// URL)");
    assertThatThrownBy(() -> CatalogConfig.builder().type(CatalogType.GLUE).uri("http://x").build())
        .hasMessage("Cannot use catalog.uri with catalog.type glue");
  }

  @Test
  void toStringHidesSecrets() {
    StorageConfig storage =
        StorageConfig.builder()
            .credentials(new StaticCredentials("AKIAEXAMPLE", "very-secret"))
            .build();
    assertThat(storage.toString()).contains("AKIAEXAMPLE").doesNotContain("very-secret");
    CatalogConfig catalog =
        new CatalogConfig(
            CatalogType.REST,
            "lake",
            Optional.of("https://catalog"),
            Optional.empty(),
            Map.of(
                "credential",
                "id:secret",
                "oauth2-token",
                "tok",
                "jdbc.PASSWORD",
                "pw",
                "scope",
                "all"));
    assertThat(catalog.toString())
        .contains("scope=all")
        .contains("credential=****")
        .doesNotContain("id:secret")
        .doesNotContain("tok,")
        .doesNotContain("=pw");
  }

  @Test
  void remoteHostNeedsTheExplicitOverride() {
    // Programmatic configs, as the node is started with, are held to the same rule as files.
    assertThatThrownBy(
            () ->
                ClusterConfig.builder()
                    .segmentStore("/s")
                    .roles(Role.SERVER)
                    .host("0.0.0.0")
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot use host: 0.0.0.0 (without authentication");
    ClusterConfig config =
        ClusterConfig.builder()
            .segmentStore("/s")
            .roles(Role.SERVER)
            .host("0.0.0.0")
            .allowUnauthenticatedRemoteAccess(true)
            .build();
    assertThat(config.allowUnauthenticatedRemoteAccess()).isTrue();
  }
}
