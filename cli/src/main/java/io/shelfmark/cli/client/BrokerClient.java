package io.shelfmark.cli.client;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The CLI's view of a running broker's HTTP API: queries, table listing and onboarding. Every
 * failure becomes a {@link BrokerClientException} whose message says what to check.
 */
public final class BrokerClient {
  /** Where {@code bin/shelfmark quickstart} and {@code all-in-one} serve by default. */
  public static final String DEFAULT_URL = "http://127.0.0.1:8099";

  // Answers of thousands of rows are mostly doubles: the fast (and exact) parser halves their cost.
  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER).build();

  private final URI base;
  private final HttpClient http;
  private final BrokerCredentials credentials;

  /** A client without credentials, trusting the JDK's certificate authorities for https. */
  public BrokerClient(String url) {
    this(url, BrokerCredentials.NONE, Optional.empty());
  }

  /**
   * @param credentials sent with every request
   * @param tls the trust for https URLs; empty: the JDK's default certificate authorities
   */
  public BrokerClient(String url, BrokerCredentials credentials, Optional<SSLContext> tls) {
    this.credentials = requireNonNull(credentials, "credentials is null");
    requireNonNull(tls, "tls is null");
    requireNonNull(url, "url is null");
    String trimmed = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    try {
      this.base = URI.create(trimmed);
    } catch (IllegalArgumentException e) {
      throw new BrokerClientException(
          "Cannot use broker URL " + url + ": " + e.getMessage() + " (e.g. " + DEFAULT_URL + ")");
    }
    if (base.getScheme() == null || base.getHost() == null) {
      throw new BrokerClientException(
          "Cannot use broker URL "
              + url
              + ": it needs a scheme and host (e.g. "
              + DEFAULT_URL
              + ")");
    }
    // The broker speaks HTTP/1.1: asking each new connection for an h2c upgrade only adds headers.
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5));
    tls.ifPresent(builder::sslContext);
    this.http = builder.build();
  }

  /**
   * An SSL context that trusts the certificates in a PEM file (a CA, or a self-signed server
   * certificate), for {@code --ca-cert}.
   */
  public static SSLContext trusting(Path pemFile) {
    requireNonNull(pemFile, "pemFile is null");
    try (InputStream in = Files.newInputStream(pemFile)) {
      KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
      trust.load(null, null);
      int index = 0;
      for (Certificate certificate :
          CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        trust.setCertificateEntry("ca-" + index++, certificate);
      }
      if (index == 0) {
        throw new BrokerClientException(
            "Cannot use " + pemFile + " as CA certificate: it holds no certificate (expected PEM)");
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw new BrokerClientException(
          "Cannot use " + pemFile + " as CA certificate: " + e.getMessage() + " (expected PEM)");
    }
  }

  /** {@code POST /query/sql}: the Pinot-shaped response, errors included (never thrown). */
  public JsonNode query(String sql, Optional<Duration> timeout) {
    return queryObserved(sql, timeout).body();
  }

  /**
   * A query's answer and the {@link System#nanoTime()} at which its last byte arrived, before the
   * JSON was parsed: what a client-observed latency ends at.
   */
  public record Answer(JsonNode body, long lastByteNanos) {}

  /**
   * As {@link #query}, with more {@code queryOptions} by name (e.g. {@code snapshotId}, {@code
   * asOfTimestamp}): sent as Pinot's {@code "name=value;..."} string, after {@code timeoutMs}.
   */
  public JsonNode query(String sql, Optional<Duration> timeout, Map<String, String> options) {
    return queryObserved(sql, timeout, options).body();
  }

  /** As {@link #query}, with the time the answer's last byte arrived. */
  public Answer queryObserved(String sql, Optional<Duration> timeout) {
    return queryObserved(sql, timeout, Map.of());
  }

  private Answer queryObserved(
      String sql, Optional<Duration> timeout, Map<String, String> options) {
    ObjectNode body = JSON.createObjectNode().put("sql", sql);
    List<String> pairs = new ArrayList<>();
    timeout.ifPresent(t -> pairs.add("timeoutMs=" + t.toMillis()));
    options.forEach((name, value) -> pairs.add(name + "=" + value));
    if (!pairs.isEmpty()) {
      body.put("queryOptions", String.join(";", pairs));
    }
    Duration wait = timeout.orElse(Duration.ofSeconds(10)).plusSeconds(30);
    Reply reply =
        send(
            HttpRequest.newBuilder(base.resolve("/query/sql"))
                .timeout(wait)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString(), UTF_8))
                .build());
    return new Answer(reply.body(), reply.lastByteNanos());
  }

  /**
   * The status of every served table, as an array: {@code GET /tables} (Pinot's list of names),
   * then {@code GET /tables/{name}/status} for each; a table dropped in between is left out.
   */
  public JsonNode tables() {
    ArrayNode statuses = JsonNodeFactory.instance.arrayNode();
    for (JsonNode name : expect(200, get("/tables")).body().path("tables")) {
      table(name.asText()).ifPresent(statuses::add);
    }
    return statuses;
  }

  /** {@code GET /tables/{name}/status}; empty when the broker does not serve that table. */
  public Optional<JsonNode> table(String name) {
    Reply reply = get("/tables/" + URLEncoder.encode(name, UTF_8) + "/status");
    if (reply.status() == 404) {
      return Optional.empty();
    }
    return Optional.of(expect(200, reply).body());
  }

  /** {@code POST /tables}: onboards a table config; returns the table's first status. */
  public JsonNode onboard(String tableConfig) {
    Reply reply =
        send(
            HttpRequest.newBuilder(base.resolve("/tables"))
                .timeout(Duration.ofMinutes(2))
                .header("Content-Type", "application/yaml")
                .POST(HttpRequest.BodyPublishers.ofString(tableConfig, UTF_8))
                .build());
    if (reply.status() == 400) {
      StringBuilder message = new StringBuilder(reply.body().path("error").asText("rejected"));
      for (JsonNode violation : reply.body().path("violations")) {
        message.append(System.lineSeparator()).append("  - ").append(violation.asText());
      }
      throw new BrokerClientException(message.toString());
    }
    return expect(202, reply).body();
  }

  /**
   * {@code DELETE /tables/{name}}: drops a table.
   *
   * @return false when the instance knew no such table
   */
  public boolean drop(String name) {
    Reply reply =
        send(
            HttpRequest.newBuilder(base.resolve("/tables/" + URLEncoder.encode(name, UTF_8)))
                .timeout(Duration.ofMinutes(1))
                .DELETE()
                .build());
    if (reply.status() == 404) {
      return false;
    }
    expect(200, reply);
    return true;
  }

  private Reply get(String path) {
    return send(
        HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30)).GET().build());
  }

  private Reply expect(int status, Reply reply) {
    if (reply.status() != status) {
      throw new BrokerClientException(
          "Cannot use the answer of "
              + base
              + ": HTTP "
              + reply.status()
              + " "
              + reply.body().path("error").asText(reply.body().toString()));
    }
    return reply;
  }

  private record Reply(int status, JsonNode body, long lastByteNanos) {}

  private HttpRequest authenticated(HttpRequest request) {
    Optional<String> header = credentials.header();
    if (header.isEmpty()) {
      return request;
    }
    return HttpRequest.newBuilder(request, (name, value) -> true)
        .header("Authorization", header.get())
        .build();
  }

  private String refusal(HttpResponse<byte[]> response) {
    String error;
    try {
      error = JSON.readTree(response.body()).path("error").asText("");
    } catch (IOException e) {
      error = "";
    }
    String hint =
        response.statusCode() == 401
            ? credentials instanceof BrokerCredentials.None
                ? "this broker requires credentials: pass --user NAME with "
                    + BrokerCredentials.PASSWORD_VARIABLE
                    + " set, or --token / "
                    + BrokerCredentials.TOKEN_VARIABLE
                : "check the user and password or the token"
            : "ask an administrator for the role or table";
    return "Refused by the broker at "
        + base
        + ": HTTP "
        + response.statusCode()
        + (error.isEmpty() ? "" : " " + error)
        + " ("
        + hint
        + ")";
  }

  private Reply send(HttpRequest unauthenticated) {
    HttpRequest request = authenticated(unauthenticated);
    HttpResponse<byte[]> response;
    long lastByte;
    try {
      // send returns once the whole body is in: the time of the last byte.
      response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
      lastByte = System.nanoTime();
    } catch (ConnectException e) {
      throw new BrokerClientException(
          "Cannot reach a Shelfmark broker at "
              + base
              + " (is it running? start one with `bin/shelfmark quickstart` or `bin/shelfmark"
              + " all-in-one --config FILE`, or pass --broker URL)");
    } catch (IOException e) {
      throw new BrokerClientException(
          "Cannot talk to the broker at " + base + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BrokerClientException("Interrupted while waiting for the broker at " + base);
    }
    if (response.statusCode() == 401 || response.statusCode() == 403) {
      throw new BrokerClientException(refusal(response));
    }
    try {
      return new Reply(response.statusCode(), JSON.readTree(response.body()), lastByte);
    } catch (IOException e) {
      throw new BrokerClientException(
          "Cannot read the answer of "
              + base
              + ": HTTP "
              + response.statusCode()
              + " with a body that is not JSON (is this a Shelfmark broker?)");
    }
  }
}
