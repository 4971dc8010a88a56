package io.shelfmark.cli.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The quickstart end to end: real embedded S3 over HTTP, real SQLite catalog, real broker. */
class TestQuickstart {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long ROWS = 20_000;

  @Test
  void comesUpServesHealthAndTablesAndRefusesSqlClearly(@TempDir Path dir) throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (Quickstart quickstart =
        Quickstart.start(
            new Quickstart.Options(ROWS, 7, dir, 0, true),
            new PrintStream(printed, true, StandardCharsets.UTF_8))) {
      assertThat(printed.toString(StandardCharsets.UTF_8))
          .contains("[1/4] embedded S3 store: http://127.0.0.1:")
          .contains("[4/4] onboarded obs.metrics at snapshot");

      HttpResponse<String> health = get(client, quickstart.url() + "/health");
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(JSON.readTree(health.body()).get("status").asText()).isEqualTo("OK");

      JsonNode table = JSON.readTree(get(client, quickstart.url() + "/tables/obs.metrics").body());
      assertThat(table.get("records").asLong()).isEqualTo(ROWS);
      assertThat(table.get("dataFiles").asLong()).isPositive();
      assertThat(table.get("dataBytes").asLong()).isPositive();
      assertThat(table.get("snapshotId").asLong()).isEqualTo(quickstart.table().snapshotId());

      HttpResponse<String> query =
          client.send(
              HttpRequest.newBuilder(URI.create(quickstart.url() + "/query/sql"))
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"sql\": \"SELECT COUNT(*) FROM obs.metrics\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      JsonNode body = JSON.readTree(query.body());
      assertThat(body.has("resultTable")).isFalse();
      assertThat(body.get("exceptions").get(0).get("message").asText())
          .startsWith("Cannot execute query: this Shelfmark build has no query engine yet");
    }

    // A second start over the same directory reuses the table instead of regenerating it.
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    try (Quickstart quickstart =
        Quickstart.start(
            new Quickstart.Options(ROWS, 7, dir, 0, true),
            new PrintStream(again, true, StandardCharsets.UTF_8))) {
      assertThat(again.toString(StandardCharsets.UTF_8)).contains("Reused table obs.metrics");
      assertThat(quickstart.table().records()).isEqualTo(ROWS);
    }
  }

  private static HttpResponse<String> get(HttpClient client, String url) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(url)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
