package io.shelfmark.cli.hostile;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.shelfmark.cli.hostile.HostileNode.Reply;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, hostile HTTP over real sockets (findings 5 and 9): malformed and oversized requests,
 * slow and idle connections, and more connections than allowed are each answered with their own
 * status and a JSON message (or, when idle, closed), and the node answers a normal query
 * afterwards.
 */
class TestHostileHttp {
  @TempDir static Path directory;
  private static HostileNode node;

  @BeforeAll
  static void start() throws Exception {
    node = HostileNode.start(directory);
  }

  @AfterAll
  static void stop() throws Exception {
    if (node != null) {
      node.close();
    }
  }

  @Test
  void brokenPercentEscapeIsBadRequest() throws Exception {
    Reply reply = node.get("/tables/%zz");
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.message()).startsWith("Cannot decode the request URL: ");
    node.assertHealthy();
  }

  @Test
  void thousandHeadersAreRefusedNamingTheHeaderLimit() throws Exception {
    StringBuilder request = new StringBuilder("POST /query/sql HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    for (int i = 0; i < 1_000; i++) {
      request.append("X-Header-").append(i).append(": value\r\n");
    }
    request.append("Content-Length: 2\r\n\r\n{}");
    Reply reply = node.exchange(request.toString().getBytes(UTF_8));
    assertThat(reply.status()).isEqualTo(431);
    assertThat(reply.message())
        .isEqualTo(
            "Cannot read request: its headers are larger than 16384 bytes, the header limit (send"
                + " fewer or shorter headers)");
    node.assertHealthy();
  }

  @Test
  void hundredKilobyteUrlIsUriTooLong() throws Exception {
    Reply reply = node.get("/query/sql?q=" + "a".repeat(100 * 1024));
    assertThat(reply.status()).isEqualTo(414);
    assertThat(reply.message())
        .isEqualTo(
            "Cannot read request: the request line is longer than 8192 bytes (send SQL in the"
                + " body of POST /query/sql, not in the URL)");
    node.assertHealthy();
  }

  @Test
  void oversizedBodyIsTooLargeWithAMessage() throws Exception {
    Reply reply =
        node.exchange(
            ("POST /query/sql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 2000000\r\n\r\n")
                .getBytes(UTF_8));
    assertThat(reply.status()).isEqualTo(413);
    assertThat(reply.message())
        .isEqualTo(
            "Cannot read request: the body is larger than 1048576 bytes, the limit (SQL text is"
                + " limited by broker.sql.max-length)");
    node.assertHealthy();
  }

  @Test
  void duplicateSqlKeysAreRefused() throws Exception {
    Reply reply =
        node.post(
            "/query/sql",
            "{\"sql\": \"SELECT COUNT(*) FROM hostile.events\", \"sql\": \"SELECT 1\"}");
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.message()).contains("Duplicate field 'sql'");
    node.assertHealthy();
  }

  @Test
  void deeplyNestedJsonIsRefused() throws Exception {
    Reply reply =
        node.post(
            "/query/sql",
            "{\"sql\": \"SELECT 1\", \"x\": " + "[".repeat(5_000) + "]".repeat(5_000) + "}");
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.message()).startsWith("Cannot read query request: body is not valid JSON (");
    node.assertHealthy();
  }

  @Test
  void slowHeadersGetRequestTimeout() throws Exception {
    try (Socket socket = node.open()) {
      long started = System.nanoTime();
      socket.getOutputStream().write("POST /query/sql HTTP/1.1\r\nHost: 127".getBytes(UTF_8));
      socket.getOutputStream().flush();
      Reply reply = HostileNode.read(socket.getInputStream());
      Duration waited = Duration.ofNanos(System.nanoTime() - started);
      assertThat(reply.status()).isEqualTo(408);
      assertThat(reply.message())
          .isEqualTo(
              "Cannot read request: it did not arrive completely within 500 ms (send the whole"
                  + " request at once; broker.http.request-read-timeout)");
      assertThat(waited).isLessThan(Duration.ofSeconds(5));
    }
    node.assertHealthy();
  }

  @Test
  void idleConnectionIsClosed() throws Exception {
    try (Socket socket = node.open()) {
      long started = System.nanoTime();
      assertThat(socket.getInputStream().read()).isEqualTo(-1);
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .isGreaterThanOrEqualTo(HostileNode.IDLE_TIMEOUT.minusMillis(100))
          .isLessThan(Duration.ofSeconds(10));
    }
    node.assertHealthy();
  }

  @Test
  void connectionsBeyondThePerClientCapGetServiceUnavailable() throws Exception {
    List<Socket> held = new ArrayList<>();
    try {
      for (int i = 0; i < HostileNode.MAX_CONNECTIONS_PER_CLIENT; i++) {
        held.add(node.open());
      }
      // Refused whether or not a connection of an earlier test is still counted.
      try (Socket extra = node.open()) {
        Reply reply = HostileNode.read(extra.getInputStream());
        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.message())
            .isEqualTo(
                "Cannot accept connection: 127.0.0.1 has 12 open connections, the limit per"
                    + " client (close idle connections or reuse them;"
                    + " broker.http.max-connections-per-client)");
      }
    } finally {
      for (Socket socket : held) {
        closeQuietly(socket);
      }
    }
    await().atMost(Duration.ofSeconds(10)).untilAsserted(node::assertHealthy);
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // closing a test socket: nothing to do
    }
  }
}
