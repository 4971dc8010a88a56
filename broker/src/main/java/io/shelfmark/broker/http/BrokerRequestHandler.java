package io.shelfmark.broker.http;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
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
import io.shelfmark.broker.health.HealthMonitor;
import io.shelfmark.broker.query.QueryErrorCode;
import io.shelfmark.broker.query.QueryRequest;
import io.shelfmark.broker.query.QueryResponse;
import io.shelfmark.broker.table.TableAdminException;
import io.shelfmark.broker.table.TableStatus;
import java.net.URLDecoder;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Routes one HTTP request; query execution is handed to the query executor. */
final class BrokerRequestHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
  private static final Logger log = LoggerFactory.getLogger(BrokerRequestHandler.class);
  private static final String TABLES_PREFIX = "/tables/";

  private final BrokerRoutes routes;
  private final ExecutorService queryExecutor;

  BrokerRequestHandler(BrokerRoutes routes, ExecutorService queryExecutor) {
    this.routes = requireNonNull(routes, "routes is null");
    this.queryExecutor = requireNonNull(queryExecutor, "queryExecutor is null");
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
    String path = new QueryStringDecoder(request.uri()).path();
    boolean keepAlive = HttpUtil.isKeepAlive(request);
    if (path.equals("/query/sql")) {
      if (!request.method().equals(HttpMethod.POST)) {
        send(
            ctx,
            keepAlive,
            HttpResponseStatus.METHOD_NOT_ALLOWED,
            error("Use POST for /query/sql"));
        return;
      }
      handleQuery(ctx, keepAlive, request.content().toString(UTF_8));
      return;
    }
    if (path.equals("/tables") && request.method().equals(HttpMethod.POST)) {
      handleOnboard(ctx, keepAlive, request.content().toString(UTF_8));
      return;
    }
    if (!request.method().equals(HttpMethod.GET)) {
      send(ctx, keepAlive, HttpResponseStatus.METHOD_NOT_ALLOWED, error("Use GET for " + path));
      return;
    }
    if (path.equals("/health/liveness")) {
      // The process answers: what a supervisor that restarts dead processes needs to know.
      send(ctx, keepAlive, HttpResponseStatus.OK, Map.of("status", "OK", "roles", routes.roles()));
    } else if (path.equals("/health") || path.equals("/health/readiness")) {
      sendHealth(ctx, keepAlive);
    } else if (path.equals("/tables")) {
      send(ctx, keepAlive, HttpResponseStatus.OK, Map.of("tables", routes.tables().tables()));
    } else if (path.startsWith(TABLES_PREFIX)) {
      String name = URLDecoder.decode(path.substring(TABLES_PREFIX.length()), UTF_8);
      routes
          .tables()
          .table(name)
          .ifPresentOrElse(
              table -> send(ctx, keepAlive, HttpResponseStatus.OK, table),
              () ->
                  send(
                      ctx,
                      keepAlive,
                      HttpResponseStatus.NOT_FOUND,
                      error("Cannot find table: " + name + " (GET /tables lists served tables)")));
    } else {
      send(
          ctx,
          keepAlive,
          HttpResponseStatus.NOT_FOUND,
          error(
              "Cannot find "
                  + path
                  + " (endpoints: POST /query/sql, GET /health, GET /health/liveness, GET /tables,"
                  + " POST /tables, GET /tables/{name})"));
    }
  }

  /**
   * Readiness: started, and every dependency answered its last probe. {@code STARTING} while roles
   * start, {@code DEGRADED} while a dependency fails (queries over pinned segments may still be
   * answered, but anything that reads storage or the catalog will fail).
   */
  private void sendHealth(ChannelHandlerContext ctx, boolean keepAlive) {
    boolean started = routes.ready().get();
    boolean healthy = routes.health().healthy();
    String status = !started ? "STARTING" : healthy ? "OK" : "DEGRADED";
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
    body.put("status", status);
    body.put("roles", routes.roles());
    body.put("checks", checks);
    send(
        ctx,
        keepAlive,
        started && healthy ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE,
        body);
  }

  private void handleQuery(ChannelHandlerContext ctx, boolean keepAlive, String body) {
    String sql;
    Optional<Duration> timeout = Optional.empty();
    try {
      JsonNode json = JsonBodies.MAPPER.readTree(body);
      JsonNode sqlNode = json == null ? null : json.get("sql");
      if (sqlNode == null || !sqlNode.isTextual() || sqlNode.asText().isBlank()) {
        sendQueryFailure(
            ctx,
            keepAlive,
            "Cannot read query request: the body must be a JSON object with a non-empty \"sql\""
                + " string, e.g. {\"sql\": \"SELECT COUNT(*) FROM obs.metrics\"}");
        return;
      }
      sql = sqlNode.asText();
      timeout = QueryOptions.timeout(json.get("queryOptions"));
    } catch (QueryOptions.InvalidOptionException e) {
      sendQueryFailure(ctx, keepAlive, e.getMessage());
      return;
    } catch (JsonProcessingException e) {
      sendQueryFailure(
          ctx,
          keepAlive,
          "Cannot read query request: body is not valid JSON ("
              + e.getOriginalMessage()
              + "); send {\"sql\": \"...\"}");
      return;
    }
    long started = System.nanoTime();
    // A client that hangs up no longer wants the answer: the query stops at its next check.
    AtomicBoolean disconnected = new AtomicBoolean();
    ctx.channel().closeFuture().addListener(future -> disconnected.set(true));
    QueryRequest queryRequest =
        new QueryRequest(
            sql, Optional.of(timeout.orElse(routes.defaultTimeout())), disconnected::get);
    String requestId = ClientMessages.newRequestId();
    try {
      queryExecutor.execute(
          () -> {
            QueryResponse response;
            try {
              response =
                  ClientMessages.forClient(routes.queries().execute(queryRequest), requestId, sql);
            } catch (RuntimeException | Error e) {
              // The service contract forbids throwing; if it does (a StackOverflowError included),
              // it is a bug: say so, never leave the client without an answer.
              log.error("Query {} failed in the query service: {}", requestId, sql, e);
              response =
                  QueryResponse.failed(
                      QueryErrorCode.INTERNAL, ClientMessages.internalError(requestId));
            }
            long elapsedMs = (System.nanoTime() - started) / 1_000_000;
            sendBytes(
                ctx, keepAlive, HttpResponseStatus.OK, JsonBodies.queryBody(response, elapsedMs));
          });
    } catch (RejectedExecutionException e) {
      sendBytes(
          ctx,
          keepAlive,
          HttpResponseStatus.SERVICE_UNAVAILABLE,
          JsonBodies.queryBody(
              QueryResponse.failed(
                  QueryErrorCode.INTERNAL,
                  "Cannot execute query: the broker is shutting down or overloaded (retry later)"),
              0));
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

  private void sendQueryFailure(ChannelHandlerContext ctx, boolean keepAlive, String message) {
    sendBytes(
        ctx,
        keepAlive,
        HttpResponseStatus.BAD_REQUEST,
        JsonBodies.queryBody(QueryResponse.failed(QueryErrorCode.BAD_REQUEST, message), 0));
  }

  private static Map<String, Object> error(String message) {
    return Map.of("error", message);
  }

  private static void send(
      ChannelHandlerContext ctx, boolean keepAlive, HttpResponseStatus status, Object body) {
    sendBytes(ctx, keepAlive, status, JsonBodies.write(body));
  }

  private static void sendBytes(
      ChannelHandlerContext ctx, boolean keepAlive, HttpResponseStatus status, byte[] bytes) {
    FullHttpResponse response =
        new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(bytes));
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json; charset=utf-8");
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
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
