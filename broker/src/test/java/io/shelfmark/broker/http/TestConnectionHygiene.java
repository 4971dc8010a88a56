package io.shelfmark.broker.http;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.shelfmark.broker.query.QueryRequest;
import io.shelfmark.broker.query.RefusingQueryService;
import io.shelfmark.config.cluster.HttpConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 21 finding 5 at the HTTP server: the node-wide connection cap (the per-client one is in the
 * hostile suite), and the idle timeout never cutting a query that is still being answered.
 */
class TestConnectionHygiene {
  private final ExecutorService executor = Executors.newFixedThreadPool(2);
  private final List<Socket> sockets = new ArrayList<>();
  private BrokerHttpServer server;
  private int port;

  @AfterEach
  void stop() throws IOException {
    for (Socket socket : sockets) {
      socket.close();
    }
    if (server != null) {
      server.close();
    }
    executor.shutdownNow();
  }

  @Test
  void connectionsBeyondTheNodeCapGetServiceUnavailableFromAnyClient() throws Exception {
    start(
        new HttpConfig(Duration.ofSeconds(10), Duration.ofSeconds(10), 3, 3),
        queriesTaking(Duration.ZERO));
    // Two client addresses (Linux routes all of 127.0.0.0/8 to loopback), so the per-client cap
    // is not what refuses.
    sockets.add(connect("127.0.0.1"));
    sockets.add(connect("127.0.0.1"));
    sockets.add(connect("127.0.0.2"));
    await().atMost(Duration.ofSeconds(5)).until(() -> server.openConnections() == 3);
    try (Socket extra = connect("127.0.0.3")) {
      String reply = readAll(extra.getInputStream());
      assertThat(reply)
          .startsWith("HTTP/1.1 503 Service Unavailable")
          .contains(
              "{\"error\":\"Cannot accept connection: the broker has 3 open connections, its limit"
                  + " (retry later; broker.http.max-connections)\"}");
    }
    sockets.removeFirst().close();
    await().atMost(Duration.ofSeconds(5)).until(() -> server.openConnections() == 2);
    try (Socket next = connect("127.0.0.3")) {
      next.getOutputStream().write(request().getBytes(UTF_8));
      assertThat(readAll(next.getInputStream())).startsWith("HTTP/1.1 200 OK");
    }
  }

  @Test
  void queryLongerThanTheIdleTimeoutIsStillAnswered() throws Exception {
    Duration idle = Duration.ofMillis(200);
    start(
        new HttpConfig(Duration.ofSeconds(10), idle, 10, 10), queriesTaking(idle.multipliedBy(5)));
    try (Socket socket = connect("127.0.0.1")) {
      socket.getOutputStream().write(request().getBytes(UTF_8));
      assertThat(readAll(socket.getInputStream())).startsWith("HTTP/1.1 200 OK");
    }
  }

  private void start(HttpConfig config, io.shelfmark.broker.query.QueryService queries)
      throws IOException {
    server =
        new BrokerHttpServer(
            new BrokerRoutes(queries, List::of, List.of("broker"), () -> true), config);
    port = server.start("127.0.0.1", 0, executor);
  }

  /** Queries that each run for {@code duration} (the work being modelled), then answer. */
  private static io.shelfmark.broker.query.QueryService queriesTaking(Duration duration) {
    return (QueryRequest request) -> {
      long end = System.nanoTime() + duration.toNanos();
      for (long left = duration.toNanos(); left > 0; left = end - System.nanoTime()) {
        LockSupport.parkNanos(left);
      }
      return new RefusingQueryService().execute(request);
    };
  }

  private static String request() {
    String body = "{\"sql\": \"SELECT 1\"}";
    return "POST /query/sql HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        + "Content-Length: "
        + body.length()
        + "\r\n\r\n"
        + body;
  }

  private Socket connect(String from) throws IOException {
    Socket socket = new Socket();
    socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    socket.setSoTimeout(30_000);
    return socket;
  }

  private static String readAll(InputStream in) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    in.transferTo(bytes);
    return bytes.toString(UTF_8);
  }
}
