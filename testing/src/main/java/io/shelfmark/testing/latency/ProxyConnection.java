package io.shelfmark.testing.latency;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection through the proxy and its own connection to the backend (1:1, so keep-alive
 * works as the client expects and requests on one connection stay in order).
 *
 * <p>Requests are forwarded as soon as they arrive. Each response message (a 100 Continue as well
 * as the final answer) is held until the injected latency has passed since the exchange's latest
 * request byte arrived, then paced to the bandwidth cap if there is one. All state is touched only
 * on the client channel's event loop, which the backend channel shares.
 */
final class ProxyConnection extends ChannelInboundHandlerAdapter {
  private static final Logger log = LoggerFactory.getLogger(ProxyConnection.class);

  // Stop reading from the backend while this much response data waits to be released or paced.
  private static final long HIGH_WATER_BYTES = 1 << 20;
  private static final long LOW_WATER_BYTES = 256 << 10;

  private final LatencyInjectingProxy proxy;
  private final SplittableRandom jitterRandom;
  private final SplittableRandom faultRandom;
  private final ArrayDeque<Exchange> exchanges = new ArrayDeque<>();
  private final ArrayDeque<Outbound> outbound = new ArrayDeque<>();
  private final List<HttpObject> beforeConnect = new ArrayList<>();

  private Channel client;
  private Channel backend;
  private Throwable connectFailure;
  private boolean backendClosed;
  private boolean drainScheduled;
  private boolean informationalResponse;
  // The rest of a request the proxy answered itself: read and dropped, never forwarded.
  private boolean droppingRequest;
  private long releaseAtNanos;
  private long nextSendNanos;
  private long queuedBytes;

  ProxyConnection(LatencyInjectingProxy proxy, long seed) {
    this.proxy = proxy;
    this.jitterRandom = new SplittableRandom(seed);
    this.faultRandom = new SplittableRandom(~seed);
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    client = ctx.channel();
    client.config().setAutoRead(false);
    proxy.counters().recordConnection();
    Bootstrap bootstrap =
        new Bootstrap()
            .group(client.eventLoop())
            .channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel channel) {
                    channel
                        .pipeline()
                        .addLast(
                            new HttpClientCodec(
                                LatencyInjectingProxy.decoderConfig(), false, false),
                            new BackendHandler());
                  }
                });
    bootstrap
        .connect(proxy.backendHost(), proxy.backendPort())
        .addListener((ChannelFutureListener) this::backendConnected);
  }

  private void backendConnected(ChannelFuture future) {
    if (future.isSuccess()) {
      backend = future.channel();
    } else {
      connectFailure = future.cause();
      log.warn("Cannot connect latency proxy to backend {}", proxy.backend(), future.cause());
    }
    for (HttpObject message : beforeConnect) {
      forward(message);
    }
    beforeConnect.clear();
    if (backend != null) {
      backend.flush();
    }
    client.config().setAutoRead(true);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof HttpObject message)) {
      ReferenceCountUtil.release(msg);
      return;
    }
    if (message.decoderResult().isFailure()) {
      ReferenceCountUtil.release(msg);
      reject(
          HttpResponseStatus.BAD_REQUEST,
          "Cannot proxy request: " + message.decoderResult().cause() + " (send valid HTTP/1.1)");
      return;
    }
    long now = System.nanoTime();
    if (message instanceof HttpRequest request && injectFault(request, now)) {
      return;
    }
    if (droppingRequest) {
      droppingRequest = !(message instanceof LastHttpContent);
      ReferenceCountUtil.release(msg);
      return;
    }
    if (message instanceof HttpRequest request) {
      proxy.counters().recordRequest(request.method().name());
      exchanges.addLast(new Exchange(request.method().name(), request.uri(), now));
    }
    Exchange current = exchanges.peekLast();
    if (message instanceof HttpContent content && current != null) {
      int bytes = content.content().readableBytes();
      current.requestBodyBytes += bytes;
      proxy.counters().recordRequestBodyBytes(bytes);
    }
    if (current != null) {
      current.lastRequestNanos = now;
    }
    if (backend == null && connectFailure == null) {
      beforeConnect.add(message);
    } else {
      forward(message);
    }
  }

  /**
   * Answers {@code request} with an injected fault instead of forwarding it, when the draw says so:
   * only GETs and HEADs (no body to drop, and what the SDK retries) on an idle connection (so the
   * synthetic answer cannot overtake a backend answer still due).
   *
   * @return whether the request was answered (or its connection reset) here
   */
  private boolean injectFault(HttpRequest request, long now) {
    String method = request.method().name();
    if (!exchanges.isEmpty() || !(method.equals("GET") || method.equals("HEAD"))) {
      return false;
    }
    LatencyInjectingProxy.Fault fault = proxy.drawFault(faultRandom);
    if (fault == LatencyInjectingProxy.Fault.NONE) {
      return false;
    }
    ReferenceCountUtil.release(request);
    if (fault == LatencyInjectingProxy.Fault.RESET) {
      proxy.counters().recordReset();
      // SO_LINGER 0: the close sends a TCP RST, not a FIN, as a crashed peer's kernel does.
      ((SocketChannel) client).config().setSoLinger(0);
      client.close();
      return true;
    }
    proxy.counters().recordSlowDown();
    proxy.counters().recordRequest(method);
    droppingRequest = !(request instanceof LastHttpContent);
    byte[] body =
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>SlowDown</Code><Message>Please"
                + " reduce your request rate.</Message><Resource>"
                + request.uri()
                + "</Resource><RequestId>fault-injected</RequestId></Error>")
            .getBytes(StandardCharsets.UTF_8);
    FullHttpResponse response =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1,
            HttpResponseStatus.SERVICE_UNAVAILABLE,
            method.equals("HEAD") ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/xml");
    response.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.length);
    Exchange exchange = new Exchange(method, request.uri(), now);
    exchange.status = HttpResponseStatus.SERVICE_UNAVAILABLE.code();
    releaseAtNanos = now + delayNanos();
    enqueue(response, response.content().readableBytes(), exchange, true);
    drain();
    return true;
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    if (backend != null) {
      backend.flush();
    }
  }

  private void forward(HttpObject message) {
    if (connectFailure != null) {
      ReferenceCountUtil.release(message);
      if (message instanceof HttpRequest) {
        reject(
            HttpResponseStatus.BAD_GATEWAY,
            "Cannot reach backend "
                + proxy.backend()
                + " through the latency proxy: "
                + connectFailure.getMessage()
                + " (is the S3 server running?)");
      }
      return;
    }
    backend.write(message);
    if (!backend.isWritable()) {
      // Uploads: stop reading from the client until the backend drains.
      client.config().setAutoRead(false);
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    drain();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (backend != null) {
      backend.close();
    }
    releaseAll();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    log.debug("Latency proxy client connection failed; closing it", cause);
    ctx.close();
  }

  private void reject(HttpResponseStatus status, String message) {
    FullHttpResponse response =
        new DefaultFullHttpResponse(
            HttpVersion.HTTP_1_1,
            status,
            Unpooled.copiedBuffer(message + "\n", StandardCharsets.UTF_8));
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
    response.headers().set(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
    response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    Exchange exchange = exchanges.pollFirst();
    if (exchange != null) {
      finish(exchange, status.code());
    }
    client.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
  }

  // ---- backend → client

  private void responseRead(HttpObject message) {
    Exchange exchange = exchanges.peekFirst();
    if (exchange == null) {
      ReferenceCountUtil.release(message);
      log.warn("Latency proxy got a response from {} with no request waiting", proxy.backend());
      client.close();
      return;
    }
    if (message instanceof HttpResponse response) {
      int code = response.status().code();
      informationalResponse = code < 200;
      if (!informationalResponse) {
        exchange.status = code;
      }
      releaseAtNanos = exchange.lastRequestNanos + delayNanos();
      enqueue(message, 0, exchange, false);
    }
    if (message instanceof HttpContent content) {
      boolean ends = message instanceof LastHttpContent && !informationalResponse;
      if (ends) {
        exchanges.pollFirst();
      }
      enqueueContent(content, exchange, ends);
    }
    if (queuedBytes > HIGH_WATER_BYTES) {
      backend.config().setAutoRead(false);
    }
    // No drain here: the backend handler drains once per socket read, after every message decoded
    // from it is queued. Draining per message could flush a HEAD answer's head before its (empty)
    // end is queued, letting the client finish before this exchange is counted as done.
  }

  private long delayNanos() {
    long jitter = proxy.jitterNanos();
    return proxy.latencyNanos() + (jitter == 0 ? 0 : jitterRandom.nextLong(jitter + 1));
  }

  // With a bandwidth cap, large contents go out in slices so the pacing is smooth.
  private void enqueueContent(HttpContent content, Exchange exchange, boolean ends) {
    ByteBuf data = content.content();
    int slice = proxy.sliceBytes();
    if (slice <= 0 || data.readableBytes() <= slice) {
      enqueue(content, data.readableBytes(), exchange, ends);
      return;
    }
    while (data.readableBytes() > slice) {
      enqueue(new DefaultHttpContent(data.readRetainedSlice(slice)), slice, exchange, false);
    }
    int rest = data.readableBytes();
    HttpContent tail =
        content instanceof LastHttpContent last
            ? new DefaultLastHttpContent(data.readRetainedSlice(rest), last.trailingHeaders())
            : new DefaultHttpContent(data.readRetainedSlice(rest));
    content.release();
    enqueue(tail, rest, exchange, ends);
  }

  private void enqueue(HttpObject message, int bodyBytes, Exchange exchange, boolean ends) {
    outbound.addLast(new Outbound(message, bodyBytes, releaseAtNanos, exchange, ends));
    queuedBytes += bodyBytes;
  }

  private void drain() {
    if (client == null || !client.isActive()) {
      releaseAll();
      return;
    }
    boolean wrote = false;
    while (!outbound.isEmpty() && client.isWritable()) {
      Outbound next = outbound.peekFirst();
      long now = System.nanoTime();
      long sendAt = Math.max(next.releaseAtNanos, nextSendNanos);
      if (sendAt > now) {
        schedule(sendAt - now);
        break;
      }
      outbound.pollFirst();
      queuedBytes -= next.bodyBytes;
      long rate = proxy.bytesPerSecond();
      if (rate > 0) {
        // A drain that ran late may catch up by at most one slice's time, so the event loop's
        // lateness does not pile up, while a burst stays within one slice of the cap.
        long catchUp = proxy.sliceBytes() * 1_000_000_000L / rate;
        nextSendNanos =
            Math.max(nextSendNanos, now - catchUp) + next.bodyBytes * 1_000_000_000L / rate;
      }
      proxy.counters().recordResponseBodyBytes(next.bodyBytes);
      next.exchange.responseBodyBytes += next.bodyBytes;
      if (next.ends) {
        // Recorded before the write so the log is complete once the client has its answer.
        finish(next.exchange, next.exchange.status);
      }
      client.write(next.message);
      wrote = true;
    }
    if (wrote) {
      client.flush();
    }
    if (backend != null
        && !backend.config().isAutoRead()
        && queuedBytes < LOW_WATER_BYTES
        && client.isWritable()) {
      backend.config().setAutoRead(true);
    }
    if (outbound.isEmpty() && backendClosed) {
      client.close();
    }
  }

  private void schedule(long delayNanos) {
    if (drainScheduled) {
      return;
    }
    drainScheduled = true;
    proxy.runLater(
        client.eventLoop(),
        () -> {
          drainScheduled = false;
          drain();
        },
        delayNanos);
  }

  private void finish(Exchange exchange, int status) {
    proxy.counters().recordRequestDone();
    proxy.record(
        new RequestTiming(
            exchange.method,
            exchange.uri,
            status,
            exchange.startNanos,
            Math.max(exchange.startNanos, System.nanoTime()),
            exchange.requestBodyBytes,
            exchange.responseBodyBytes));
  }

  private void releaseAll() {
    for (HttpObject message : beforeConnect) {
      ReferenceCountUtil.release(message);
    }
    beforeConnect.clear();
    while (!outbound.isEmpty()) {
      Outbound dropped = outbound.pollFirst();
      ReferenceCountUtil.release(dropped.message);
      if (dropped.ends) {
        proxy.counters().recordRequestDone();
      }
    }
    queuedBytes = 0;
    while (!exchanges.isEmpty()) {
      exchanges.pollFirst();
      proxy.counters().recordRequestDone();
    }
  }

  /** Reads the backend's responses into this connection; same event loop as the client. */
  private final class BackendHandler extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof HttpObject message && message.decoderResult().isSuccess()) {
        responseRead(message);
        return;
      }
      ReferenceCountUtil.release(msg);
      log.warn("Latency proxy cannot parse a response from {}; closing", proxy.backend());
      ctx.close();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      drain();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
      if (ctx.channel().isWritable() && client.isActive()) {
        client.config().setAutoRead(true);
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      backendClosed = true;
      drain();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      log.debug("Latency proxy backend connection failed; closing it", cause);
      ctx.close();
    }
  }

  /** One request/response pair in flight on this connection. */
  private static final class Exchange {
    final String method;
    final String uri;
    final long startNanos;
    long lastRequestNanos;
    long requestBodyBytes;
    long responseBodyBytes;
    int status;

    Exchange(String method, String uri, long startNanos) {
      this.method = method;
      this.uri = uri;
      this.startNanos = startNanos;
      this.lastRequestNanos = startNanos;
    }
  }

  /** A response part waiting for its release time (the latency) and its turn (the bandwidth). */
  private record Outbound(
      HttpObject message, int bodyBytes, long releaseAtNanos, Exchange exchange, boolean ends) {}
}
