package io.shelfmark.testing.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.lake.EmbeddedS3Server;
import io.shelfmark.storage.s3.S3ObjectStore;
import io.shelfmark.storage.s3.S3StoreOptions;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real S3 traffic through the proxy: S3ObjectStore (AWS SDK v2, Signature V4) → proxy → embedded S3
 * server. Times are only ever bounded from below: a delay the proxy injects is a guaranteed
 * minimum, while an upper bound would depend on the machine's load.
 */
class TestLatencyInjectingProxy {
  private static final String BUCKET = "lake";
  private static final int OBJECT_SIZE = 256 << 10;
  private static final Location OBJECT = Location.parse("s3://lake/data/object.bin");

  @TempDir static Path directory;

  private static EmbeddedS3Server server;
  private static byte[] content;

  @BeforeAll
  static void startServer() throws IOException {
    server = EmbeddedS3Server.builder().baseDirectory(directory.resolve("s3")).build();
    server.start();
    server.createBucket(BUCKET);
    content = new byte[OBJECT_SIZE];
    new Random(7).nextBytes(content);
    // Written beside the server, not through it: the tests count every request they make.
    Path file = directory.resolve("s3").resolve(BUCKET).resolve("data/object.bin");
    Files.createDirectories(file.getParent());
    Files.write(file, content);
  }

  @AfterAll
  static void stopServer() throws IOException {
    server.close();
  }

  @Test
  void rangedGetWaitsAtLeastTheLatency() throws IOException {
    Duration latency = Duration.ofMillis(150);
    try (LatencyInjectingProxy proxy =
            startProxy(LatencyInjectingProxy.builder().latency(latency));
        S3ObjectStore store = store(proxy)) {
      long start = System.nanoTime();
      byte[] bytes = store.readRange(OBJECT, 1000, 4096);
      long elapsed = System.nanoTime() - start;

      assertThat(bytes).isEqualTo(slice(1000, 4096));
      assertThat(elapsed).isGreaterThanOrEqualTo(latency.toNanos());
      RequestLog requests = proxy.requestLog();
      assertThat(requests.size()).isEqualTo(1);
      RequestTiming get = requests.requests().getFirst();
      assertThat(get.method()).isEqualTo("GET");
      assertThat(get.uri()).isEqualTo("/lake/data/object.bin");
      assertThat(get.status()).isEqualTo(206);
      assertThat(get.durationNanos()).isGreaterThanOrEqualTo(latency.toNanos());
      assertThat(get.responseBodyBytes()).isEqualTo(4096);
    }
  }

  @Test
  void countsEqualWhatWasTransferred() throws IOException {
    try (LatencyInjectingProxy proxy =
            startProxy(LatencyInjectingProxy.builder().latency(Duration.ofMillis(5)));
        S3ObjectStore store = store(proxy)) {
      int[][] ranges = {{0, 1}, {10, 100}, {5000, 65536}, {OBJECT_SIZE - 10, 10}};
      long expectedBody = 0;
      for (int[] range : ranges) {
        assertThat(store.readRange(OBJECT, range[0], range[1]))
            .isEqualTo(slice(range[0], range[1]));
        expectedBody += range[1];
      }
      assertThat(store.stat(OBJECT).size()).isEqualTo(OBJECT_SIZE);

      ProxyCounters.Snapshot counted = proxy.counters().snapshot();
      StorageStats.Snapshot reported = store.stats().snapshot();
      assertThat(counted.requestsByMethod()).containsOnlyKeys("GET", "HEAD");
      assertThat(counted.requests("GET"))
          .isEqualTo(ranges.length)
          .isEqualTo(reported.getRequests());
      assertThat(counted.requests("HEAD")).isEqualTo(1).isEqualTo(reported.headRequests());
      assertThat(counted.requests()).isEqualTo(ranges.length + 1);
      assertThat(counted.responseBodyBytes())
          .isEqualTo(expectedBody)
          .isEqualTo(reported.bytesRead());
      // Status lines and headers come on top of the bodies; GETs and HEADs send no body.
      assertThat(counted.responseBytes()).isGreaterThan(expectedBody);
      assertThat(counted.requestBodyBytes()).isZero();
      assertThat(counted.requestBytes()).isPositive();
      assertThat(counted.inFlight()).isZero();
      assertThat(counted.maxInFlight()).isEqualTo(1);
      // Keep-alive: sequential requests share one connection.
      assertThat(counted.connections()).isEqualTo(1);
      assertThat(proxy.requestLog().size()).isEqualTo(ranges.length + 1);

      proxy.reset();
      ProxyCounters.Snapshot afterReset = proxy.counters().snapshot();
      assertThat(afterReset.requests()).isZero();
      assertThat(afterReset.responseBytes()).isZero();
      assertThat(afterReset.maxInFlight()).isZero();
      assertThat(proxy.requestLog().size()).isZero();
    }
  }

  @Test
  void uploadsPassThroughWithTheirSignatures() throws IOException {
    byte[] upload = new byte[100_000];
    new Random(11).nextBytes(upload);
    Location location = Location.parse("s3://lake/uploads/put.bin");
    try (LatencyInjectingProxy proxy =
            startProxy(LatencyInjectingProxy.builder().latency(Duration.ofMillis(5)));
        S3ObjectStore store = store(proxy)) {
      store.write(location, upload);

      assertThat(Files.readAllBytes(directory.resolve("s3/lake/uploads/put.bin")))
          .isEqualTo(upload);
      ProxyCounters.Snapshot counted = proxy.counters().snapshot();
      assertThat(counted.requests("PUT")).isEqualTo(1);
      // The SDK may frame the body (aws-chunked): at least the object's bytes went up.
      assertThat(counted.requestBodyBytes()).isGreaterThanOrEqualTo(upload.length);
      assertThat(counted.requestBytes()).isGreaterThan(counted.requestBodyBytes());
      assertThat(store.readRange(location, 0, upload.length)).isEqualTo(upload);
    }
  }

  @Test
  void parallelGetsAreOneRoundAndSequentialGetsAreOneRoundEach() throws Exception {
    int requests = 8;
    int sequentialRequests = 3;
    // Long enough that all parallel requests are sent before the first answer can come back.
    Duration latency = Duration.ofMillis(600);
    try (LatencyInjectingProxy proxy =
            startProxy(LatencyInjectingProxy.builder().latency(latency));
        S3ObjectStore store = store(proxy)) {
      ExecutorService pool = Executors.newFixedThreadPool(requests);
      try {
        CountDownLatch ready = new CountDownLatch(requests);
        List<Future<byte[]>> reads = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
          int offset = i * 1000;
          reads.add(
              pool.submit(
                  () -> {
                    ready.countDown();
                    ready.await();
                    return store.readRange(OBJECT, offset, 500);
                  }));
        }
        for (int i = 0; i < requests; i++) {
          assertThat(reads.get(i).get()).isEqualTo(slice(i * 1000, 500));
        }
      } finally {
        pool.shutdownNow();
      }
      RequestLog parallel = proxy.requestLog();
      assertThat(parallel.size()).isEqualTo(requests);
      assertThat(parallel.sequentialRounds()).isEqualTo(1);
      assertThat(parallel.maxOverlap()).isEqualTo(requests);
      assertThat(proxy.counters().snapshot().maxInFlight()).isEqualTo(requests);

      // Each parallel request had its own connection; they stay open for reuse.
      assertThat(proxy.counters().snapshot().connections()).isEqualTo(requests);

      proxy.reset();
      for (int i = 0; i < sequentialRequests; i++) {
        assertThat(store.readRange(OBJECT, i * 1000, 500)).isEqualTo(slice(i * 1000, 500));
      }
      RequestLog sequential = proxy.requestLog();
      assertThat(sequential.size()).isEqualTo(sequentialRequests);
      assertThat(sequential.sequentialRounds()).isEqualTo(sequentialRequests);
      // Keep-alive: the pooled connections are reused, none is opened.
      assertThat(proxy.counters().snapshot().connections()).isZero();
      assertThat(sequential.maxOverlap()).isEqualTo(1);
      assertThat(proxy.counters().snapshot().maxInFlight()).isEqualTo(1);
    }
  }

  @Test
  void bandwidthCapLowersThroughput() throws IOException {
    long bytesPerSecond = 256 << 10;
    int length = 128 << 10;
    try (LatencyInjectingProxy proxy =
            startProxy(
                LatencyInjectingProxy.builder().latency(Duration.ZERO).bandwidth(bytesPerSecond));
        S3ObjectStore store = store(proxy)) {
      long start = System.nanoTime();
      byte[] bytes = store.readRange(OBJECT, 0, length);
      long elapsed = System.nanoTime() - start;

      assertThat(bytes).isEqualTo(slice(0, length));
      // 128 KiB at 256 KiB/s is 500 ms; the first slice (1/50 s) may leave at once, and a late
      // drain may catch up by one more.
      long slice = bytesPerSecond / 50;
      long minimum = (length - 2 * slice) * 1_000_000_000L / bytesPerSecond;
      assertThat(elapsed).isGreaterThanOrEqualTo(minimum);
      assertThat(proxy.counters().snapshot().responseBodyBytes()).isEqualTo(length);
    }
  }

  @Test
  void unreachableBackendAnswersBadGatewayNamingIt() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    URI backend = URI.create("http://127.0.0.1:" + closedPort);
    try (LatencyInjectingProxy proxy =
        start(LatencyInjectingProxy.builder().backend(backend).latency(Duration.ZERO))) {
      HttpClient client = HttpClient.newHttpClient();
      HttpResponse<String> response =
          client.send(
              HttpRequest.newBuilder(proxy.endpoint().resolve("/lake/key")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(502);
      assertThat(response.body())
          .startsWith("Cannot reach backend " + backend + " through the latency proxy: ")
          .endsWith(" (is the S3 server running?)\n");
      assertThat(proxy.counters().snapshot().requests("GET")).isEqualTo(1);
      assertThat(proxy.counters().snapshot().inFlight()).isZero();
    }
  }

  @Test
  void builderRefusesBadSettingsWithTheValue() {
    assertThatThrownBy(() -> LatencyInjectingProxy.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot build latency proxy: no backend (call backend(uri), e.g. the S3 server's"
                + " endpoint)");
    assertThatThrownBy(() -> LatencyInjectingProxy.builder().backend(URI.create("https://s3:443")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot set backend: https://s3:443 (expected http://host:port; the proxy speaks plain"
                + " HTTP only)");
    assertThatThrownBy(() -> LatencyInjectingProxy.builder().latency(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot set latency: PT-0.001S (expected zero or more)");
    assertThatThrownBy(() -> LatencyInjectingProxy.builder().bandwidth(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot set bandwidth: 0 bytes/s (expected 1 or more; leave it unset for no cap)");
    assertThatThrownBy(() -> LatencyInjectingProxy.builder().port(70000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot set port: 70000 (use 0 for a free port, or 1-65535)");
    assertThatThrownBy(
            () -> LatencyInjectingProxy.builder().latency(Duration.ZERO).latency(Duration.ZERO))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot set latency: it is already set to PT0S");
  }

  @Test
  void lifecycleErrorsSayWhatToDo() throws IOException {
    LatencyInjectingProxy proxy =
        LatencyInjectingProxy.builder().backend(server.endpoint()).build();
    assertThatThrownBy(proxy::port)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot get the port of latency proxy: it is new (call start() first)");
    proxy.start();
    assertThat(proxy.endpoint().toString()).startsWith("http://127.0.0.1:");
    assertThat(proxy.latency()).isEqualTo(LatencyInjectingProxy.DEFAULT_LATENCY);
    assertThat(proxy.bandwidth()).isEmpty();
    assertThatThrownBy(proxy::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot start latency proxy: it is started (create a new one)");
    proxy.close();
    proxy.close();
    assertThatThrownBy(proxy::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot start latency proxy: it is closed (create a new one)");
  }

  /** Starts a proxy in front of the embedded S3 server. */
  @Test
  void injectedSlowDownsAndResetsAreRetriedByTheSdkAndCounted() throws IOException {
    try (LatencyInjectingProxy proxy =
            startProxy(
                LatencyInjectingProxy.builder()
                    .latency(Duration.ZERO)
                    .slowDownRate(0.2)
                    .resetRate(0.05)
                    .seed(11));
        S3ObjectStore store =
            new S3ObjectStore(
                S3StoreOptions.builder()
                    .endpoint(proxy.endpoint())
                    .region(EmbeddedS3Server.REGION)
                    .pathStyleAccess(true)
                    .credentials(server.accessKey(), server.secretKey())
                    .maxConnections(4)
                    .maxRetries(10)
                    .build())) {
      for (int i = 0; i < 40; i++) {
        int offset = i * 1000;
        assertThat(store.readRange(OBJECT, offset, 512)).isEqualTo(slice(offset, 512));
      }
      long slowDowns = proxy.counters().slowDowns();
      long resets = proxy.counters().resets();
      assertThat(slowDowns).as("503 SlowDown answered by the proxy").isPositive();
      assertThat(resets).as("connections reset by the proxy").isPositive();
      StorageStats.Snapshot stats = store.stats().snapshot();
      assertThat(stats.getRequests()).isEqualTo(40);
      assertThat(stats.failedRequests()).isZero();
      // Each fault costs the read exactly one more attempt.
      assertThat(stats.retries()).isEqualTo(slowDowns + resets);
      assertThat(proxy.requestLog().requests())
          .filteredOn(request -> request.status() == 503)
          .hasSize((int) slowDowns);
    }
  }

  private static LatencyInjectingProxy startProxy(LatencyInjectingProxy.Builder builder)
      throws IOException {
    return start(builder.backend(server.endpoint()));
  }

  private static LatencyInjectingProxy start(LatencyInjectingProxy.Builder builder)
      throws IOException {
    LatencyInjectingProxy proxy = builder.build();
    proxy.start();
    return proxy;
  }

  private static S3ObjectStore store(LatencyInjectingProxy proxy) {
    return new S3ObjectStore(
        S3StoreOptions.builder()
            .endpoint(proxy.endpoint())
            .region(EmbeddedS3Server.REGION)
            .pathStyleAccess(true)
            .credentials(server.accessKey(), server.secretKey())
            .maxConnections(8)
            .maxRetries(0)
            .build());
  }

  private static byte[] slice(int offset, int length) {
    byte[] bytes = new byte[length];
    System.arraycopy(content, offset, bytes, 0, length);
    return bytes;
  }
}
