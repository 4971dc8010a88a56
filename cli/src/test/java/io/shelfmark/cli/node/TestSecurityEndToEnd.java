package io.shelfmark.cli.node;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.client.BrokerClientException;
import io.shelfmark.cli.client.BrokerCredentials;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.config.ConfigFormat;
import io.shelfmark.config.ConfigWriter;
import io.shelfmark.config.cluster.SegmentMode;
import io.shelfmark.config.cluster.WarmupConfig;
import io.shelfmark.config.security.PasswordHash;
import io.shelfmark.config.security.SecurityConfig;
import io.shelfmark.config.security.TablePattern;
import io.shelfmark.config.security.TlsConfig;
import io.shelfmark.config.security.TokenHash;
import io.shelfmark.config.security.UserConfig;
import io.shelfmark.config.security.UserRole;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.testing.iceberg.IcebergScenario;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLHandshakeException;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node with users, roles, per-table permissions and TLS, over the embedded lake, spoken to over
 * HTTPS by java.net.http and by the CLI's client: what each caller may do, and what the others get
 * (401 with a challenge, 403, or a table that looks absent).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestSecurityEndToEnd {
  private static final String ADMIN_PASSWORD = "admin-password-1";
  private static final String ANALYST_PASSWORD = "analyst-password-1";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int TEST_ITERATIONS = PasswordHash.MIN_ITERATIONS;

  @TempDir static Path directory;
  private LocalLake lake;
  private AllInOne node;
  private String token;
  private Path certificate;
  private HttpClient https;

  @BeforeAll
  void start() throws Exception {
    lake = LocalLake.start(directory.resolve("lake"), 0);
    if (lake.catalog() instanceof SupportsNamespaces namespaces) {
      namespaces.createNamespace(Namespace.of("evo"));
      namespaces.createNamespace(Namespace.of("secret"));
    }
    scenario("evo", "events").append(40);
    scenario("secret", "payroll").append(20);
    certificate = directory.resolve("broker-cert.pem");
    Path key = directory.resolve("broker-key.pem");
    selfSignedCertificate(certificate, key);
    token = TokenHash.newToken();
    SecurityConfig security =
        new SecurityConfig(
            List.of(
                user("admin", ADMIN_PASSWORD, UserRole.ADMIN, TablePattern.ALL),
                user("analyst", ANALYST_PASSWORD, UserRole.QUERY, new TablePattern("evo.*")),
                new UserConfig(
                    "grafana",
                    Optional.empty(),
                    Optional.of(TokenHash.of(token)),
                    EnumSet.of(UserRole.QUERY),
                    List.of(TablePattern.ALL))),
            Optional.of(new TlsConfig(certificate, key, Optional.empty())));
    Path nodeDir = directory.resolve("node");
    node =
        TestingNodes.start(
            lake,
            TestingNodes.config(lake, nodeDir)
                .segmentMode(SegmentMode.REMOTE)
                // One round: enough to show the warm-up gets through authentication and TLS.
                .warmup(new WarmupConfig(1, Duration.ofSeconds(10)))
                .security(security)
                .build());
    https =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .sslContext(BrokerClient.trusting(certificate))
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    // Onboarding over HTTPS as the admin: the admin role's own path.
    BrokerClient admin = client(new BrokerCredentials.Basic("admin", ADMIN_PASSWORD));
    for (String table : List.of("events", "payroll")) {
      String namespace = table.equals("events") ? "evo" : "secret";
      JsonNode status = admin.onboard(tableConfig(namespace, table));
      assertThat(status.path("name").asText()).isEqualTo(namespace + "." + table);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  node.registry().table(namespace + "." + table).orElseThrow().segmentsPending()
                      == 0);
    }
  }

  @AfterAll
  void stop() throws Exception {
    if (node != null) {
      node.close();
    }
    if (lake != null) {
      lake.close();
    }
  }

  @Test
  void flightSqlJdbcReadsOnlyTheUsersTablesOverTls() throws Exception {
    assertThat(node.jdbcUrl()).endsWith("/?useEncryption=true");
    try (java.sql.Connection analyst =
        java.sql.DriverManager.getConnection(
            jdbcUrl() + "&user=analyst&password=" + ANALYST_PASSWORD)) {
      try (java.sql.ResultSet rows =
          analyst.createStatement().executeQuery("SELECT COUNT(*) FROM evo.events")) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getLong(1)).isEqualTo(40);
      }
      // A table the user may not read answers as one that does not exist, as over HTTP.
      assertThatThrownBy(
              () -> analyst.createStatement().executeQuery("SELECT COUNT(*) FROM secret.payroll"))
          .isInstanceOf(java.sql.SQLException.class)
          .hasMessageContaining("Cannot resolve table")
          .hasMessageContaining("190 UNKNOWN_TABLE");
      List<String> tables = new java.util.ArrayList<>();
      try (java.sql.ResultSet rows = analyst.getMetaData().getTables(null, null, "%", null)) {
        while (rows.next()) {
          tables.add(rows.getString("TABLE_SCHEM") + "." + rows.getString("TABLE_NAME"));
        }
      }
      assertThat(tables).containsExactly("evo.events");
    }
  }

  @Test
  void flightSqlJdbcAcceptsABearerToken() throws Exception {
    try (java.sql.Connection grafana =
            java.sql.DriverManager.getConnection(jdbcUrl() + "&token=" + token);
        java.sql.ResultSet rows =
            grafana.createStatement().executeQuery("SELECT COUNT(*) FROM secret.payroll")) {
      assertThat(rows.next()).isTrue();
      assertThat(rows.getLong(1)).isEqualTo(20);
    }
  }

  @Test
  void flightSqlRefusesWrongOrMissingCredentials() {
    assertThatThrownBy(
            () -> {
              try (java.sql.Connection connection =
                  java.sql.DriverManager.getConnection(
                      jdbcUrl() + "&user=analyst&password=wrong-password")) {
                connection.createStatement().executeQuery("SELECT COUNT(*) FROM evo.events");
              }
            })
        .isInstanceOf(java.sql.SQLException.class)
        .hasStackTraceContaining("unknown user or wrong password");
    assertThatThrownBy(
            () -> {
              try (java.sql.Connection connection =
                  java.sql.DriverManager.getConnection(jdbcUrl())) {
                connection.createStatement().executeQuery("SELECT COUNT(*) FROM evo.events");
              }
            })
        .isInstanceOf(java.sql.SQLException.class)
        .hasStackTraceContaining("without credentials");
  }

  /** The node's JDBC URL trusting its self-signed certificate. */
  private String jdbcUrl() {
    return node.jdbcUrl() + "&tlsRootCerts=" + certificate.toAbsolutePath();
  }

  @Test
  void servesHttpsAndHealthWithoutCredentials() throws Exception {
    assertThat(node.url()).startsWith("https://127.0.0.1:");
    HttpResponse<String> health = get("/health", Optional.empty());
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.body()).contains("\"status\":\"OK\"");
  }

  @Test
  void plainClientsWithoutTheCertificateAreRefusedByTls() {
    HttpClient untrusting = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    assertThatThrownBy(
            () ->
                untrusting.send(
                    HttpRequest.newBuilder(URI.create(node.url() + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(SSLHandshakeException.class);
  }

  @Test
  void missingCredentialsAnswer401WithAChallenge() throws Exception {
    for (String path : List.of("/tables", "/tables/evo.events", "/nowhere")) {
      HttpResponse<String> response = get(path, Optional.empty());
      assertThat(response.statusCode()).as(path).isEqualTo(401);
      assertThat(response.headers().allValues("WWW-Authenticate"))
          .anySatisfy(value -> assertThat(value).startsWith("Basic realm=\"shelfmark\""))
          .anySatisfy(value -> assertThat(value).startsWith("Bearer realm=\"shelfmark\""));
      assertThat(JSON.readTree(response.body()).path("error").asText())
          .startsWith("Cannot serve this request without credentials");
    }
    HttpResponse<String> query = postQuery("SELECT COUNT(*) FROM evo.events", Optional.empty());
    assertThat(query.statusCode()).isEqualTo(401);
  }

  @Test
  void wrongPasswordOrTokenAnswers401WithoutEchoingThem() throws Exception {
    for (String header :
        List.of(
            basic("analyst", "not-the-password"),
            basic("nobody", ANALYST_PASSWORD),
            "Bearer wrong-token-0123456789abcdefghijklmnopqrstuvwxyz",
            "Digest whatever")) {
      HttpResponse<String> response = get("/tables", Optional.of(header));
      assertThat(response.statusCode()).as(header).isEqualTo(401);
      assertThat(response.body())
          .doesNotContain("not-the-password")
          .doesNotContain(ANALYST_PASSWORD)
          .doesNotContain("wrong-token")
          .doesNotContain("nobody");
    }
    assertThat(get("/tables", Optional.of(basic("nobody", "x"))).body())
        .isEqualTo(get("/tables", Optional.of(basic("analyst", "x"))).body())
        .contains("unknown user or wrong password");
  }

  @Test
  void queryRoleQueriesButCannotOnboard() throws Exception {
    BrokerClient analyst = client(new BrokerCredentials.Basic("analyst", ANALYST_PASSWORD));
    JsonNode answer = analyst.query("SELECT COUNT(*) FROM evo.events", Optional.empty());
    assertThat(answer.path("exceptions")).isEmpty();
    assertThat(answer.path("resultTable").path("rows").get(0).get(0).asLong()).isEqualTo(40);

    HttpResponse<String> onboard =
        https.send(
            HttpRequest.newBuilder(URI.create(node.url() + "/tables"))
                .header("Authorization", basic("analyst", ANALYST_PASSWORD))
                .POST(HttpRequest.BodyPublishers.ofString(tableConfig("evo", "events")))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(onboard.statusCode()).isEqualTo(403);
    JsonNode body = JSON.readTree(onboard.body());
    assertThat(body.path("error").asText())
        .startsWith("Cannot onboard a table: user analyst does not have the admin role");
    assertThat(body.path("requiredRole").asText()).isEqualTo("admin");
    assertThatThrownBy(() -> analyst.onboard(tableConfig("evo", "events")))
        .isInstanceOf(BrokerClientException.class)
        .hasMessageContaining("HTTP 403");
  }

  @Test
  void aDeniedTableLooksLikeAnUnknownOne() throws Exception {
    BrokerClient analyst = client(new BrokerCredentials.Basic("analyst", ANALYST_PASSWORD));
    JsonNode denied = analyst.query("SELECT COUNT(*) FROM secret.payroll", Optional.empty());
    JsonNode unknown = analyst.query("SELECT COUNT(*) FROM secret.nothing", Optional.empty());
    JsonNode deniedError = denied.path("exceptions").get(0);
    JsonNode unknownError = unknown.path("exceptions").get(0);
    assertThat(deniedError.path("errorCode").asInt())
        .isEqualTo(unknownError.path("errorCode").asInt());
    assertThat(deniedError.path("message").asText())
        .isEqualTo(unknownError.path("message").asText().replace("nothing", "payroll"))
        .contains("known tables: evo.events")
        .doesNotContain("secret.payroll,")
        .doesNotContain("secret.payroll)");
    // A column or type error on a denied table must not tell that it exists, nor list its columns.
    JsonNode typed =
        analyst.query("SELECT id FROM secret.payroll WHERE category > 5", Optional.empty());
    assertThat(typed.path("exceptions").get(0).path("message").asText())
        .contains("resolve table 'secret.payroll'")
        .doesNotContain("category");
    // A column error on a denied table must not list its columns either.
    JsonNode column = analyst.query("SELECT nope FROM secret.payroll", Optional.empty());
    assertThat(column.path("exceptions").get(0).path("message").asText())
        .contains("resolve table 'secret.payroll'")
        .doesNotContain("category");

    assertThat(analyst.tables())
        .extracting(table -> table.path("name").asText())
        .containsExactly("evo.events");
    assertThat(analyst.table("secret.payroll")).isEmpty();
    assertThat(analyst.table("evo.events")).isPresent();
  }

  @Test
  void adminAndBearerTokenReadEveryTable() {
    BrokerClient admin = client(new BrokerCredentials.Basic("admin", ADMIN_PASSWORD));
    assertThat(admin.tables())
        .extracting(table -> table.path("name").asText())
        .containsExactly("evo.events", "secret.payroll");
    BrokerClient grafana = client(new BrokerCredentials.Bearer(token));
    JsonNode answer = grafana.query("SELECT COUNT(*) FROM secret.payroll", Optional.empty());
    assertThat(answer.path("exceptions")).isEmpty();
    assertThat(answer.path("resultTable").path("rows").get(0).get(0).asLong()).isEqualTo(20);
  }

  @Test
  void cliClientWithoutCredentialsSaysHowToLogIn() {
    BrokerClient anonymous = client(BrokerCredentials.NONE);
    assertThatThrownBy(anonymous::tables)
        .isInstanceOf(BrokerClientException.class)
        .hasMessageContaining("HTTP 401")
        .hasMessageContaining("--user");
  }

  @Test
  void warmUpQueriedThroughAuthenticationAndTls() {
    await().atMost(Duration.ofSeconds(60)).until(() -> node.warmupSummary().isPresent());
    assertThat(node.warmupSummary().get().failed()).isZero();
  }

  private BrokerClient client(BrokerCredentials credentials) {
    return new BrokerClient(
        node.url(), credentials, Optional.of(BrokerClient.trusting(certificate)));
  }

  private HttpResponse<String> get(String path, Optional<String> authorization)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.url() + path)).GET();
    authorization.ifPresent(value -> request.header("Authorization", value));
    return https.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> postQuery(String sql, Optional<String> authorization)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(node.url() + "/query/sql"))
            .header("Content-Type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    JSON.createObjectNode().put("sql", sql).toString()));
    authorization.ifPresent(value -> request.header("Authorization", value));
    return https.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String basic(String user, String password) {
    return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(UTF_8));
  }

  private static UserConfig user(String name, String password, UserRole role, TablePattern tables) {
    return new UserConfig(
        name,
        Optional.of(PasswordHash.create(password.toCharArray(), TEST_ITERATIONS)),
        Optional.empty(),
        EnumSet.of(role),
        List.of(tables));
  }

  private IcebergScenario scenario(String namespace, String name) {
    return IcebergScenario.create(
        lake.catalog(),
        TableIdentifier.of(namespace, name),
        IcebergScenario.SCHEMA,
        IcebergScenario.spec(IcebergScenario.SCHEMA),
        2,
        IcebergScenario.s3Files(lake.s3().baseDirectory()),
        42);
  }

  private static String tableConfig(String namespace, String name) {
    return ConfigWriter.write(
        TableConfig.builder(new TableIdentity(LocalLake.CATALOG_NAME, namespace, name))
            .column("category", ColumnConfig.of(IndexKind.INVERTED))
            .column("id", ColumnConfig.of(IndexKind.RANGE))
            .build(),
        ConfigFormat.YAML);
  }

  /**
   * A self-signed certificate for 127.0.0.1 made by the JDK's keytool, written as PEM files: the
   * certificate, and the key in PKCS#8 as netty reads it.
   */
  private void selfSignedCertificate(Path certificateFile, Path keyFile) throws Exception {
    Path store = directory.resolve("broker.p12");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    Process process =
        new ProcessBuilder(
                keytool,
                "-genkeypair",
                "-alias",
                "broker",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=localhost",
                "-ext",
                "SAN=ip:127.0.0.1,dns:localhost",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                "changeit",
                "-keypass",
                "changeit")
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    KeyStore keyStore = KeyStore.getInstance("PKCS12");
    try (var in = Files.newInputStream(store)) {
      keyStore.load(in, "changeit".toCharArray());
    }
    PrivateKey key = (PrivateKey) keyStore.getKey("broker", "changeit".toCharArray());
    Certificate certificate = keyStore.getCertificate("broker");
    Files.writeString(certificateFile, pem("CERTIFICATE", certificate.getEncoded()));
    Files.writeString(keyFile, pem("PRIVATE KEY", key.getEncoded()));
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(UTF_8)).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }
}
