package io.shelfmark.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.Role;
import io.shelfmark.config.cluster.StaticCredentials;
import io.shelfmark.config.cluster.StorageType;
import io.shelfmark.config.unit.DataSize;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestEnvironmentOverrides {
  private static final String BASE =
      """
      roles: [server]
      segment-store: /srv/segments
      storage:
        region: eu-west-1
      cache:
        disk:
          max-size: 10GiB
      """;

  @Test
  void overridesFileValues() {
    ClusterConfig config =
        load(
            BASE,
            Map.of(
                "SHELFMARK_STORAGE_ENDPOINT", "http://127.0.0.1:9000",
                "SHELFMARK_STORAGE_REGION", "us-west-2",
                "SHELFMARK_STORAGE_PATH_STYLE_ACCESS", "true",
                "SHELFMARK_CACHE_DISK_MAX_SIZE", "2GiB",
                "SHELFMARK_BROKER_HTTP_PORT", "9999",
                "SHELFMARK_ROLES", "broker,server",
                "SHELFMARK_STORAGE_REQUEST_TIMEOUT", "5s"));
    assertThat(config.storage().endpoint()).contains(URI.create("http://127.0.0.1:9000"));
    assertThat(config.storage().region()).isEqualTo("us-west-2");
    assertThat(config.storage().pathStyleAccess()).isTrue();
    assertThat(config.storage().requestTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.cache().diskMaxSize()).isEqualTo(DataSize.of(2, DataSize.Unit.GIBIBYTE));
    assertThat(config.ports().brokerHttpPort()).isEqualTo(9999);
    assertThat(config.roles()).containsExactly(Role.BROKER, Role.SERVER);
  }

  @Test
  void createsSectionsTheFileLacks() {
    ClusterConfig config =
        load(
            BASE,
            Map.of(
                "SHELFMARK_STORAGE_ACCESS_KEY_ID", "AKIAEXAMPLE",
                "SHELFMARK_STORAGE_SECRET_ACCESS_KEY", "very-secret",
                "SHELFMARK_CACHE_MEMORY_MAX_SIZE", "256MiB",
                "SHELFMARK_SERVER_RPC_PORT", "7000",
                "SHELFMARK_CATALOG_TYPE", "glue",
                "SHELFMARK_DATA_DIR", "/data"));
    assertThat(config.storage().credentials())
        .contains(new StaticCredentials("AKIAEXAMPLE", "very-secret"));
    assertThat(config.cache().memoryMaxSize()).isEqualTo(DataSize.of(256, DataSize.Unit.MEBIBYTE));
    assertThat(config.ports().serverRpcPort()).isEqualTo(7000);
    assertThat(config.catalog().orElseThrow().name()).isEqualTo("shelfmark");
    assertThat(config.dataDir()).isEqualTo(Path.of("/data"));
    assertThat(config.cache().diskDirectory()).isEqualTo(Path.of("/data/cache"));
  }

  @Test
  void emptyValueRestoresDefault() {
    ClusterConfig config = load(BASE, Map.of("SHELFMARK_STORAGE_REGION", ""));
    assertThat(config.storage().region()).isEqualTo("us-east-1");
  }

  @Test
  void validatesOverridesNamingTheVariable() {
    ConfigException e =
        failure(
            BASE,
            Map.of(
                "SHELFMARK_CACHE_DISK_MAX_SIZE", "12 parsecs",
                "SHELFMARK_STORAGE_TYPE", "gcs",
                "SHELFMARK_BROKER_HTTP_PORT", "80000",
                "SHELFMARK_STORAGE_SECRET_ACCESS_KEY", "very-secret"));
    assertThat(e.violations())
        .extracting(Violation::message)
        .containsExactly(
            "Cannot use broker.http-port from SHELFMARK_BROKER_HTTP_PORT: \"80000\" (expected an"
                + " integer from 1 to 65535)",
            "Cannot use storage.type from SHELFMARK_STORAGE_TYPE: \"gcs\" (allowed: s3, local)",
            "Cannot use storage.secret-access-key from SHELFMARK_STORAGE_SECRET_ACCESS_KEY without"
                + " storage.access-key-id (set both, or neither to use the AWS default credentials"
                + " chain)",
            "Cannot use cache.disk.max-size from SHELFMARK_CACHE_DISK_MAX_SIZE: \"12 parsecs\""
                + " (expected a size such as 512MB or 2GiB)");
    assertThat(e.getMessage()).doesNotContain("very-secret");
  }

  @Test
  void reportsMistypedVariablesUnderKnownSections() {
    ConfigException e =
        failure(
            BASE,
            Map.of(
                "SHELFMARK_STORAGE_ENDPONT", "http://x",
                "SHELFMARK_CACHE_COLOUR", "blue"));
    assertThat(e.violations())
        .extracting(Violation::message)
        .containsExactly(
            "Unknown environment variable SHELFMARK_CACHE_COLOUR (no config key has this name; see"
                + " docs/config.md for the variables)",
            "Unknown environment variable SHELFMARK_STORAGE_ENDPONT (did you mean"
                + " SHELFMARK_STORAGE_ENDPOINT?)");
  }

  @Test
  void ignoresOtherVariables() {
    ClusterConfig config =
        load(
            BASE,
            Map.of(
                "SHELFMARK_HOME", "/opt/shelfmark",
                "SHELFMARK_JAVA_OPTS", "-Xmx4g",
                "PATH", "/usr/bin",
                "storage.region", "xx"));
    assertThat(config.storage().region()).isEqualTo("eu-west-1");
  }

  @Test
  void overridesDeclaredCatalogProperties() {
    String yaml =
        """
        roles: [controller]
        segment-store: /s
        catalog:
          type: jdbc
          uri: jdbc:postgresql://db/lake
          warehouse: s3://lake/warehouse
          properties:
            jdbc.user: shelfmark
            jdbc.password: ""
        """;
    ClusterConfig config =
        load(yaml, Map.of("SHELFMARK_CATALOG_PROPERTIES_JDBC_PASSWORD", "hunter2"));
    assertThat(config.catalog().orElseThrow().properties())
        .containsExactly(
            Map.entry("jdbc.user", "shelfmark"), Map.entry("jdbc.password", "hunter2"));
    assertThat(config.catalog().orElseThrow().toString())
        .contains("jdbc.user=shelfmark")
        .contains("jdbc.password=****")
        .doesNotContain("hunter2");
  }

  @Test
  void refusesUndeclaredCatalogProperties() {
    ConfigException e =
        failure(
            """
            roles: [server]
            segment-store: /s
            catalog:
              type: rest
              uri: http://127.0.0.1:8181
            """,
            Map.of("SHELFMARK_CATALOG_PROPERTIES_TOKEN", "t"));
    assertThat(e.violations())
        .extracting(Violation::message)
        .containsExactly(
            "Cannot apply SHELFMARK_CATALOG_PROPERTIES_TOKEN (no key under catalog.properties in the"
                + " file has this variable name; declare the property in the file, such as"
                + " jdbc.password: \"\", and the variable overrides it)");
  }

  @Test
  void refusesAmbiguousCatalogProperties() {
    ConfigException e =
        failure(
            """
            roles: [server]
            segment-store: /s
            catalog:
              type: rest
              uri: http://127.0.0.1:8181
              properties:
                a.b: x
                a-b: y
            """,
            Map.of("SHELFMARK_CATALOG_PROPERTIES_A_B", "z"));
    assertThat(e.violations())
        .extracting(Violation::message)
        .containsExactly(
            "Cannot apply SHELFMARK_CATALOG_PROPERTIES_A_B (it matches several keys under"
                + " catalog.properties: a.b, a-b; rename one)");
  }

  @Test
  void refusesOverrideIntoAValueThatIsNotASection() {
    ConfigException e =
        failure(
            """
            roles: [server]
            segment-store: /s
            storage: s3
            """,
            Map.of("SHELFMARK_STORAGE_REGION", "us-west-2"));
    assertThat(e.violations())
        .extracting(Violation::message)
        .containsExactly(
            "Cannot apply SHELFMARK_STORAGE_REGION: storage in the file is not a section (fix the"
                + " file first)",
            "Cannot use storage: \"s3\" (expected a section of keys, not a single value)");
  }

  @Test
  void buildsWholeConfigFromEnvironment() {
    ClusterConfig config =
        new ConfigLoader(
                Map.of(
                    "SHELFMARK_ROLES", "server",
                    "SHELFMARK_SEGMENT_STORE", "s3://lake/_shelfmark/segments",
                    "SHELFMARK_STORAGE_TYPE", "local",
                    "SHELFMARK_STORAGE_ROOT", "/srv/lake"))
            .clusterFromEnvironment();
    assertThat(config.segmentStore()).isEqualTo("s3://lake/_shelfmark/segments");
    assertThat(config.storage().type()).isEqualTo(StorageType.LOCAL);

    ConfigException e =
        catchThrowableOfType(
            ConfigException.class,
            () -> new ConfigLoader(Map.of("SHELFMARK_ROLES", "server")).clusterFromEnvironment());
    assertThat(e.getMessage())
        .isEqualTo(
            "environment: Missing key segment-store (where segments are kept: s3://bucket/prefix"
                + " or an absolute directory)");
  }

  @Test
  void namesVariablesFromKeys() {
    assertThat(ConfigLoader.environmentVariable("storage.path-style-access"))
        .isEqualTo("SHELFMARK_STORAGE_PATH_STYLE_ACCESS");
    assertThat(ConfigLoader.environmentVariable("cache.disk.max-size"))
        .isEqualTo("SHELFMARK_CACHE_DISK_MAX_SIZE");
  }

  private static ClusterConfig load(String yaml, Map<String, String> environment) {
    return new ConfigLoader(environment).parseCluster(yaml, ConfigFormat.YAML, "cluster.yaml");
  }

  private static ConfigException failure(String yaml, Map<String, String> environment) {
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> load(yaml, environment));
    assertThat(e).as("expected a ConfigException").isNotNull();
    return e;
  }
}
