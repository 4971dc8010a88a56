package io.shelfmark.cli.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.lake.EmbeddedS3Server;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /health} is readiness — the node started and the services it depends on answer — while
 * {@code /health/liveness} only says the process answers: with object storage gone, the first turns
 * 503 {@code DEGRADED} naming the failing check (and not the storage's address), the second stays
 * 200, and both are OK again once storage is back.
 */
class TestNodeHealth {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path directory;
  private LocalLake lake;
  private AllInOne node;
  private EmbeddedS3Server restarted;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    lake = LocalLake.start(directory.resolve("lake"), 0);
    Path nodeDir = directory.resolve("node");
    node = TestingNodes.start(lake, TestingNodes.config(lake, nodeDir).build());
  }

  @AfterEach
  void stop() throws Exception {
    if (node != null) {
      node.close();
    }
    if (restarted != null) {
      restarted.close();
    }
    if (lake != null) {
      lake.close();
    }
  }

  @Test
  void readinessFollowsStorageWhileLivenessStaysUp() throws Exception {
    await().atMost(Duration.ofSeconds(20)).until(() -> get("/health").statusCode() == 200);
    JsonNode healthy = JSON.readTree(get("/health").body());
    assertThat(healthy.path("status").asText()).isEqualTo("OK");
    assertThat(healthy.path("checks").path("storage").path("status").asText()).isEqualTo("OK");
    assertThat(
            healthy
                .path("checks")
                .path("catalog." + LocalLake.CATALOG_NAME)
                .path("status")
                .asText())
        .isEqualTo("OK");

    int s3Port = lake.s3().port();
    lake.s3().close();
    await().atMost(Duration.ofSeconds(30)).until(() -> get("/health").statusCode() == 503);
    HttpResponse<String> degraded = get("/health");
    JsonNode body = JSON.readTree(degraded.body());
    assertThat(body.path("status").asText()).isEqualTo("DEGRADED");
    assertThat(body.path("checks").path("storage").path("status").asText()).isEqualTo("FAILING");
    assertThat(degraded.body()).doesNotContain(":" + s3Port).doesNotContain(directory.toString());
    assertThat(get("/health/readiness").statusCode()).isEqualTo(503);
    assertThat(get("/health/liveness").statusCode()).isEqualTo(200);

    restarted =
        EmbeddedS3Server.builder().baseDirectory(lake.s3().baseDirectory()).port(s3Port).build();
    restarted.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> get("/health").statusCode() == 200);
    assertThat(JSON.readTree(get("/health").body()).path("status").asText()).isEqualTo("OK");
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(node.url() + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
