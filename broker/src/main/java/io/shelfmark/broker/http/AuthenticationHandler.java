package io.shelfmark.broker.http;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.shelfmark.broker.auth.AuthOutcome;
import io.shelfmark.broker.auth.Authenticator;
import io.shelfmark.broker.auth.Principal;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Lets a request through to the request handler only with valid credentials, or when the node has
 * no users; {@code /health} and its liveness and readiness paths are always open, for probes. The
 * caller is attached to the channel just before the request is passed on, and the request handler
 * reads it at once (both in one event-loop task, so a later request on the connection cannot swap
 * it).
 *
 * <p>Password checks that need PBKDF2 run on {@code passwordChecks}, never on the event loop: a
 * flood of wrong passwords then queues there (and is refused with 503 once its queue is full)
 * instead of stalling every connection.
 */
final class AuthenticationHandler extends ChannelInboundHandlerAdapter {
  /** The caller of the request being handed on. */
  static final AttributeKey<Principal> PRINCIPAL = AttributeKey.valueOf("shelfmark.principal");

  /** Probes need no secret; they learn only whether the node is up and ready. */
  private static final Set<String> OPEN_PATHS =
      Set.of("/health", "/health/liveness", "/health/readiness");

  private static final List<String> CHALLENGES =
      List.of(
          "Basic realm=\"" + Authenticator.REALM + "\", charset=\"UTF-8\"",
          "Bearer realm=\"" + Authenticator.REALM + "\"");

  private final HttpSecurity security;
  private final Executor passwordChecks;

  AuthenticationHandler(HttpSecurity security, Executor passwordChecks) {
    this.security = requireNonNull(security, "security is null");
    this.passwordChecks = requireNonNull(passwordChecks, "passwordChecks is null");
  }

  /** The caller of the request being handled; the request handler asks once per request. */
  static Principal principal(ChannelHandlerContext ctx) {
    Principal principal = ctx.channel().attr(PRINCIPAL).get();
    // No handler set it: the pipeline has no authentication (unit tests of the handler alone).
    return principal == null ? Principal.UNAUTHENTICATED : principal;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object message) {
    if (!(message instanceof FullHttpRequest request)) {
      ctx.fireChannelRead(message);
      return;
    }
    Authenticator authenticator = security.authenticator();
    if (!authenticator.enabled() || isHealth(request)) {
      pass(ctx, request, Principal.UNAUTHENTICATED);
      return;
    }
    AuthOutcome outcome = authenticator.check(request.headers().get(HttpHeaderNames.AUTHORIZATION));
    if (outcome instanceof AuthOutcome.PasswordCheck check) {
      try {
        passwordChecks.execute(
            () -> {
              AuthOutcome verified = authenticator.verify(check);
              try {
                ctx.executor().execute(() -> finish(ctx, request, verified));
              } catch (RejectedExecutionException e) {
                // The server is closing: nobody will answer this request; free its buffer.
                ReferenceCountUtil.release(request);
              }
            });
      } catch (RejectedExecutionException e) {
        try {
          respond(
              ctx,
              request,
              HttpResponseStatus.SERVICE_UNAVAILABLE,
              "Cannot check the password now: too many logins are being checked (retry shortly)");
        } finally {
          ReferenceCountUtil.release(request);
        }
      }
      return;
    }
    finish(ctx, request, outcome);
  }

  private void finish(ChannelHandlerContext ctx, FullHttpRequest request, AuthOutcome outcome) {
    switch (outcome) {
      case AuthOutcome.Accepted accepted -> pass(ctx, request, accepted.principal());
      case AuthOutcome.Rejected rejected -> {
        security.failures().failed(client(ctx.channel().remoteAddress()), rejected.logDetail());
        try {
          respond(ctx, request, HttpResponseStatus.UNAUTHORIZED, rejected.message());
        } finally {
          ReferenceCountUtil.release(request);
        }
      }
      case AuthOutcome.PasswordCheck check ->
          throw new IllegalStateException("verify() answered another check: " + check);
    }
  }

  private static void pass(ChannelHandlerContext ctx, FullHttpRequest request, Principal caller) {
    ctx.channel().attr(PRINCIPAL).set(caller);
    ctx.fireChannelRead(request);
  }

  private static boolean isHealth(FullHttpRequest request) {
    return OPEN_PATHS.contains(new QueryStringDecoder(request.uri()).path());
  }

  private static void respond(
      ChannelHandlerContext ctx,
      FullHttpRequest request,
      HttpResponseStatus status,
      String message) {
    byte[] bytes = JsonBodies.write(Map.of("error", message, "code", status.code()));
    FullHttpResponse response =
        new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(bytes));
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json; charset=utf-8");
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
    if (status == HttpResponseStatus.UNAUTHORIZED) {
      response.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, CHALLENGES);
    }
    if (HttpUtil.isKeepAlive(request)) {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
      ctx.writeAndFlush(response);
    } else {
      ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }
  }

  private static String client(SocketAddress address) {
    if (address instanceof InetSocketAddress inet) {
      return inet.getAddress().getHostAddress() + ":" + inet.getPort();
    }
    return String.valueOf(address);
  }
}
