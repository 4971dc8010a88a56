package io.shelfmark.broker.http;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.broker.auth.Authenticator;
import io.shelfmark.broker.auth.FailureLog;
import io.shelfmark.broker.auth.Principal;
import io.shelfmark.broker.query.QueryRequest;
import io.shelfmark.broker.query.RefusingQueryService;
import io.shelfmark.broker.table.TableStatus;
import io.shelfmark.config.security.PasswordHash;
import io.shelfmark.config.security.SecurityConfig;
import io.shelfmark.config.security.TablePattern;
import io.shelfmark.config.security.UserConfig;
import io.shelfmark.config.security.UserRole;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The authentication handler in a real pipeline over plain HTTP, with a stub query service. */
class TestAuthenticationHandler {
  private static final String PASSWORD = "pw-of-reader";

  private final ExecutorService executor = Executors.newFixedThreadPool(4);
  private final AtomicReference<QueryRequest> lastRequest = new AtomicReference<>();
  private final List<String> logged = new CopyOnWriteArrayList<>();
  private final HttpClient client = HttpClient.newHttpClient();
  private BrokerHttpServer server;
  private String base;

  @BeforeEach
  void start() throws Exception {
    SecurityConfig security =
        new SecurityConfig(
            List.of(
                new UserConfig(
                    "reader",
                    Optional.of(PasswordHash.create(PASSWORD.toCharArray(), 10_000)),
                    Optional.empty(),
                    EnumSet.of(UserRole.QUERY),
                    List.of(new TablePattern("obs.*")))),
            Optional.empty());
    server =
        new BrokerHttpServer(
            new BrokerRoutes(
                request -> {
                  lastRequest.set(request);
                  return new RefusingQueryService().execute(request);
                },
                () -> List.of(status("hr.payroll"), status("obs.metrics")),
                Optional.of(body -> status("obs.metrics")),
                List.of("controller", "broker"),
                () -> true,
                Duration.ofSeconds(7)),
            new HttpSecurity(
                new Authenticator(security),
                Optional.empty(),
                new FailureLog(100, Duration.ofMinutes(1), System::nanoTime, logged::add)));
    base = "http://127.0.0.1:" + server.start("127.0.0.1", 0, executor);
  }

  @AfterEach
  void stop() {
    server.close();
    executor.shutdownNow();
  }

  @Test
  void theCallersAccessReachesTheQueryService() throws Exception {
    HttpResponse<String> response =
        send(
            HttpRequest.newBuilder(URI.create(base + "/query/sql"))
                .header("Authorization", basic("reader", PASSWORD))
                .POST(HttpRequest.BodyPublishers.ofString("{\"sql\": \"SELECT 1\"}")));
    assertThat(response.statusCode()).isEqualTo(200);
    Principal caller = (Principal) lastRequest.get().access();
    assertThat(caller.name()).isEqualTo("reader");
    assertThat(caller.canRead("obs.metrics")).isTrue();
    assertThat(caller.canRead("hr.payroll")).isFalse();
  }

  @Test
  void aRejectedRequestLeavesTheConnectionUsable() throws Exception {
    // One client, so the JDK reuses its keep-alive connection for the second request.
    assertThat(send(get("/tables")).statusCode()).isEqualTo(401);
    HttpResponse<String> listed =
        send(get("/tables").header("Authorization", basic("reader", PASSWORD)));
    assertThat(listed.statusCode()).isEqualTo(200);
    assertThat(listed.body()).contains("obs.metrics").doesNotContain("hr.payroll");
    assertThat(send(get("/tables/hr.payroll").header("Authorization", basic("reader", PASSWORD))))
        .extracting(HttpResponse::statusCode)
        .isEqualTo(404);
    assertThat(logged)
        .containsExactly("Failed authentication from " + clientOf(logged) + ": no credentials");
  }

  @Test
  void everyEndpointThatNamesTablesLeavesOutTheUnreadableOnes() throws Exception {
    String reader = basic("reader", PASSWORD);
    assertThat(send(get("/databases").header("Authorization", reader)).body())
        .isEqualTo("[\"obs\"]");
    assertThat(send(get("/tables/livebrokers").header("Authorization", reader)).body())
        .contains("obs.metrics")
        .doesNotContain("hr.payroll");
    for (String path :
        List.of(
            "/tables/hr.payroll/schema",
            "/tables/hr.payroll/metadata",
            "/tables/hr.payroll/status")) {
      HttpResponse<String> response = send(get(path).header("Authorization", reader));
      assertThat(response.statusCode()).as(path).isEqualTo(404);
    }
    // Metrics label every table: only a user who may read them all sees them.
    HttpResponse<String> metrics = send(get("/metrics").header("Authorization", reader));
    assertThat(metrics.statusCode()).isEqualTo(403);
    assertThat(metrics.body()).contains("may read only some tables");
  }

  @Test
  void concurrentLoginsOfOneUserAllPass() throws Exception {
    List<Future<Integer>> statuses = new ArrayList<>();
    try (ExecutorService clients = Executors.newFixedThreadPool(8)) {
      for (int i = 0; i < 16; i++) {
        statuses.add(
            clients.submit(
                () ->
                    send(get("/tables").header("Authorization", basic("reader", PASSWORD)))
                        .statusCode()));
      }
      for (Future<Integer> status : statuses) {
        assertThat(status.get()).isEqualTo(200);
      }
    }
  }

  @Test
  void theWebConsoleNeedsCredentialsLikeTheApi() throws Exception {
    // The browser shows its login prompt on the Basic challenge, then sends the user with the
    // console's own API calls.
    HttpResponse<String> refused = send(get("/"));
    assertThat(refused.statusCode()).isEqualTo(401);
    assertThat(refused.headers().allValues("WWW-Authenticate"))
        .anySatisfy(challenge -> assertThat(challenge).startsWith("Basic realm=\"shelfmark\""));
    assertThat(send(get("/console/console.js")).statusCode()).isEqualTo(401);
    HttpResponse<String> page = send(get("/").header("Authorization", basic("reader", PASSWORD)));
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("<title>Shelfmark console</title>");
  }

  @Test
  void probesNeedNoCredentials() throws Exception {
    for (String path : List.of("/health", "/health/liveness", "/health/readiness")) {
      assertThat(send(get(path)).statusCode()).as(path).isEqualTo(200);
    }
    // Only those exact paths: anything under them is an ordinary, authenticated request.
    assertThat(send(get("/health/../tables")).statusCode()).isEqualTo(401);
    assertThat(send(get("/healthz")).statusCode()).isEqualTo(401);
  }

  @Test
  void theQueryRoleCannotOnboard() throws Exception {
    HttpResponse<String> response =
        send(
            HttpRequest.newBuilder(URI.create(base + "/tables"))
                .header("Authorization", basic("reader", PASSWORD))
                .POST(HttpRequest.BodyPublishers.ofString("table: {}")));
    assertThat(response.statusCode()).isEqualTo(403);
    assertThat(response.body()).contains("user reader does not have the admin role");
  }

  private HttpRequest.Builder get(String path) {
    return HttpRequest.newBuilder(URI.create(base + path)).GET();
  }

  private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String clientOf(List<String> lines) {
    String line = lines.getFirst();
    return line.substring("Failed authentication from ".length(), line.indexOf(": "));
  }

  private static String basic(String user, String password) {
    return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(UTF_8));
  }

  private static TableStatus status(String name) {
    return new TableStatus(
        name, TableStatus.SERVING, 42L, 3, 1000, 123_456, 0, 0, 0, 0, 0, 0, "done", List.of());
  }
}
