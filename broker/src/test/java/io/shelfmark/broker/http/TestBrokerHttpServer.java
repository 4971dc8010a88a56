package io.shelfmark.broker.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.broker.query.QueryRequest;
import io.shelfmark.broker.query.RefusingQueryService;
import io.shelfmark.broker.table.TableAdminException;
import io.shelfmark.broker.table.TableDirectory;
import io.shelfmark.broker.table.TableSchema;
import io.shelfmark.broker.table.TableStatus;
import io.shelfmark.sql.schema.Column;
import io.shelfmark.sql.type.MapType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.UnsupportedType;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TestBrokerHttpServer {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TableStatus METRICS =
      new TableStatus(
          "obs.metrics",
          TableStatus.SERVING,
          42L,
          3,
          1000,
          123_456,
          0,
          0,
          0,
          0,
          0,
          0,
          "done",
          List.of());

  private static final TableSchema SCHEMA =
      new TableSchema(
          "obs.metrics",
          List.of(
              new Column("ts", PrimitiveType.TIMESTAMP_TZ, false),
              new Column("host", PrimitiveType.STRING, true),
              new Column("value", PrimitiveType.DOUBLE, true),
              new Column("tags", new MapType(PrimitiveType.STRING, PrimitiveType.STRING), true),
              new Column("odd", new UnsupportedType("struct"), true)),
          Optional.of("ts"));

  private final AtomicBoolean ready = new AtomicBoolean(true);
  private final ExecutorService executor = Executors.newFixedThreadPool(2);
  private final AtomicReference<QueryRequest> lastRequest = new AtomicReference<>();
  private final AtomicReference<String> lastOnboarded = new AtomicReference<>();
  private final HttpClient client = HttpClient.newHttpClient();
  private BrokerHttpServer server;
  private String base;

  @BeforeEach
  void start() throws IOException {
    server =
        new BrokerHttpServer(
            new BrokerRoutes(
                request -> {
                  lastRequest.set(request);
                  return new RefusingQueryService().execute(request);
                },
                new TableDirectory() {
                  @Override
                  public List<TableStatus> tables() {
                    return List.of(METRICS);
                  }

                  @Override
                  public Optional<TableSchema> schema(String name) {
                    return name.equals("obs.metrics") ? Optional.of(SCHEMA) : Optional.empty();
                  }
                },
                Optional.of(this::onboard),
                List.of("controller", "broker"),
                ready::get,
                Duration.ofSeconds(7)));
    int port = server.start("127.0.0.1", 0, executor);
    base = "http://127.0.0.1:" + port;
  }

  @AfterEach
  void stop() {
    server.close();
    executor.shutdownNow();
  }

  @Test
  void healthReportsRolesAndReadiness() throws Exception {
    HttpResponse<String> response = get("/health");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(response.body()).get("status").asText()).isEqualTo("OK");
    assertThat(JSON.readTree(response.body()).get("roles").get(1).asText()).isEqualTo("broker");

    ready.set(false);
    HttpResponse<String> starting = get("/health");
    assertThat(starting.statusCode()).isEqualTo(503);
    assertThat(JSON.readTree(starting.body()).get("status").asText()).isEqualTo("STARTING");
  }

  @Test
  void queryIsRefusedInPinotShapeWithoutResultTable() throws Exception {
    HttpResponse<String> response = post("/query/sql", "{\"sql\": \"SELECT COUNT(*) FROM t\"}");
    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode body = JSON.readTree(response.body());
    assertThat(body.has("resultTable")).isFalse();
    assertThat(body.get("exceptions")).hasSize(1);
    assertThat(body.get("exceptions").get(0).get("errorCode").asInt()).isEqualTo(910);
    assertThat(body.get("exceptions").get(0).get("errorType").asText()).isEqualTo("UNSUPPORTED");
    // pinotdb reads these two first and would hide the message if they were missing or unequal.
    assertThat(body.get("numServersQueried").asInt()).isZero();
    assertThat(body.get("numServersResponded").asInt()).isZero();
    assertThat(body.get("partialResult").asBoolean()).isFalse();
    assertThat(body.get("numGroupsLimitReached").asBoolean()).isFalse();
    assertThat(body.get("brokerId").asText()).startsWith("Broker_127.0.0.1_");
    long first = Long.parseLong(body.get("requestId").asText());
    JsonNode next = JSON.readTree(post("/query", "{\"sql\": \"SELECT COUNT(*) FROM t\"}").body());
    assertThat(Long.parseLong(next.get("requestId").asText())).isGreaterThan(first);
    assertThat(body.get("exceptions").get(0).get("message").asText())
        .isEqualTo(RefusingQueryService.MESSAGE);
    for (String field :
        List.of(
            "numDocsScanned",
            "totalDocs",
            "numSegmentsQueried",
            "numSegmentsProcessed",
            "numSegmentsMatched",
            "numSegmentsPrunedByBroker",
            "numSegmentsIndexOnly",
            "numSegmentsStarTree",
            "numPagesFromStatistics",
            "numChunksReadWhole",
            "timeUsedMs",
            "storageBytesRead",
            "storageRequests",
            "cacheHits",
            "cacheMisses",
            "snapshotId")) {
      assertThat(body.has(field)).as(field).isTrue();
    }
  }

  @Test
  void malformedRequestsAreRejectedWith400() throws Exception {
    HttpResponse<String> notJson = post("/query/sql", "SELECT 1");
    assertThat(notJson.statusCode()).isEqualTo(400);
    assertThat(message(notJson)).startsWith("Cannot read query request: body is not valid JSON");

    HttpResponse<String> noSql = post("/query/sql", "{\"query\": \"SELECT 1\"}");
    assertThat(noSql.statusCode()).isEqualTo(400);
    assertThat(message(noSql))
        .startsWith("Cannot read query request: the body must be a JSON object with a non-empty");

    HttpResponse<String> blank = post("/query/sql", "{\"sql\": \"  \"}");
    assertThat(blank.statusCode()).isEqualTo(400);
  }

  @Test
  void wrongMethodAndUnknownPath() throws Exception {
    HttpResponse<String> getQuery = get("/query/sql");
    assertThat(getQuery.statusCode()).isEqualTo(405);
    assertThat(JSON.readTree(getQuery.body()).get("error").asText())
        .isEqualTo("Use POST for /query/sql");

    HttpResponse<String> unknown = get("/nope");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(JSON.readTree(unknown.body()).get("error").asText()).startsWith("Cannot find /nope");

    // Whatever the method, an unknown path is 404: Grafana's plugin falls back only on a 404.
    for (String method : List.of("HEAD", "POST", "DELETE", "PUT")) {
      assertThat(send(method, "/mytables", Map.of()).statusCode()).as(method).isEqualTo(404);
    }
    assertThat(send("DELETE", "/tables/obs.metrics", Map.of()).statusCode()).isEqualTo(405);
    assertThat(send("GET", "/tables/obs.metrics/segments", Map.of()).statusCode()).isEqualTo(404);
  }

  @Test
  void headAnswersAsGetWithoutBody() throws Exception {
    HttpResponse<String> head = send("HEAD", "/tables", Map.of());
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.body()).isEmpty();
    assertThat(send("HEAD", "/tables/obs.other", Map.of()).statusCode()).isEqualTo(404);
  }

  @Test
  void multiStageEndpointAnswersLikeQuerySql() throws Exception {
    HttpResponse<String> response = post("/query", "{\"sql\": \"SELECT COUNT(*) FROM t\"}");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(message(response)).isEqualTo(RefusingQueryService.MESSAGE);
  }

  @Test
  void databaseHeaderReachesTheQueryRequest() throws Exception {
    send("POST", "/query/sql", Map.of("database", "obs"), "{\"sql\": \"SELECT 1\"}");
    assertThat(lastRequest.get().database()).contains("obs");
    send("POST", "/query/sql", Map.of("database", "default"), "{\"sql\": \"SELECT 1\"}");
    assertThat(lastRequest.get().database()).isEmpty();
    post("/query/sql", "{\"sql\": \"SELECT 1\"}");
    assertThat(lastRequest.get().database()).isEmpty();
  }

  @Test
  void tablesAreListedByNameAsPinotDoes() throws Exception {
    assertThat(JSON.readTree(get("/tables").body()).get("tables").get(0).asText())
        .isEqualTo("obs.metrics");
    JsonNode inObs = JSON.readTree(send("GET", "/tables", Map.of("database", "obs")).body());
    assertThat(inObs.get("tables")).hasSize(1);
    JsonNode inOther = JSON.readTree(send("GET", "/tables", Map.of("database", "logs")).body());
    assertThat(inOther.get("tables")).isEmpty();
    assertThat(JSON.readTree(get("/databases").body()).get(0).asText()).isEqualTo("obs");
  }

  @Test
  void schemaListsEveryQueryableColumnInPinotSpecs() throws Exception {
    JsonNode schema = JSON.readTree(get("/tables/obs.metrics/schema").body());
    assertThat(schema.get("schemaName").asText()).isEqualTo("metrics");
    JsonNode time = schema.get("dateTimeFieldSpecs").get(0);
    assertThat(time.get("name").asText()).isEqualTo("ts");
    assertThat(time.get("dataType").asText()).isEqualTo("TIMESTAMP");
    assertThat(time.get("format").asText()).isEqualTo("1:MILLISECONDS:EPOCH");
    assertThat(time.get("granularity").asText()).isEqualTo("1:MILLISECONDS");
    assertThat(schema.get("metricFieldSpecs").get(0).get("name").asText()).isEqualTo("value");
    assertThat(schema.get("metricFieldSpecs").get(0).get("dataType").asText()).isEqualTo("DOUBLE");
    JsonNode dimensions = schema.get("dimensionFieldSpecs");
    assertThat(dimensions).hasSize(2);
    assertThat(dimensions.get(0).get("name").asText()).isEqualTo("host");
    assertThat(dimensions.get(1).get("name").asText()).isEqualTo("tags");
    assertThat(dimensions.get(1).get("dataType").asText()).isEqualTo("MAP");

    // The database header makes the unqualified name pinotdb and Grafana list resolve.
    HttpResponse<String> unqualified =
        send("GET", "/tables/metrics/schema", Map.of("database", "obs"));
    assertThat(unqualified.statusCode()).isEqualTo(200);
    assertThat(unqualified.body()).isEqualTo(get("/tables/obs.metrics/schema").body());
    assertThat(get("/tables/metrics/schema").statusCode()).isEqualTo(404);
  }

  @Test
  void tableConfigAndMetadataInPinotShape() throws Exception {
    JsonNode config = JSON.readTree(get("/tables/obs.metrics").body()).get("OFFLINE");
    assertThat(config.get("tableName").asText()).isEqualTo("obs.metrics_OFFLINE");
    assertThat(config.get("tableType").asText()).isEqualTo("OFFLINE");
    assertThat(config.get("segmentsConfig").get("timeColumnName").asText()).isEqualTo("ts");
    assertThat(config.get("ingestionConfig").get("transformConfigs")).isEmpty();

    JsonNode metadata = JSON.readTree(get("/tables/obs.metrics/metadata").body());
    assertThat(metadata.get("numRows").asLong()).isEqualTo(1000);
    assertThat(metadata.get("numSegments").asLong()).isEqualTo(3);
    assertThat(metadata.get("diskSizeInBytes").asLong()).isEqualTo(123_456);
  }

  @Test
  void brokersAreDiscoveredAtTheAddressTheClientUsed() throws Exception {
    int port = Integer.parseInt(base.substring(base.lastIndexOf(':') + 1));
    JsonNode live = JSON.readTree(get("/tables/livebrokers").body());
    assertThat(live.get("obs.metrics").get(0).get("host").asText()).isEqualTo("127.0.0.1");
    assertThat(live.get("obs.metrics").get(0).get("port").asInt()).isEqualTo(port);
    JsonNode tenant = JSON.readTree(get("/v2/brokers/tenants/DefaultTenant").body());
    assertThat(tenant.get(0).get("port").asInt()).isEqualTo(port);
    assertThat(tenant.get(0).get("instanceName").asText()).isEqualTo("Broker_127.0.0.1_" + port);
  }

  @Test
  void statusIsFoundBySqlName() throws Exception {
    HttpResponse<String> one = get("/tables/obs.metrics/status");
    assertThat(one.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(one.body()).get("snapshotId").asLong()).isEqualTo(42L);
    assertThat(JSON.readTree(one.body()).get("dataBytes").asLong()).isEqualTo(123_456L);

    HttpResponse<String> missing = get("/tables/obs.other/status");
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(JSON.readTree(missing.body()).get("error").asText())
        .isEqualTo("Cannot find table: obs.other (GET /tables lists served tables)");
  }

  @Test
  void portInUseGivesClearError() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      BrokerHttpServer second =
          new BrokerHttpServer(
              new BrokerRoutes(
                  new RefusingQueryService(), List::of, List.of("broker"), () -> true));
      assertThatThrownBy(() -> second.start("127.0.0.1", taken.getLocalPort(), executor))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("is in use or not available");
    }
  }

  private TableStatus onboard(String config) throws TableAdminException {
    if (config.contains("bad")) {
      throw new TableAdminException(
          "Cannot onboard table obs.bad", List.of("columns.x: no such column"));
    }
    lastOnboarded.set(config);
    return METRICS;
  }

  @Test
  void queryTimeoutComesFromQueryOptionsOrTheDefault() throws Exception {
    // The service gets what is left of the timeout once a query thread took the request: the
    // timeout runs from the request's arrival.
    post("/query/sql", "{\"sql\": \"SELECT 1\"}");
    assertThat(lastRequest.get().timeout().orElseThrow())
        .isLessThanOrEqualTo(Duration.ofSeconds(7))
        .isGreaterThan(Duration.ofSeconds(6));

    post("/query/sql", "{\"sql\": \"SELECT 1\", \"queryOptions\": \"a=b;timeoutMs=2500\"}");
    assertThat(lastRequest.get().timeout().orElseThrow())
        .isLessThanOrEqualTo(Duration.ofMillis(2500))
        .isGreaterThan(Duration.ofMillis(1500));

    post("/query/sql", "{\"sql\": \"SELECT 1\", \"queryOptions\": {\"timeoutMs\": 4000}}");
    assertThat(lastRequest.get().timeout().orElseThrow())
        .isLessThanOrEqualTo(Duration.ofMillis(4000))
        .isGreaterThan(Duration.ofMillis(3000));

    HttpResponse<String> bad =
        post("/query/sql", "{\"sql\": \"SELECT 1\", \"queryOptions\": \"timeoutMs=soon\"}");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(message(bad))
        .isEqualTo(
            "Cannot use queryOptions timeoutMs=soon: it must be a positive number of milliseconds,"
                + " at most 86400000 (one day)");
  }

  @Test
  void tablesAreOnboardedByPost() throws Exception {
    HttpResponse<String> accepted = post("/tables", "table: {name: metrics}");
    assertThat(accepted.statusCode()).isEqualTo(202);
    assertThat(JSON.readTree(accepted.body()).get("state").asText()).isEqualTo("SERVING");
    assertThat(lastOnboarded.get()).isEqualTo("table: {name: metrics}");

    HttpResponse<String> rejected = post("/tables", "bad");
    assertThat(rejected.statusCode()).isEqualTo(400);
    JsonNode body = JSON.readTree(rejected.body());
    assertThat(body.get("error").asText()).isEqualTo("Cannot onboard table obs.bad");
    assertThat(body.get("violations").get(0).asText()).isEqualTo("columns.x: no such column");

    HttpResponse<String> empty = post("/tables", " ");
    assertThat(empty.statusCode()).isEqualTo(400);
  }

  @Test
  void onboardingNeedsTheControllerRole() throws Exception {
    BrokerHttpServer brokerOnly =
        new BrokerHttpServer(
            new BrokerRoutes(new RefusingQueryService(), List::of, List.of("broker"), () -> true));
    int port = brokerOnly.start("127.0.0.1", 0, executor);
    try {
      HttpResponse<String> response =
          client.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/tables"))
                  .POST(HttpRequest.BodyPublishers.ofString("table: {}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(405);
      assertThat(JSON.readTree(response.body()).get("error").asText())
          .startsWith("Cannot onboard a table here: this process runs [broker]");
    } finally {
      brokerOnly.close();
    }
  }

  private String message(HttpResponse<String> response) throws IOException {
    return JSON.readTree(response.body()).get("exceptions").get(0).get("message").asText();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(base + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> send(String method, String path, Map<String, String> headers)
      throws Exception {
    return send(method, path, headers, "");
  }

  private HttpResponse<String> send(
      String method, String path, Map<String, String> headers, String body) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path))
            .method(
                method,
                body.isEmpty()
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(request::header);
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
