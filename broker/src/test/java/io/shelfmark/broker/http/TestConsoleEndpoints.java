package io.shelfmark.broker.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.broker.health.HealthMonitor;
import io.shelfmark.broker.node.NodeStatus;
import io.shelfmark.broker.query.RefusingQueryService;
import io.shelfmark.broker.table.TableStatus;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The web console's files and {@code GET /nodes} over a real socket; the pages themselves run in a
 * browser in the cli module's TestConsoleInBrowser.
 */
class TestConsoleEndpoints {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final NodeStatus NODE =
      new NodeStatus(
          "all-in-one@127.0.0.1:8099",
          List.of("controller", "broker", "server"),
          "127.0.0.1",
          Map.of("broker-http", 8099),
          "OK",
          1_764_200_000_000L,
          150,
          List.of(
              new NodeStatus.CacheTierUse("memory", 1024, 4096, 3, 10, 2, 1),
              new NodeStatus.CacheTierUse("disk", 0, 0, 0, 0, 0, 0)));

  private final ExecutorService executor = Executors.newFixedThreadPool(2);
  private final HttpClient client = HttpClient.newHttpClient();
  private BrokerHttpServer server;
  private String base;

  @BeforeEach
  void start() throws Exception {
    server =
        new BrokerHttpServer(
            new BrokerRoutes(
                new RefusingQueryService(),
                () -> List.<TableStatus>of(),
                Optional.empty(),
                List.of("broker"),
                () -> true,
                BrokerRoutes.DEFAULT_TIMEOUT,
                HealthMonitor.none(),
                MetricsEndpoint.NONE,
                () -> List.of(NODE)));
    base = "http://127.0.0.1:" + server.start("127.0.0.1", 0, executor);
  }

  @AfterEach
  void stop() {
    server.close();
    executor.shutdownNow();
  }

  @Test
  void rootServesThePageWithAPolicyThatAllowsOnlyItsOwnFiles() throws Exception {
    HttpResponse<String> page = get("/");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type")).contains("text/html; charset=utf-8");
    assertThat(page.headers().firstValue("Content-Security-Policy"))
        .contains("default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'");
    assertThat(page.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
    assertThat(page.body())
        .contains("<title>Shelfmark console</title>")
        .contains("<script type=\"module\" src=\"/console/console.js\"></script>");
    assertThat(get("/console").body()).isEqualTo(page.body());
  }

  @Test
  void everyModuleThePageLoadsIsServedAsJavaScript() throws Exception {
    for (String module :
        List.of(
            "console.js",
            "api.js",
            "dom.js",
            "tables.js",
            "nodes.js",
            "query.js",
            "chart.js",
            "explain.js")) {
      HttpResponse<String> response = get("/console/" + module);
      assertThat(response.statusCode()).as(module).isEqualTo(200);
      assertThat(response.headers().firstValue("Content-Type"))
          .as(module)
          .contains("text/javascript; charset=utf-8");
      assertThat(response.body())
          .as(module)
          .containsAnyOf("export ", "import ")
          .doesNotContain("innerHTML");
    }
    assertThat(get("/console/console.css").headers().firstValue("Content-Type"))
        .contains("text/css; charset=utf-8");
  }

  @Test
  void uplotComesFromItsWebjar() throws Exception {
    HttpResponse<String> script = get("/console/vendor/uplot.js");
    assertThat(script.statusCode()).isEqualTo(200);
    assertThat(script.headers().firstValue("Content-Type"))
        .contains("text/javascript; charset=utf-8");
    assertThat(script.body())
        .startsWith("/*! https://github.com/leeoniya/uPlot")
        .contains("var uPlot=");
    assertThat(script.body().length()).as("the minified build").isLessThan(60_000);
    HttpResponse<String> css = get("/console/vendor/uplot.css");
    assertThat(css.statusCode()).isEqualTo(200);
    assertThat(css.body()).contains(".uplot");
  }

  @Test
  void namesOutsideTheConsolesFilesAreNotFound() throws Exception {
    for (String path :
        List.of(
            "/console/missing.js",
            "/console/Console.js",
            "/console/vendor/uPlot.esm.js",
            "/console/..%2Fhttp%2FBrokerRoutes.class",
            "/console/%2e%2e/%2e%2e/logback.xml",
            "/console/index.html/x")) {
      HttpResponse<String> response = get(path);
      assertThat(response.statusCode()).as(path).isEqualTo(404);
      assertThat(JSON.readTree(response.body()).get("error").asText())
          .as(path)
          .startsWith("Cannot find ")
          .endsWith("(the web console is at /, its files below /console/)");
    }
  }

  @Test
  void theConsoleIsReadOnly() throws Exception {
    HttpResponse<String> response =
        client.send(
            HttpRequest.newBuilder(URI.create(base + "/"))
                .POST(HttpRequest.BodyPublishers.ofString("x"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(405);
    HttpResponse<String> head =
        client.send(
            HttpRequest.newBuilder(URI.create(base + "/console/console.js"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.body()).isEmpty();
  }

  @Test
  void nodesListsWhatTheDirectoryKnows() throws Exception {
    HttpResponse<String> response = get("/nodes");
    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode node = JSON.readTree(response.body()).get("nodes").get(0);
    assertThat(node.get("id").asText()).isEqualTo("all-in-one@127.0.0.1:8099");
    assertThat(node.get("roles").toString()).isEqualTo("[\"controller\",\"broker\",\"server\"]");
    assertThat(node.get("ports").get("broker-http").asInt()).isEqualTo(8099);
    assertThat(node.get("health").asText()).isEqualTo("OK");
    assertThat(node.get("startedAtMillis").asLong()).isEqualTo(1_764_200_000_000L);
    assertThat(node.get("segments").asLong()).isEqualTo(150);
    JsonNode memory = node.get("cache").get(0);
    assertThat(memory.get("tier").asText()).isEqualTo("memory");
    assertThat(memory.get("usedBytes").asLong()).isEqualTo(1024);
    assertThat(memory.get("maxBytes").asLong()).isEqualTo(4096);
    assertThat(memory.get("entries").asLong()).isEqualTo(3);
    assertThat(memory.get("hits").asLong()).isEqualTo(10);
    assertThat(memory.get("misses").asLong()).isEqualTo(2);
    assertThat(memory.get("evictions").asLong()).isEqualTo(1);
    assertThat(node.get("cache").get(1).get("maxBytes").asLong()).isZero();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(base + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
