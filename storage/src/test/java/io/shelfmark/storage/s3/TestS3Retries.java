package io.shelfmark.storage.s3;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.RangeBuffers;
import io.shelfmark.storage.spi.StorageException;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Transient failures S3 really produces (503 SlowDown, 500, a body cut off mid-way), served by a
 * small fault-injecting HTTP server: each GET takes the next scripted answer, so the test knows
 * exactly how many attempts a read needs.
 */
class TestS3Retries {
  private static final Location LOCATION = Location.parse("s3://bucket/data/file.parquet");
  private static final byte[] OBJECT = "0123456789abcdefghijklmnopqrstuvwxyz".getBytes(UTF_8);

  private enum Answer {
    SLOW_DOWN,
    INTERNAL_ERROR,
    CUT_OFF_BODY,
    RANGE
  }

  private final Deque<Answer> script = new ArrayDeque<>();
  private HttpServer server;
  private int requests;
  private final List<String> ranges = new ArrayList<>();

  @BeforeEach
  void startServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::answer);
    server.start();
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
  }

  @Test
  void slowDownIsRetriedWithBackoffAndCounted() throws IOException {
    script.addAll(List.of(Answer.SLOW_DOWN, Answer.SLOW_DOWN, Answer.RANGE));
    try (S3ObjectStore store = store(3)) {
      assertThat(store.readRange(LOCATION, 10, 5)).isEqualTo("abcde".getBytes(UTF_8));
      StorageStats.Snapshot stats = store.stats().snapshot();
      assertThat(stats.getRequests()).isEqualTo(1);
      assertThat(stats.retries()).isEqualTo(2);
      assertThat(stats.failedRequests()).isZero();
      assertThat(stats.bytesRead()).isEqualTo(5);
      assertThat(requests).isEqualTo(3);
    }
  }

  @Test
  void aCountingViewLearnsOfTheRetriesItsOwnReadsNeeded() throws IOException {
    script.addAll(List.of(Answer.SLOW_DOWN, Answer.RANGE, Answer.RANGE));
    try (S3ObjectStore store = store(3)) {
      io.shelfmark.storage.counting.CountingObjectStore query =
          new io.shelfmark.storage.counting.CountingObjectStore(store);
      io.shelfmark.storage.counting.CountingObjectStore other =
          new io.shelfmark.storage.counting.CountingObjectStore(store);
      assertThat(query.readRange(LOCATION, 10, 5)).isEqualTo("abcde".getBytes(UTF_8));
      assertThat(other.readRange(LOCATION, 10, 5)).isEqualTo("abcde".getBytes(UTF_8));
      assertThat(query.stats().snapshot().retries()).isEqualTo(1);
      assertThat(query.stats().snapshot().getRequests()).isEqualTo(1);
      assertThat(other.stats().snapshot().retries()).as("its read needed none").isZero();
      assertThat(store.stats().snapshot().retries()).isEqualTo(1);
    }
  }

  @Test
  void slowDownBeyondTheRetriesIsExplained() throws IOException {
    script.addAll(List.of(Answer.SLOW_DOWN, Answer.SLOW_DOWN, Answer.RANGE));
    try (S3ObjectStore store = store(1)) {
      assertThatThrownBy(() -> store.readRange(LOCATION, 10, 5))
          .isInstanceOf(StorageException.class)
          .hasMessage(
              "Cannot read s3://bucket/data/file.parquet: "
                  + endpoint()
                  + " is throttling requests (HTTP 503 SlowDown) and 1 retry did not get through"
                  + " (lower the request rate or raise storage.max-retries)");
      assertThat(store.stats().snapshot().retries()).isEqualTo(1);
      assertThat(store.stats().snapshot().failedRequests()).isEqualTo(1);
      assertThat(requests).isEqualTo(2);
    }
  }

  @Test
  void serverErrorsAreRetriedThenExplained() throws IOException {
    script.addAll(List.of(Answer.INTERNAL_ERROR, Answer.RANGE));
    try (S3ObjectStore store = store(2)) {
      assertThat(store.readRange(LOCATION, 0, 3)).isEqualTo("012".getBytes(UTF_8));
      assertThat(store.stats().snapshot().retries()).isEqualTo(1);
    }
    script.addAll(List.of(Answer.INTERNAL_ERROR, Answer.INTERNAL_ERROR, Answer.INTERNAL_ERROR));
    try (S3ObjectStore store = store(2)) {
      assertThatThrownBy(() -> store.readRange(LOCATION, 0, 3))
          .isInstanceOf(StorageException.class)
          .hasMessage(
              "Cannot read s3://bucket/data/file.parquet: "
                  + endpoint()
                  + " failed with HTTP 500 InternalError and 2 retries did not get through (check"
                  + " the server; raise storage.max-retries to wait longer)");
    }
  }

  @Test
  void bodyCutOffMidwayIsResumedWhereItStopped() throws IOException {
    script.addAll(List.of(Answer.CUT_OFF_BODY, Answer.RANGE));
    try (S3ObjectStore store = store(2)) {
      List<Integer> reported = new ArrayList<>();
      // The cut, after ten bytes, falls inside the second piece.
      RangeBuffers into = RangeBuffers.pieces(4, 8, 8);
      store.readRange(LOCATION, 3, into, reported::add);
      byte[] read = new byte[20];
      into.copyTo(0, read, 0, 20);
      assertThat(read).isEqualTo(slice(3, 20));
      // The second GET asks only for the ten bytes the first did not deliver.
      assertThat(ranges).containsExactly("bytes=3-22", "bytes=13-22");
      assertThat(reported).containsExactly(20);
      StorageStats.Snapshot stats = store.stats().snapshot();
      assertThat(stats.getRequests()).isEqualTo(1);
      assertThat(stats.retries()).isEqualTo(1);
      // Ten bytes arrived before the cut, then the other ten.
      assertThat(stats.bytesRead()).isEqualTo(20);
    }
  }

  @Test
  void bodyCutOffEveryTimeIsExplained() throws IOException {
    script.addAll(List.of(Answer.CUT_OFF_BODY, Answer.CUT_OFF_BODY));
    try (S3ObjectStore store = store(1)) {
      assertThatThrownBy(() -> store.readRange(LOCATION, 0, 20))
          .isInstanceOf(StorageException.class)
          .hasMessage(
              "Cannot read s3://bucket/data/file.parquet: the connection to "
                  + endpoint()
                  + " broke after 15 of 20 bytes, 2 times (check the network, or raise"
                  + " storage.max-retries)")
          .hasCauseInstanceOf(IOException.class);
    }
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      requests++;
      Answer answer = script.isEmpty() ? Answer.INTERNAL_ERROR : script.removeFirst();
      exchange.getRequestBody().readAllBytes();
      switch (answer) {
        case SLOW_DOWN -> error(exchange, 503, "SlowDown", "Please reduce your request rate.");
        case INTERNAL_ERROR -> error(exchange, 500, "InternalError", "We encountered an error.");
        case RANGE, CUT_OFF_BODY -> range(exchange, answer == Answer.CUT_OFF_BODY);
      }
    }
  }

  private void range(HttpExchange exchange, boolean cutOff) throws IOException {
    String header = exchange.getRequestHeaders().getFirst("Range");
    ranges.add(header);
    String[] bounds = header.substring("bytes=".length()).split("-");
    int first = Integer.parseInt(bounds[0]);
    int last = Integer.parseInt(bounds[1]);
    int length = last - first + 1;
    exchange
        .getResponseHeaders()
        .add("Content-Range", "bytes " + first + "-" + last + "/" + OBJECT.length);
    exchange.sendResponseHeaders(206, length);
    OutputStream body = exchange.getResponseBody();
    if (cutOff) {
      body.write(OBJECT, first, length / 2);
      body.flush();
      // Closing the exchange before Content-Length bytes were sent drops the connection.
      return;
    }
    body.write(OBJECT, first, length);
  }

  private static void error(HttpExchange exchange, int status, String code, String message)
      throws IOException {
    byte[] xml =
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
                + code
                + "</Code><Message>"
                + message
                + "</Message></Error>")
            .getBytes(UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/xml");
    exchange.sendResponseHeaders(status, xml.length);
    exchange.getResponseBody().write(xml);
  }

  private URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  private S3ObjectStore store(int maxRetries) {
    return new S3ObjectStore(
        S3StoreOptions.builder()
            .endpoint(endpoint())
            .pathStyleAccess(true)
            .credentials("key", "secret")
            .maxRetries(maxRetries)
            .retryBaseDelay(Duration.ofMillis(5))
            .throttlingBaseDelay(Duration.ofMillis(5))
            .retryMaxDelay(Duration.ofMillis(20))
            .build());
  }

  private static byte[] slice(int offset, int length) {
    byte[] slice = new byte[length];
    System.arraycopy(OBJECT, offset, slice, 0, length);
    return slice;
  }
}
