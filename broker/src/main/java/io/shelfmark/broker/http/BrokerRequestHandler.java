package io.shelfmark.broker.http;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.net.HostAndPort;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.shelfmark.broker.auth.Principal;
import io.shelfmark.broker.console.ConsoleAssets;
import io.shelfmark.broker.health.HealthMonitor;
import io.shelfmark.broker.query.QueryError;
import io.shelfmark.broker.query.QueryErrorCode;
import io.shelfmark.broker.query.QueryRequest;
import io.shelfmark.broker.query.QueryResponse;
import io.shelfmark.broker.table.TableAdminException;
import io.shelfmark.broker.table.TableDirectory;
import io.shelfmark.broker.table.TableStatus;
import io.shelfmark.catalog.snapshot.SnapshotSelector;
import io.shelfmark.config.security.UserRole;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Routes one HTTP request; query execution is handed to the query executor. */
final class BrokerRequestHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
  private static final Logger log = LoggerFactory.getLogger(BrokerRequestHandler.class);
  private static final String TABLES_PREFIX = "/tables/";
  private static final String LIVE_BROKERS = "/tables/livebrokers";
  private static final String TENANT_BROKERS = "/v2/brokers/tenants/";
  private static final String DATABASE_HEADER = "database";

  /** Pinot's name for "no database": its clients send it, or nothing, to mean unqualified names. */
  private static final String DEFAULT_DATABASE = "default";

  /** The console's files are the same for every connection; read once per process. */
  private static final ConsoleAssets CONSOLE = new ConsoleAssets();

  private final BrokerRoutes routes;
  private final ExecutorService queryExecutor;
  private final AtomicLong requestIds;

  /**
   * @param requestIds numbers the queries of the whole server (each answer's {@code requestId})
   */
  BrokerRequestHandler(BrokerRoutes routes, ExecutorService queryExecutor, AtomicLong requestIds) {
    this.routes = requireNonNull(routes, "routes is null");
    this.queryExecutor = requireNonNull(queryExecutor, "queryExecutor is null");
    this.requestIds = requireNonNull(requestIds, "requestIds is null");
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
    // Read first: set by the authentication handler for this request alone.
    Principal caller = AuthenticationHandler.principal(ctx);
    // Every endpoint that names tables answers from this view: tables the caller may not read are
    // absent from it.
    TableDirectory tables = Permissions.visible(caller, routes.tables());
    String path = new QueryStringDecoder(request.uri()).path();
    if (path.length() > 1 && path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    boolean keepAlive = HttpUtil.isKeepAlive(request);
    HttpMethod method = request.method();
    // HEAD is answered as GET without the body (Grafana probes endpoints with HEAD).
    boolean head = method.equals(HttpMethod.HEAD);
    Responder responder = new Responder(ctx, keepAlive, head);
    Optional<String> database = database(request);
    if (path.equals("/query/sql") || path.equals("/query")) {
      // POST /query is Pinot's multi-stage endpoint; Shelfmark has one engine and answers both.
      if (!method.equals(HttpMethod.POST)) {
        responder.send(HttpResponseStatus.METHOD_NOT_ALLOWED, error("Use POST for " + path));
        return;
      }
      handleQuery(ctx, keepAlive, request.content().toString(UTF_8), database, caller);
      return;
    }
    if (path.equals("/tables") && method.equals(HttpMethod.POST)) {
      if (!caller.has(UserRole.ADMIN)) {
        responder.send(
            HttpResponseStatus.FORBIDDEN, Permissions.adminNeeded(caller, "onboard a table"));
        return;
      }
      handleOnboard(ctx, keepAlive, request.content().toString(UTF_8));
      return;
    }
    if (path.startsWith(TABLES_PREFIX) && method.equals(HttpMethod.DELETE)) {
      if (!caller.has(UserRole.ADMIN)) {
        responder.send(
            HttpResponseStatus.FORBIDDEN, Permissions.adminNeeded(caller, "drop a table"));
        return;
      }
      handleDrop(ctx, keepAlive, path.substring(TABLES_PREFIX.length()));
      return;
    }
    if (ConsoleAssets.owns(path)) {
      sendConsole(responder, method, head, path);
      return;
    }
    Optional<Object> body = getBody(ctx, request, path, database, caller, tables);
    if (body.isEmpty()) {
      // Unknown paths answer 404 whatever the method: clients fall back to another endpoint on a
      // 404 (Grafana's plugin on HEAD /mytables), never on a 405.
      responder.send(
          HttpResponseStatus.NOT_FOUND,
          error(
              "Cannot find "
                  + path
                  + " (endpoints: POST /query/sql, POST /query, GET /health, GET /health/liveness,"
                  + " GET /metrics, GET /nodes, GET /tables,"
                  + " POST /tables, GET /tables/{name}, DELETE /tables/{name},"
                  + " GET /tables/{name}/schema,"
                  + " GET /tables/{name}/metadata, GET /tables/{name}/status,"
                  + " GET /tables/livebrokers, GET /v2/brokers/tenants/{tenant}, GET /databases;"
                  + " the web console at GET /)"));
      return;
    }
    if (!method.equals(HttpMethod.GET) && !head) {
      responder.send(HttpResponseStatus.METHOD_NOT_ALLOWED, error("Use GET for " + path));
      return;
    }
    if (body.get() instanceof Answer answer) {
      responder.send(answer.status(), answer.body());
    } else if (body.get() instanceof MetricsEndpoint.Scrape scrape) {
      responder.sendText(scrape.contentType(), scrape.body());
    } else {
      responder.send(HttpResponseStatus.OK, body.get());
    }
  }

  /**
   * The web console's files. Behind the same authentication as every other path: with users
   * configured, the browser asks for them (HTTP Basic) and sends them with the console's own API
   * calls.
   */
  private void sendConsole(Responder responder, HttpMethod method, boolean head, String path) {
    Optional<ConsoleAssets.Asset> asset = CONSOLE.asset(path);
    if (asset.isEmpty()) {
      responder.send(
          HttpResponseStatus.NOT_FOUND,
          error("Cannot find " + path + " (the web console is at /, its files below /console/)"));
      return;
    }
    if (!method.equals(HttpMethod.GET) && !head) {
      responder.send(HttpResponseStatus.METHOD_NOT_ALLOWED, error("Use GET for " + path));
      return;
    }
    responder.sendAsset(asset.get());
  }

  /** A body with a status other than 200. */
  private record Answer(HttpResponseStatus status, Object body) {}

  /**
   * Readiness: started, and every dependency answered its last probe. {@code STARTING} while roles
   * start, {@code DEGRADED} while a dependency fails (queries over pinned segments may still be
   * answered, but anything that reads storage or the catalog will fail).
   */
  private Answer health() {
    boolean started = routes.ready().get();
    boolean healthy = routes.health().healthy();
    Map<String, Object> checks = new LinkedHashMap<>();
    for (HealthMonitor.Check check : routes.health().checks()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("status", check.status());
      if (!check.detail().isEmpty()) {
        entry.put("detail", check.detail());
      }
      entry.put("latencyMs", check.latencyMs());
      if (check.checkedAt() != null) {
        entry.put("checkedAt", check.checkedAt().toString());
      }
      checks.put(check.name(), entry);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", !started ? "STARTING" : healthy ? "OK" : "DEGRADED");
    body.put("roles", routes.roles());
    body.put("checks", checks);
    return new Answer(
        started && healthy ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE, body);
  }

  /**
   * What a GET of {@code path} answers; empty when the path is not an endpoint. Cheap: every answer
   * comes from memory.
   */
  private Optional<Object> getBody(
      ChannelHandlerContext ctx,
      FullHttpRequest request,
      String path,
      Optional<String> database,
      Principal caller,
      TableDirectory tables) {
    if (path.equals("/health/liveness")) {
      // The process answers: what a supervisor that restarts dead processes needs to know.
      return Optional.of(Map.of("status", "OK", "roles", routes.roles()));
    }
    if (path.equals("/health") || path.equals("/health/readiness")) {
      return Optional.of(health());
    }
    if (path.equals("/metrics")) {
      if (!caller.readsEverything()) {
        // Its labels name every served table.
        return Optional.of(
            new Answer(
                HttpResponseStatus.FORBIDDEN,
                Permissions.allTablesNeeded(
                    caller, "read /metrics (its labels name every table)")));
      }
      MetricsEndpoint.Scrape scrape =
          routes.metrics().scrape(request.headers().get(HttpHeaderNames.ACCEPT, ""));
      return scrape == null ? Optional.empty() : Optional.of(scrape);
    }
    if (path.equals("/nodes")) {
      return Optional.of(Map.of("nodes", routes.nodes().nodes()));
    }
    if (path.equals("/tables")) {
      List<String> names = new ArrayList<>();
      for (TableStatus table : tables.tables()) {
        if (database.isEmpty() || namespace(table.name()).equals(database.get())) {
          names.add(table.name());
        }
      }
      return Optional.of(Map.of("tables", names));
    }
    if (path.equals("/databases")) {
      return Optional.of(
          tables.tables().stream()
              .map(table -> namespace(table.name()))
              .filter(namespace -> !namespace.isEmpty())
              .distinct()
              .sorted()
              .toList());
    }
    if (path.equals(LIVE_BROKERS)) {
      Map<String, Object> byTable = new LinkedHashMap<>();
      List<Object> brokers = List.of(self(ctx, request));
      for (TableStatus table : tables.tables()) {
        byTable.put(table.name(), brokers);
      }
      return Optional.of(byTable);
    }
    if (path.startsWith(TENANT_BROKERS) && path.indexOf('/', TENANT_BROKERS.length()) < 0) {
      return Optional.of(List.of(self(ctx, request)));
    }
    if (!path.startsWith(TABLES_PREFIX)) {
      return Optional.empty();
    }
    String[] parts = path.substring(TABLES_PREFIX.length()).split("/", -1);
    if (parts.length > 2 || parts[0].isEmpty()) {
      return Optional.empty();
    }
    String written = URLDecoder.decode(parts[0], UTF_8);
    String view = parts.length == 2 ? parts[1] : "";
    if (!List.of("", "schema", "metadata", "status").contains(view)) {
      return Optional.empty();
    }
    Optional<TableStatus> status = resolveTable(tables, written, database);
    if (status.isEmpty()) {
      return Optional.of(
          new Answer(
              HttpResponseStatus.NOT_FOUND,
              error(
                  "Cannot find table: "
                      + written
                      + database.map(db -> " in database " + db).orElse("")
                      + " (GET /tables lists served tables)")));
    }
    String name = status.get().name();
    return Optional.of(
        switch (view) {
          case "status" -> status.get();
          case "metadata" -> PinotMetadata.tableMetadata(status.get());
          case "schema" ->
              tables
                  .schema(name)
                  .<Object>map(PinotMetadata::schema)
                  .orElseGet(
                      () ->
                          new Answer(
                              HttpResponseStatus.NOT_FOUND,
                              error("Cannot find the schema of table: " + name)));
          default -> PinotMetadata.tableConfig(status.get(), tables.schema(name));
        });
  }

  /**
   * The table a path names: with a database, a one-part name is first taken in that namespace
   * (pinotdb and Grafana list {@code obs.metrics} as {@code metrics} and send {@code database:
   * obs}); then the name as written.
   */
  private static Optional<TableStatus> resolveTable(
      TableDirectory tables, String written, Optional<String> database) {
    if (database.isPresent() && written.indexOf('.') < 0) {
      Optional<TableStatus> inDatabase = tables.table(database.get() + "." + written);
      if (inDatabase.isPresent()) {
        return inDatabase;
      }
    }
    return tables.table(written);
  }

  /** The namespace of {@code obs.metrics}: {@code obs}; empty for a name without one. */
  private static String namespace(String tableName) {
    int dot = tableName.lastIndexOf('.');
    return dot < 0 ? "" : tableName.substring(0, dot);
  }

  /** Pinot's {@code database} header: the namespace unqualified table names resolve in. */
  private static Optional<String> database(FullHttpRequest request) {
    String value = request.headers().get(DATABASE_HEADER);
    return value == null || value.isBlank() || value.equals(DEFAULT_DATABASE)
        ? Optional.empty()
        : Optional.of(value.strip());
  }

  /**
   * This broker as clients should reach it: the host they used (the request's Host header) and the
   * port they connected to. A broker bound to 0.0.0.0 has no better name for itself.
   */
  private static Map<String, Object> self(ChannelHandlerContext ctx, FullHttpRequest request) {
    InetSocketAddress local = (InetSocketAddress) ctx.channel().localAddress();
    String host = local.getHostString();
    String hostHeader = request.headers().get(HttpHeaderNames.HOST);
    if (hostHeader != null && !hostHeader.isBlank()) {
      host = HostAndPort.fromString(hostHeader.strip()).getHost();
    }
    return PinotMetadata.broker(host, local.getPort());
  }

  private void handleQuery(
      ChannelHandlerContext ctx,
      boolean keepAlive,
      String body,
      Optional<String> database,
      Principal caller) {
    long requestId = requestIds.incrementAndGet();
    InetSocketAddress local = (InetSocketAddress) ctx.channel().localAddress();
    String brokerId = PinotMetadata.brokerId(local.getHostString(), local.getPort());
    String sql;
    Optional<Duration> timeout = Optional.empty();
    boolean allowPartialResults = false;
    Optional<SnapshotSelector> snapshot = Optional.empty();
    Map<String, String> engine = Map.of();
    try {
      JsonNode json = JsonBodies.MAPPER.readTree(body);
      JsonNode sqlNode = json == null ? null : json.get("sql");
      if (sqlNode == null || !sqlNode.isTextual() || sqlNode.asText().isBlank()) {
        sendQueryFailure(
            ctx,
            keepAlive,
            requestId,
            brokerId,
            "Cannot read query request: the body must be a JSON object with a non-empty \"sql\""
                + " string, e.g. {\"sql\": \"SELECT COUNT(*) FROM obs.metrics\"}");
        return;
      }
      sql = sqlNode.asText();
      timeout = QueryOptions.timeout(json.get("queryOptions"));
      allowPartialResults = QueryOptions.allowPartialResults(json.get("queryOptions"));
      snapshot = QueryOptions.snapshot(json.get("queryOptions"));
      engine = QueryOptions.engine(json.get("queryOptions"));
    } catch (QueryOptions.InvalidOptionException e) {
      sendQueryFailure(ctx, keepAlive, requestId, brokerId, e.getMessage());
      return;
    } catch (JsonProcessingException e) {
      sendQueryFailure(
          ctx,
          keepAlive,
          requestId,
          brokerId,
          "Cannot read query request: body is not valid JSON ("
              + e.getOriginalMessage()
              + "); send {\"sql\": \"...\"}");
      return;
    }
    long started = System.nanoTime();
    // A client that hangs up no longer wants the answer: the query stops at its next check.
    AtomicBoolean disconnected = new AtomicBoolean();
    ctx.channel().closeFuture().addListener(future -> disconnected.set(true));
    Duration allowed = timeout.orElse(routes.defaultTimeout());
    // The id the answer's requestId field carries is the one scrubbed messages and the log name.
    String logId = Long.toString(requestId);
    boolean partial = allowPartialResults;
    Optional<SnapshotSelector> asked = snapshot;
    Map<String, String> engineOptions = engine;
    try {
      queryExecutor.execute(
          () -> {
            QueryResponse response;
            try {
              // The timeout runs from the request's arrival: time waiting for a query thread
              // counts against it, as time queued for admission does.
              Duration remaining = allowed.minusNanos(System.nanoTime() - started);
              QueryResponse answer =
                  remaining.isPositive()
                      ? routes
                          .queries()
                          .execute(
                              new QueryRequest(
                                  sql,
                                  Optional.of(remaining),
                                  disconnected::get,
                                  database,
                                  caller,
                                  partial,
                                  asked,
                                  engineOptions))
                      : QueryResponse.failed(
                          QueryErrorCode.TIMEOUT,
                          "Cannot run the query: its timeout of %d ms passed before it started (retry later)"
                              .formatted(allowed.toMillis()));
              response = ClientMessages.forClient(answer, logId, sql);
            } catch (RuntimeException | Error e) {
              // The service contract forbids throwing; if it does (a StackOverflowError included),
              // it is a bug: say so, never leave the client without an answer.
              log.error("Query {} failed in the query service: {}", logId, sql, e);
              response =
                  QueryResponse.failed(
                      QueryErrorCode.INTERNAL, ClientMessages.internalError(logId));
            }
            long elapsedMs = (System.nanoTime() - started) / 1_000_000;
            sendBytes(
                ctx,
                keepAlive,
                false,
                statusOf(response),
                JsonBodies.queryBody(response, elapsedMs, requestId, brokerId));
          });
    } catch (RejectedExecutionException e) {
      sendBytes(
          ctx,
          keepAlive,
          false,
          HttpResponseStatus.SERVICE_UNAVAILABLE,
          JsonBodies.queryBody(
              QueryResponse.failed(
                  QueryErrorCode.UNAVAILABLE,
                  "Cannot execute query: the broker is shutting down (retry on another broker)"),
              0,
              requestId,
              brokerId));
    }
  }

  /**
   * 200 for every answer and query error (Pinot's convention: the error is in the body), except a
   * query refused by admission: 429, so that clients and load balancers back off and retry.
   */
  private static HttpResponseStatus statusOf(QueryResponse response) {
    for (QueryError error : response.errors()) {
      if (error.code() == QueryErrorCode.TOO_MANY_QUERIES) {
        return HttpResponseStatus.TOO_MANY_REQUESTS;
      }
    }
    return HttpResponseStatus.OK;
  }

  /** {@code DELETE /tables/{name}}: 200 with {@code dropped}, 404 when no such table. */
  private void handleDrop(ChannelHandlerContext ctx, boolean keepAlive, String name) {
    if (routes.admin().isEmpty()) {
      send(
          ctx,
          keepAlive,
          HttpResponseStatus.METHOD_NOT_ALLOWED,
          error(
              "Cannot drop a table here: this process runs "
                  + routes.roles()
                  + ", not the controller (send the request to the controller's address)"));
      return;
    }
    // Dropping writes the cluster state: keep it off the event loop.
    try {
      queryExecutor.execute(
          () -> {
            try {
              if (routes.admin().get().drop(name)) {
                send(ctx, keepAlive, HttpResponseStatus.OK, Map.of("dropped", name));
              } else {
                send(
                    ctx,
                    keepAlive,
                    HttpResponseStatus.NOT_FOUND,
                    error(
                        "Cannot drop table "
                            + name
                            + ": no such table (GET /tables lists served tables)"));
              }
            } catch (TableAdminException e) {
              send(ctx, keepAlive, HttpResponseStatus.SERVICE_UNAVAILABLE, error(e.getMessage()));
            } catch (UnsupportedOperationException e) {
              send(ctx, keepAlive, HttpResponseStatus.METHOD_NOT_ALLOWED, error(e.getMessage()));
            } catch (RuntimeException | Error e) {
              String requestId = ClientMessages.newRequestId();
              log.error("Dropping {} failed", requestId, e);
              send(
                  ctx,
                  keepAlive,
                  HttpResponseStatus.INTERNAL_SERVER_ERROR,
                  error(
                      "Cannot drop the table: internal error (request id "
                          + requestId
                          + "; the log has the details)"));
            }
          });
    } catch (RejectedExecutionException e) {
      send(
          ctx,
          keepAlive,
          HttpResponseStatus.SERVICE_UNAVAILABLE,
          error("Cannot drop the table: the process is shutting down or overloaded"));
    }
  }

  private void handleOnboard(ChannelHandlerContext ctx, boolean keepAlive, String body) {
    if (routes.admin().isEmpty()) {
      send(
          ctx,
          keepAlive,
          HttpResponseStatus.METHOD_NOT_ALLOWED,
          error(
              "Cannot onboard a table here: this process runs "
                  + routes.roles()
                  + ", not the controller (send the table config to the controller's address)"));
      return;
    }
    if (body.isBlank()) {
      send(
          ctx,
          keepAlive,
          HttpResponseStatus.BAD_REQUEST,
          error("Cannot onboard a table: the request body is empty (send a table config)"));
      return;
    }
    // Onboarding reads the catalog: keep it off the event loop.
    try {
      queryExecutor.execute(
          () -> {
            try {
              TableStatus status = routes.admin().get().onboard(body);
              send(ctx, keepAlive, HttpResponseStatus.ACCEPTED, status);
            } catch (TableAdminException e) {
              Map<String, Object> failure = new LinkedHashMap<>();
              failure.put("error", e.getMessage());
              failure.put("violations", e.violations());
              send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, failure);
            } catch (RuntimeException | Error e) {
              // Answered even for an Error; the cause (paths, endpoints) stays in the log.
              String requestId = ClientMessages.newRequestId();
              log.error("Onboarding {} failed", requestId, e);
              send(
                  ctx,
                  keepAlive,
                  HttpResponseStatus.INTERNAL_SERVER_ERROR,
                  error(
                      "Cannot onboard the table: internal error (request id "
                          + requestId
                          + "; the log has the details)"));
            }
          });
    } catch (RejectedExecutionException e) {
      send(
          ctx,
          keepAlive,
          HttpResponseStatus.SERVICE_UNAVAILABLE,
          error("Cannot onboard the table: the process is shutting down or overloaded"));
    }
  }

  private void sendQueryFailure(
      ChannelHandlerContext ctx,
      boolean keepAlive,
      long requestId,
      String brokerId,
      String message) {
    sendBytes(
        ctx,
        keepAlive,
        false,
        HttpResponseStatus.BAD_REQUEST,
        JsonBodies.queryBody(
            QueryResponse.failed(QueryErrorCode.BAD_REQUEST, message), 0, requestId, brokerId));
  }

  /** Sends answers to one request; for HEAD, the headers without the body. */
  private record Responder(ChannelHandlerContext ctx, boolean keepAlive, boolean head) {
    void send(HttpResponseStatus status, Object body) {
      sendBytes(ctx, keepAlive, head, status, JsonBodies.write(body));
    }

    void sendText(String contentType, String body) {
      sendBytes(ctx, keepAlive, head, HttpResponseStatus.OK, contentType, body.getBytes(UTF_8));
    }

    void sendAsset(ConsoleAssets.Asset asset) {
      FullHttpResponse response =
          response(HttpResponseStatus.OK, head, asset.contentType(), asset.body());
      // The console runs its own scripts and styles only, and never inside another site's frame.
      response
          .headers()
          .set(
              "Content-Security-Policy",
              "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
          .set("X-Content-Type-Options", "nosniff")
          .set(HttpHeaderNames.CACHE_CONTROL, "no-cache");
      write(ctx, keepAlive, response);
    }
  }

  private static Map<String, Object> error(String message) {
    return Map.of("error", message);
  }

  private static void send(
      ChannelHandlerContext ctx, boolean keepAlive, HttpResponseStatus status, Object body) {
    sendBytes(ctx, keepAlive, false, status, JsonBodies.write(body));
  }

  private static void sendBytes(
      ChannelHandlerContext ctx,
      boolean keepAlive,
      boolean head,
      HttpResponseStatus status,
      byte[] bytes) {
    sendBytes(ctx, keepAlive, head, status, "application/json; charset=utf-8", bytes);
  }

  private static void sendBytes(
      ChannelHandlerContext ctx,
      boolean keepAlive,
      boolean head,
      HttpResponseStatus status,
      String contentType,
      byte[] bytes) {
    write(ctx, keepAlive, response(status, head, contentType, bytes));
  }

  private static FullHttpResponse response(
      HttpResponseStatus status, boolean head, String contentType, byte[] bytes) {
    FullHttpResponse response =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1,
            status,
            head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(bytes));
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
    return response;
  }

  private static void write(
      ChannelHandlerContext ctx, boolean keepAlive, FullHttpResponse response) {
    if (keepAlive) {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
      ctx.writeAndFlush(response);
    } else {
      ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof java.io.IOException || !ctx.channel().isActive()) {
      log.debug("Closing HTTP connection after error", cause);
      ctx.close();
      return;
    }
    // A bug while routing: answer it rather than drop the connection without a word.
    String requestId = ClientMessages.newRequestId();
    log.error("Request {} failed while routing", requestId, cause);
    HttpErrors.sendAndClose(
        ctx,
        HttpResponseStatus.INTERNAL_SERVER_ERROR,
        "Cannot handle request: internal error (request id "
            + requestId
            + "; the broker's log has the details)");
  }
}
