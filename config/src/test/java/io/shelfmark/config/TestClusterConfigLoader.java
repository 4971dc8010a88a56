package io.shelfmark.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.HttpConfig;
import io.shelfmark.config.cluster.PortsConfig;
import io.shelfmark.config.cluster.QueryConfig;
import io.shelfmark.config.cluster.Role;
import io.shelfmark.config.cluster.SegmentMode;
import io.shelfmark.config.cluster.SqlLimitsConfig;
import io.shelfmark.config.cluster.StaticCredentials;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.cluster.StorageType;
import io.shelfmark.config.cluster.WarmupConfig;
import io.shelfmark.config.cluster.ZooKeeperConfig;
import io.shelfmark.config.unit.DataSize;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestClusterConfigLoader {
  static final String FULL_YAML =
      """
      cluster-name: prod-eu
      roles: [broker, server]
      host: 10.0.0.5
      broker:
        http-port: 18099
        flight-port: 18815
        allow-unauthenticated-remote-access: true
        http:
          request-read-timeout: 5s
          idle-timeout: 30s
          max-connections: 1000
          max-connections-per-client: 100
        sql:
          max-length: 100000
          max-expression-depth: 150
          max-in-list-size: 5000
          max-logical-terms: 4000
      server:
        rpc-port: 18098
        warmup:
          rounds: 5
          max-duration: 2m
      controller:
        http-port: 18097
      storage:
        type: s3
        endpoint: http://127.0.0.1:9000
        region: eu-west-1
        path-style-access: true
        access-key-id: AKIAEXAMPLE
        secret-access-key: very-secret
        max-connections: 128
        request-timeout: 10s
        max-retries: 3
      catalog:
        type: jdbc
        name: lake
        uri: jdbc:sqlite:/var/lib/lake/catalog.db
        warehouse: s3://lake/warehouse
        properties:
          jdbc.user: shelfmark
          jdbc.password: hunter2
      segment-store: s3://lake/_shelfmark/segments
      cache:
        memory:
          max-size: 512MB
        disk:
          max-size: 2GiB
          directory: /nvme/cache
        decompressed:
          max-size: 64MiB
        posting-lists:
          max-size: 32MiB
        dictionaries:
          max-size: 16MiB
      data-dir: /var/lib/shelfmark
      security:
        users:
          alice:
            password-hash: pbkdf2-sha256$10000$MDEyMzQ1Njc4OWFiY2RlZg==$TI2grtvV1HW5nz2rBY4tctlrmOj5bZs0dw9j8NHpRRc=
            roles: [admin]
          grafana:
            token-hash: sha256$f616cc21e93cfa0340bbe511ba5170df9344bb35aaa5aeb4b8bcfb88d543bfc1
            roles: [query]
            tables: [obs.*, web.pages]
        tls:
          certificate-file: src/test/resources/tls/placeholder-cert.pem
          private-key-file: src/test/resources/tls/placeholder-key.pem
          private-key-password: key-secret
      """;

  private static final ConfigLoader LOADER = ConfigLoader.withoutEnvironment();

  @TempDir Path directory;

  @Test
  void readsEveryKeyFromYaml() throws Exception {
    ClusterConfig config = LOADER.loadCluster(write("cluster.yaml", FULL_YAML));
    assertFull(config);
  }

  @Test
  void readsEveryKeyFromJson() throws Exception {
    String json =
        """
        {
          "cluster-name": "prod-eu",
          "roles": ["broker", "server"],
          "host": "10.0.0.5",
          "broker": {
            "http-port": 18099, "flight-port": 18815, "allow-unauthenticated-remote-access": true,
            "http": {
              "request-read-timeout": "5s", "idle-timeout": "30s", "max-connections": 1000,
              "max-connections-per-client": 100
            },
            "sql": {
              "max-length": 100000, "max-expression-depth": 150, "max-in-list-size": 5000,
              "max-logical-terms": 4000
            }
          },
          "server": {"rpc-port": 18098, "warmup": {"rounds": 5, "max-duration": "2m"}},
          "controller": {"http-port": 18097},
          "storage": {
            "type": "s3", "endpoint": "http://127.0.0.1:9000", "region": "eu-west-1",
            "path-style-access": true, "access-key-id": "AKIAEXAMPLE",
            "secret-access-key": "very-secret", "max-connections": 128,
            "request-timeout": "10s", "max-retries": 3
          },
          "catalog": {
            "type": "jdbc", "name": "lake", "uri": "jdbc:sqlite:/var/lib/lake/catalog.db",
            "warehouse": "s3://lake/warehouse",
            "properties": {"jdbc.user": "shelfmark", "jdbc.password": "hunter2"}
          },
          "segment-store": "s3://lake/_shelfmark/segments",
          "cache": {"memory": {"max-size": "512MB"},
                    "disk": {"max-size": "2GiB", "directory": "/nvme/cache"},
                    "decompressed": {"max-size": "64MiB"},
                    "posting-lists": {"max-size": "32MiB"},
                    "dictionaries": {"max-size": "16MiB"}},
          "data-dir": "/var/lib/shelfmark"
        }
        """;
    assertFull(LOADER.loadCluster(write("cluster.json", json)));
  }

  private static void assertFull(ClusterConfig config) {
    assertThat(config.clusterName()).isEqualTo("prod-eu");
    assertThat(config.roles()).containsExactly(Role.BROKER, Role.SERVER);
    assertThat(config.host()).isEqualTo("10.0.0.5");
    assertThat(config.ports()).isEqualTo(new PortsConfig(18099, 18098, 18097, 18815));
    assertThat(config.allowUnauthenticatedRemoteAccess()).isTrue();
    assertThat(config.http())
        .isEqualTo(new HttpConfig(Duration.ofSeconds(5), Duration.ofSeconds(30), 1000, 100));
    assertThat(config.sqlLimits()).isEqualTo(new SqlLimitsConfig(100_000, 150, 5000, 4000));
    assertThat(config.storage())
        .isEqualTo(
            new StorageConfig(
                StorageType.S3,
                Optional.of(URI.create("http://127.0.0.1:9000")),
                "eu-west-1",
                true,
                Optional.of(new StaticCredentials("AKIAEXAMPLE", "very-secret")),
                Optional.empty(),
                128,
                Duration.ofSeconds(10),
                3));
    assertThat(config.catalog()).isPresent();
    assertThat(config.catalog().get().type()).isEqualTo(CatalogType.JDBC);
    assertThat(config.catalog().get().name()).isEqualTo("lake");
    assertThat(config.catalog().get().uri()).contains("jdbc:sqlite:/var/lib/lake/catalog.db");
    assertThat(config.catalog().get().warehouse()).contains("s3://lake/warehouse");
    assertThat(config.catalog().get().properties())
        .containsExactly(
            Map.entry("jdbc.user", "shelfmark"), Map.entry("jdbc.password", "hunter2"));
    assertThat(config.segmentStore()).isEqualTo("s3://lake/_shelfmark/segments");
    assertThat(config.cache())
        .isEqualTo(
            new CacheConfig(
                DataSize.ofBytes(512_000_000),
                DataSize.ofBytes(2L << 30),
                Path.of("/nvme/cache"),
                DataSize.of(64, DataSize.Unit.MEBIBYTE),
                DataSize.of(32, DataSize.Unit.MEBIBYTE),
                DataSize.of(16, DataSize.Unit.MEBIBYTE)));
    assertThat(config.dataDir()).isEqualTo(Path.of("/var/lib/shelfmark"));
    assertThat(config.warmup()).isEqualTo(new WarmupConfig(5, Duration.ofMinutes(2)));
  }

  @Test
  void fillsDefaults() {
    ClusterConfig config =
        parse(
            """
            segment-store: /srv/segments
            catalog:
              type: rest
              uri: http://127.0.0.1:8181
            """);
    assertThat(config.clusterName()).isEqualTo(ClusterConfig.DEFAULT_CLUSTER_NAME);
    assertThat(config.roles()).containsExactlyElementsOf(ClusterConfig.DEFAULT_ROLES);
    assertThat(config.host()).isEqualTo("127.0.0.1");
    assertThat(config.ports()).isEqualTo(new PortsConfig(8099, 8098, 8097, 8815));
    assertThat(config.storage()).isEqualTo(StorageConfig.defaults());
    assertThat(config.storage().region()).isEqualTo("us-east-1");
    assertThat(config.storage().endpoint()).isEmpty();
    assertThat(config.storage().credentials()).isEmpty();
    assertThat(config.catalog().orElseThrow().name()).isEqualTo("shelfmark");
    assertThat(config.catalog().orElseThrow().warehouse()).isEmpty();
    assertThat(config.dataDir()).isEqualTo(Path.of(".shelfmark"));
    assertThat(config.cache()).isEqualTo(CacheConfig.defaults(Path.of(".shelfmark")));
    assertThat(config.cache().diskDirectory()).isEqualTo(Path.of(".shelfmark", "cache"));
    assertThat(config.warmup()).isEqualTo(WarmupConfig.defaults());
  }

  @Test
  void cacheDirectoryFollowsDataDir() {
    ClusterConfig config =
        parse(
            """
            roles: server
            segment-store: s3://bucket
            data-dir: /data/shelfmark
            """);
    assertThat(config.roles()).containsExactly(Role.SERVER);
    assertThat(config.catalog()).isEmpty();
    assertThat(config.cache().diskDirectory()).isEqualTo(Path.of("/data/shelfmark/cache"));
  }

  @Test
  void readsLocalStorage() {
    ClusterConfig config =
        parse(
            """
            roles: [server]
            storage: {type: LOCAL, root: /srv/lake}
            segment-store: file:/srv/segments
            """);
    assertThat(config.storage()).isEqualTo(StorageConfig.local(Path.of("/srv/lake")));
  }

  @Test
  void acceptsNumbersAndBooleansWrittenAsText() {
    ClusterConfig config =
        parse(
            """
            roles: "server, broker"
            broker: {http-port: "9099"}
            storage: {path-style-access: "TRUE", max-retries: "0"}
            cache: {memory: {max-size: 1048576}}
            segment-store: /s
            """);
    assertThat(config.roles()).containsExactly(Role.BROKER, Role.SERVER);
    assertThat(config.ports().brokerHttpPort()).isEqualTo(9099);
    assertThat(config.storage().pathStyleAccess()).isTrue();
    assertThat(config.storage().maxRetries()).isZero();
    assertThat(config.cache().memoryMaxSize()).isEqualTo(DataSize.of(1, DataSize.Unit.MEBIBYTE));
  }

  @Test
  void nullValuesMeanUnset() {
    ClusterConfig config =
        parse(
            """
            roles: [server]
            host:
            storage:
              endpoint: ~
            segment-store: /s
            """);
    assertThat(config.host()).isEqualTo(ClusterConfig.DEFAULT_HOST);
    assertThat(config.storage().endpoint()).isEmpty();
  }

  @Test
  void reportsBadSize() {
    assertViolations(
        """
        roles: [server]
        segment-store: /s
        cache:
          disk:
            max-size: 12 parsecs
        """,
        "Cannot use cache.disk.max-size: \"12 parsecs\" (expected a size such as 512MB or 2GiB)");
  }

  @Test
  void reportsBadChoice() {
    assertViolations(
        """
        roles: [server]
        segment-store: /s
        storage:
          type: gcs
        """,
        "Cannot use storage.type: \"gcs\" (allowed: s3, local)");
    assertViolations(
        """
        roles: [server, janitor]
        segment-store: /s
        """,
        "Cannot use roles: [\"server\",\"janitor\"] (unknown janitor; allowed: controller, broker,"
            + " server, index-builder)");
    assertViolations(
        """
        roles: [server, server]
        segment-store: /s
        """,
        "Cannot use roles: [\"server\",\"server\"] (server is repeated)");
    assertViolations(
        """
        roles: []
        segment-store: /s
        """,
        "Cannot use roles: [] (expected a list of controller, broker, server, index-builder)");
  }

  @Test
  void reportsUnknownKeysWithSuggestions() {
    assertViolations(
        """
        segment-store: /s
        catalog:
          type: rest
          urii: http://127.0.0.1:8181
        """,
        "Missing key catalog.uri (required when catalog.type is rest: the catalog's base URL)",
        "Unknown key catalog.urii (did you mean catalog.uri?)");
    assertViolations(
        """
        roles: [server]
        segment-store: /s
        storage:
          pathStyleAccess: true
        dataDir: /tmp
        """,
        "Unknown key dataDir (did you mean data-dir?)",
        "Unknown key storage.pathStyleAccess (did you mean storage.path-style-access?)");
  }

  @Test
  void reportsUnknownKeysWithoutCloseMatch() {
    assertViolations(
        """
        roles: [server]
        segment-store: /s
        cache:
          memory:
            colour: blue
        """,
        "Unknown key cache.memory.colour (known keys here: cache.memory.max-size)");
    assertViolations(
        """
        roles: [server]
        segment-store: /s
        favourite-food: pizza
        """,
        "Unknown key favourite-food (known keys here: cluster-name, roles, host, broker, server,"
            + " controller, storage, catalog, segment-store, data-dir, cache, security, query,"
            + " zookeeper)");
  }

  @Test
  void reportsMissingKeys() {
    assertViolations(
        "cluster-name: a\n",
        "Missing key catalog.type (a controller reads tables from an Iceberg catalog: jdbc, rest"
            + " or glue)",
        "Missing key segment-store (where segments are kept: s3://bucket/prefix or an absolute"
            + " directory)");
    assertViolations(
        """
        segment-store: /s
        catalog:
          name: lake
        """,
        "Missing key catalog.type (allowed: jdbc, rest, glue)");
    assertViolations(
        """
        segment-store: /s
        catalog:
          type: jdbc
        """,
        "Missing key catalog.uri (required when catalog.type is jdbc, such as"
            + " jdbc:sqlite:/path/catalog.db)",
        "Missing key catalog.warehouse (required when catalog.type is jdbc, such as"
            + " s3://lake/warehouse)");
  }

  @Test
  void reportsWrongTypes() {
    assertViolations(
        """
        roles: [server]
        segment-store: /s
        broker:
          http-port: [1, 2]
        storage: s3
        host: {name: a}
        cache:
          disk:
            directory: [a]
        """,
        "Cannot use host: {\"name\":\"a\"} (expected a host name or address such as 127.0.0.1)",
        "Cannot use broker.http-port: [1,2] (expected an integer from 1 to 65535)",
        "Cannot use storage: \"s3\" (expected a section of keys, not a single value)",
        "Cannot use cache.disk.directory: [\"a\"] (expected a directory)");
    assertViolations(
        """
        roles: [server]
        segment-store: /s
        storage:
          path-style-access: yes please
          request-timeout: 30
        """,
        "Cannot use storage.path-style-access: \"yes please\" (expected true or false)",
        "Cannot use storage.request-timeout: 30 (expected a duration such as 250ms, 30s, 5m or"
            + " 1h)");
  }

  @Test
  void reportsOutOfRangeNumbers() {
    assertViolations(
        """
        roles: [server]
        segment-store: /s
        broker: {http-port: 70000}
        server: {rpc-port: 0}
        controller: {http-port: -1}
        storage:
          max-connections: 0
          max-retries: 101
          request-timeout: 0s
        """,
        "Cannot use broker.http-port: 70000 (expected an integer from 1 to 65535)",
        "Cannot use server.rpc-port: 0 (expected an integer from 1 to 65535)",
        "Cannot use controller.http-port: -1 (expected an integer from 1 to 65535)",
        "Cannot use storage.max-connections: 0 (expected an integer from 1 to 10000)",
        "Cannot use storage.request-timeout: \"0s\" (expected at least 1ms)",
        "Cannot use storage.max-retries: 101 (expected an integer from 0 to 100)");
    assertViolations(
        """
        roles: [server]
        segment-store: /s
        broker: {http-port: 99999999999999999999999}
        """,
        "Cannot use broker.http-port: 99999999999999999999999 (expected an integer from 1 to"
            + " 65535)");
  }

  @Test
  void reportsCredentialsGivenHalfway() {
    assertViolations(
        """
        roles: [server]
        segment-store: /s
        storage:
          access-key-id: AKIAEXAMPLE
        """,
        "Cannot use storage.access-key-id without storage.secret-access-key (set both, or"
            + " neither to use the AWS default credentials chain)");
    assertViolations(
        """
        roles: [server]
        segment-store: /s
        storage:
          secret-access-key: very-secret
        """,
        "Cannot use storage.secret-access-key without storage.access-key-id (set both, or"
            + " neither to use the AWS default credentials chain)");
  }

  @Test
  void neverShowsSecrets() {
    ConfigException e =
        fail(
            """
            roles: [controller]
            segment-store: /s
            storage:
              secret-access-key: [very-secret]
            catalog:
              type: rest
              uri: http://c
              properties:
                token: {nested: hunter2}
            """);
    assertThat(e.getMessage()).doesNotContain("very-secret").doesNotContain("hunter2");
    assertThat(e.violations())
        .extracting(Violation::message)
        .contains(
            "Cannot use storage.secret-access-key: \"****\" (expected a secret access key; set"
                + " it in the file or in SHELFMARK_STORAGE_SECRET_ACCESS_KEY)",
            "Cannot use catalog.properties.token: \"****\" (expected a single value)");
  }

  /**
   * An empty secret is what a config left for its variable looks like when the variable is unset:
   * it is shown as empty (not masked, which suggests a value) with the variable named, and an empty
   * catalog password is refused here rather than when the node authenticates at start.
   */
  @Test
  void emptySecretsNameTheirVariable() {
    ConfigException e =
        fail(
            """
            roles: [controller]
            segment-store: /s
            storage:
              endpoint: http://127.0.0.1:9000
              access-key-id: shelfmark
              secret-access-key: ""
            catalog:
              type: jdbc
              uri: jdbc:postgresql://db/iceberg
              warehouse: s3://lake/warehouse
              properties:
                jdbc.user: iceberg
                jdbc.password: ""
            """);
    assertThat(e.violations())
        .extracting(Violation::message)
        .contains(
            "Cannot use storage.secret-access-key: \"\" (empty) (expected a secret access key;"
                + " set it in the file or in SHELFMARK_STORAGE_SECRET_ACCESS_KEY)",
            "Cannot use catalog.properties.jdbc.password: \"\" (empty) (a secret must not be"
                + " empty: set SHELFMARK_CATALOG_PROPERTIES_JDBC_PASSWORD, or remove the key if"
                + " nothing needs it)");
  }

  @Test
  void reportsStorageRulesByType() {
    assertViolations(
        """
        roles: [server]
        segment-store: /s
        storage:
          type: local
          endpoint: http://127.0.0.1:9000
        """,
        "Missing key storage.root (required when storage.type is local: the directory holding the"
            + " data)",
        "Cannot use storage.endpoint: \"http://127.0.0.1:9000\" (only for storage.type s3; remove it"
            + " or set storage.type: s3)");
    assertViolations(
        """
        roles: [server]
        segment-store: /s
        storage:
          root: /srv/lake
          endpoint: localhost:9000
        """,
        "Cannot use storage.endpoint: \"localhost:9000\" (expected an http:// or https:// URL such"
            + " as http://127.0.0.1:9000)",
        "Cannot use storage.root: \"/srv/lake\" (only for storage.type local; remove it or set"
            + " storage.type: local)");
  }

  @Test
  void reportsCatalogRulesByType() {
    assertViolations(
        """
        segment-store: /s
        catalog:
          type: jdbc
          uri: postgresql://db/lake
          warehouse: s3://lake/warehouse
        """,
        "Cannot use catalog.uri: \"postgresql://db/lake\" (expected a JDBC URL such as"
            + " jdbc:sqlite:/path/catalog.db)");
    assertViolations(
        """
        segment-store: /s
        catalog:
          type: rest
          uri: jdbc:sqlite:/x
        """,
        "Cannot use catalog.uri: \"jdbc:sqlite:/x\" (expected an http:// or https:// URL)");
    assertViolations(
        """
        segment-store: /s
        catalog:
          type: glue
          uri: http://glue
        """,
        "Cannot use catalog.uri: \"http://glue\" (not used when catalog.type is glue; remove it)");
    assertViolations(
        """
        segment-store: /s
        catalog: jdbc
        """,
        "Cannot use catalog: \"jdbc\" (expected a section of keys, not a single value)");
  }

  @Test
  void reportsBadNamesAndLocations() {
    assertViolations(
        """
        cluster-name: "-prod"
        roles: [server]
        segment-store: segments/here
        data-dir: ""
        """,
        "Cannot use cluster-name: \"-prod\" (letters, digits, '.', '_' and '-', starting with a"
            + " letter or digit, at most 63)",
        "Cannot use segment-store: \"segments/here\" (expected s3://bucket/prefix or an absolute"
            + " directory)",
        "Cannot use data-dir: \"\" (expected a directory)");
    assertViolations(
        """
        roles: [server]
        segment-store: s3:///prefix
        """,
        "Cannot use segment-store: \"s3:///prefix\" (expected s3://bucket/prefix or an absolute"
            + " directory)");
  }

  @Test
  void reportsEveryViolationPrefixedBySource() {
    ConfigException e =
        fail(
            """
            roles: [server]
            storage:
              type: gcs
            cache:
              disk:
                max-size: 12 parsecs
            catalog:
              urii: x
            """);
    assertThat(e.source()).isEqualTo("cluster.yaml");
    assertThat(e.getMessage())
        .isEqualTo(
            """
            cluster.yaml: Cannot use storage.type: "gcs" (allowed: s3, local)
            cluster.yaml: Missing key catalog.type (allowed: jdbc, rest, glue)
            cluster.yaml: Missing key segment-store (where segments are kept: s3://bucket/prefix\
             or an absolute directory)
            cluster.yaml: Cannot use cache.disk.max-size: "12 parsecs" (expected a size such as\
             512MB or 2GiB)
            cluster.yaml: Unknown key catalog.urii (did you mean catalog.uri?)""");
    assertThat(e.violations())
        .extracting(Violation::key)
        .containsExactly(
            "storage.type", "catalog.type", "segment-store", "cache.disk.max-size", "catalog.urii");
  }

  @Test
  void reportsYamlSyntaxWithLineAndColumn() {
    ConfigException e =
        fail(
            """
            roles: [server]
            storage:
              type: s3
             region: x
            """);
    assertThat(e.violations()).hasSize(1);
    assertThat(e.getMessage())
        .startsWith("cluster.yaml: Cannot parse YAML at line 4, column 2: ")
        .endsWith(" (fix the syntax there)")
        .doesNotContain("com.fasterxml")
        .doesNotContain("\n");
  }

  @Test
  void reportsJsonSyntaxWithLineAndColumn() {
    ConfigException e =
        catchThrowableOfType(
            ConfigException.class,
            () ->
                LOADER.parseCluster(
                    "{\n  \"roles\": [\"server\"],\n  \"host\": }\n",
                    ConfigFormat.JSON,
                    "cluster.json"));
    assertThat(e.getMessage())
        .startsWith("cluster.json: Cannot parse JSON at line 3, column 11: Unexpected character")
        .endsWith(" (fix the syntax there)")
        .doesNotContain("\n");
  }

  @Test
  void reportsDuplicateKeys() {
    assertThat(
            fail("""
                    roles: [server]
                    host: a
                    host: b
                    """)
                .getMessage())
        .startsWith("cluster.yaml: Cannot parse YAML at line 3, column ")
        .contains("Duplicate field 'host'");
  }

  @Test
  void reportsTopLevelThatIsNotAMapping() {
    assertViolations(
        "- a\n- b\n",
        "Cannot use the top level: [\"a\",\"b\"] (expected keys and values, such as cluster-name:"
            + " prod)");
  }

  @Test
  void reportsUnreadableFiles() throws Exception {
    Path missing = directory.resolve("missing.yaml");
    assertThatThrownBy(() -> LOADER.loadCluster(missing))
        .isInstanceOf(ConfigException.class)
        .hasMessage(missing + ": Cannot read the file: no such file (check the path)");
    Path text = write("cluster.txt", "roles: [server]\n");
    assertThatThrownBy(() -> LOADER.loadCluster(text))
        .hasMessage(
            text + ": Cannot read the file: unknown file type (name it .yaml, .yml or .json)");
    Path latin1 = directory.resolve("latin1.yml");
    Files.write(latin1, new byte[] {'h', 'o', 's', 't', ':', ' ', (byte) 0xE9, '\n'});
    assertThatThrownBy(() -> LOADER.loadCluster(latin1))
        .hasMessage(latin1 + ": Cannot read the file: not UTF-8 text (save it as UTF-8)");
  }

  @Test
  void emptyFileIsAllDefaults() throws Exception {
    assertThatThrownBy(() -> LOADER.loadCluster(write("empty.yaml", "")))
        .hasMessageContaining("Missing key segment-store");
  }

  @Test
  void segmentModeDefaultsToPinnedAndAcceptsRemote() {
    assertThat(parse("roles: [server]\nsegment-store: /s\n").segmentMode())
        .isEqualTo(SegmentMode.PINNED);
    assertThat(
            parse("roles: [server]\nsegment-store: /s\nserver:\n  segment-mode: remote\n")
                .segmentMode())
        .isEqualTo(SegmentMode.REMOTE);
    assertThat(fail("roles: [server]\nsegment-store: /s\nserver:\n  segment-mode: cloud\n"))
        .hasMessageContaining("server.segment-mode")
        .hasMessageContaining("cloud")
        .hasMessageContaining("pinned, remote");
  }

  @Test
  void warmupRoundsZeroTurnsItOffAndBadValuesAreNamed() {
    assertThat(
            parse("segment-store: /s\nroles: [server]\nserver:\n  warmup:\n    rounds: 0\n")
                .warmup()
                .enabled())
        .isFalse();
    assertThat(fail("segment-store: /s\nroles: [server]\nserver:\n  warmup:\n    rounds: -1\n"))
        .hasMessageContaining("server.warmup.rounds");
    assertThat(
            fail(
                "segment-store: /s\nroles: [server]\nserver:\n  warmup:\n    max-duration: 10ms\n"))
        .hasMessageContaining("server.warmup.max-duration");
  }

  @Test
  void queryLanesAndLimitsBindAndBadValuesAreNamedByKeyPath() {
    QueryConfig query =
        parse(
                """
                segment-store: /s
                roles: [server]
                query:
                  heavy: {max-running: 3, max-queued: 7}
                  cheap: {max-running: 20, max-queued: 40, max-rows: 5000}
                  max-groups: 1000
                  max-distinct-values: 2000
                  max-rows: 300
                  max-in-list-items: 400
                """)
            .query();
    assertThat(query).isEqualTo(new QueryConfig(3, 7, 20, 40, 5000, 1000, 2000, 300, 400));
    assertThat(parse("segment-store: /s\nroles: [server]\n").query())
        .isEqualTo(QueryConfig.defaults());
    assertThat(fail("segment-store: /s\nroles: [server]\nquery:\n  heavy:\n    max-running: 0\n"))
        .hasMessageContaining("query.heavy.max-running");
    assertThat(fail("segment-store: /s\nroles: [server]\nquery:\n  max-in-list-items: 0\n"))
        .hasMessageContaining("query.max-in-list-items");
  }

  private Path write(String name, String text) throws Exception {
    return Files.writeString(directory.resolve(name), text, StandardCharsets.UTF_8);
  }

  private static ClusterConfig parse(String yaml) {
    return LOADER.parseCluster(yaml, ConfigFormat.YAML, "cluster.yaml");
  }

  private static ConfigException fail(String yaml) {
    try {
      parse(yaml);
    } catch (ConfigException e) {
      return e;
    }
    throw new AssertionError("Expected a ConfigException for:\n" + yaml);
  }

  @Test
  void nonLoopbackHostIsRefusedWithoutTheExplicitOverride() {
    // Issue 21 finding 6: no authentication exists, so binding beyond loopback must be a choice.
    assertViolations(
        """
        segment-store: /s
        roles: [server]
        host: 0.0.0.0
        broker:
          sql:
            max-expression-depth: 5000
          http:
            max-connections: 10
            max-connections-per-client: 20
        """,
        "Cannot use broker.http.max-connections-per-client: 20 (expected at most"
            + " broker.http.max-connections, 10)",
        "Cannot use broker.sql.max-expression-depth: 5000 (expected an integer from 1 to 1000)",
        "Cannot use host: \"0.0.0.0\" (" + ClusterConfig.REMOTE_BIND_HINT + ")");
  }

  @Test
  void nonLoopbackHostIsAcceptedWithTheOverride() throws Exception {
    ClusterConfig config =
        LOADER.loadCluster(
            write(
                "cluster.yaml",
                """
                segment-store: /s
                roles: [server]
                host: 0.0.0.0
                broker:
                  allow-unauthenticated-remote-access: true
                """));
    assertThat(config.host()).isEqualTo("0.0.0.0");
    assertThat(config.allowUnauthenticatedRemoteAccess()).isTrue();
  }

  @Test
  void loopbackHostsNeedNoOverride() {
    for (String host : List.of("127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]")) {
      assertThat(ClusterConfig.isLoopback(host)).as(host).isTrue();
    }
    for (String host : List.of("0.0.0.0", "::", "10.0.0.5", "example.com", "127.0.0.1.nip.io")) {
      assertThat(ClusterConfig.isLoopback(host)).as(host).isFalse();
    }
  }

  @Test
  void zookeeperIsEmbeddedByDefaultOrAnEnsemble() {
    ClusterConfig embedded =
        ConfigLoader.withoutEnvironment()
            .parseCluster("roles: [server]\nsegment-store: /s\n", ConfigFormat.YAML, "c.yaml");
    assertThat(embedded.zookeeper()).isEqualTo(ZooKeeperConfig.embedded());
    ClusterConfig ensemble =
        ConfigLoader.withoutEnvironment()
            .parseCluster(
                """
                roles: [server]
                segment-store: /s
                zookeeper:
                  connect: zk1:2181,zk2.example.com:2182
                  session-timeout: 30s
                  connection-timeout: 2s
                """,
                ConfigFormat.YAML,
                "c.yaml");
    assertThat(ensemble.zookeeper())
        .isEqualTo(
            new ZooKeeperConfig(
                Optional.of("zk1:2181,zk2.example.com:2182"),
                0,
                Duration.ofSeconds(30),
                Duration.ofSeconds(2)));
    ClusterConfig fixedPort =
        ConfigLoader.withoutEnvironment()
            .parseCluster(
                "roles: [server]\nsegment-store: /s\nzookeeper:\n  connect: embedded\n  port: 2181\n",
                ConfigFormat.YAML,
                "c.yaml");
    assertThat(fixedPort.zookeeper().port()).isEqualTo(2181);
    assertThat(fixedPort.zookeeper().isEmbedded()).isTrue();
  }

  @Test
  void zookeeperViolationsNameTheirKeys() {
    assertViolations(
        """
        roles: [server]
        segment-store: /s
        zookeeper:
          connect: zk1
          port: 70000
          session-timeout: 1s
          connection-timeout: soon
          chroot: /x
        """,
        "Cannot use zookeeper.connect: \"zk1\" (expected embedded, or host:port entries separated"
            + " by commas such as zk1:2181,zk2:2181)",
        "Cannot use zookeeper.port: 70000 (expected an integer from 0 to 65535)",
        "Cannot use zookeeper.session-timeout: \"1s\" (expected at least 2s)",
        "Cannot use zookeeper.connection-timeout: \"soon\" (expected a duration such as 250ms, 30s,"
            + " 5m or 1h)",
        "Unknown key zookeeper.chroot (known keys here: zookeeper.connect, zookeeper.port,"
            + " zookeeper.session-timeout, zookeeper.connection-timeout)");
    assertViolations(
        """
        roles: [server]
        segment-store: /s
        zookeeper:
          connect: zk1:2181
          port: 2181
          session-timeout: 1h
        """,
        "Cannot use zookeeper.port: 2181 (only for the embedded server, zookeeper.connect:"
            + " embedded; an ensemble's ports are in zookeeper.connect)",
        "Cannot use zookeeper.session-timeout: \"1h\" (expected at most 10m)");
  }

  private static void assertViolations(String yaml, String... expected) {
    ConfigException e = fail(yaml);
    assertThat(e.violations()).extracting(Violation::message).containsExactly(expected);
    assertThat(e.getMessage().lines().toList())
        .isEqualTo(List.of(expected).stream().map(message -> "cluster.yaml: " + message).toList());
  }
}
