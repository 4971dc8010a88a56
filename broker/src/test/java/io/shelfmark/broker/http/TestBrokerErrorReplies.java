package io.shelfmark.broker.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.broker.query.QueryErrorCode;
import io.shelfmark.broker.query.QueryResponse;
import io.shelfmark.broker.query.QueryService;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 21 findings 1 and 9: whatever the query service throws, Errors included, the client gets an
 * answer; and what it sees of storage and internal failures names no local path or endpoint but
 * carries a request id that the log has too.
 */
class TestBrokerErrorReplies {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final AtomicReference<QueryService> service = new AtomicReference<>();
  private final ExecutorService executor = Executors.newFixedThreadPool(2);
  private final HttpClient client = HttpClient.newHttpClient();
  private BrokerHttpServer server;
  private String base;

  @BeforeEach
  void start() throws Exception {
    server =
        new BrokerHttpServer(
            new BrokerRoutes(
                request -> service.get().execute(request),
                List::of,
                List.of("broker"),
                () -> true));
    base = "http://127.0.0.1:" + server.start("127.0.0.1", 0, executor);
  }

  @AfterEach
  void stop() {
    server.close();
    executor.shutdownNow();
  }

  @Test
  void stackOverflowInTheQueryServiceIsAnswered() throws Exception {
    service.set(
        request -> {
          throw new StackOverflowError();
        });
    JsonNode body = queryBody();
    JsonNode error = body.path("exceptions").path(0);
    assertThat(error.path("errorCode").asInt()).isEqualTo(QueryErrorCode.INTERNAL.code());
    // The id in the message is the answer's requestId: one id for the client and the log.
    assertThat(error.path("message").asText())
        .isEqualTo(
            "Cannot execute query: internal error (request id "
                + body.path("requestId").asLong()
                + "; the broker's log has the details)");
  }

  @Test
  void storageErrorsLoseLocalPathsAndEndpointsButKeepTheLakeLocation() throws Exception {
    service.set(
        request ->
            QueryResponse.failed(
                QueryErrorCode.STORAGE,
                "Cannot read s3://lake/warehouse/t/data/f.parquet from http://10.0.0.7:9000/lake"
                    + " (cached in /var/lib/shelfmark/cache/ab/cd.bin): connection refused"));
    String message = queryError().path("message").asText();
    assertThat(message)
        .startsWith(
            "Cannot read s3://lake/warehouse/t/data/f.parquet from <storage endpoint> (cached in"
                + " <local file>): connection refused (request id ")
        .doesNotContain("10.0.0.7")
        .doesNotContain("/var/lib");
  }

  @Test
  void internalErrorMessagesAreReplaced() throws Exception {
    service.set(
        request ->
            QueryResponse.failed(
                QueryErrorCode.INTERNAL,
                "Cannot execute query: internal error: java.lang.IllegalStateException: bad state"
                    + " in /home/op/.shelfmark/node/segments/x"));
    assertThat(queryError().path("message").asText())
        .startsWith(
            "Cannot execute query: internal error; the broker's log has the details (request id ")
        .doesNotContain("/home/op");
  }

  @Test
  void sqlErrorsPassUnchanged() throws Exception {
    String message = "Cannot parse SQL at line 1, column 8: /tmp/x is not a column";
    service.set(request -> QueryResponse.failed(QueryErrorCode.SQL_PARSING, message));
    assertThat(queryError().path("message").asText()).isEqualTo(message);
  }

  private JsonNode queryError() throws Exception {
    return queryBody().path("exceptions").path(0);
  }

  private JsonNode queryBody() throws Exception {
    HttpResponse<String> response =
        client.send(
            HttpRequest.newBuilder(URI.create(base + "/query/sql"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"sql\": \"SELECT 1\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(response.body());
  }
}
