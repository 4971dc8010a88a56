package io.shelfmark.broker.http;

import static java.util.Objects.requireNonNull;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.shelfmark.config.cluster.HttpConfig;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's HTTP endpoint (netty): {@code POST /query/sql} (and Pinot's {@code POST /query}),
 * {@code GET /health}, and the controller endpoints Pinot's clients read: tables, their schemas,
 * configs, metadata and status, and broker discovery (docs/http-api.md lists them). Query execution
 * runs on the injected executor, never on netty's event loop, so a slow query cannot stall other
 * connections.
 *
 * <p>Lifecycle: {@link #start} once, then {@link #close}. Thread safe.
 */
public final class BrokerHttpServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(BrokerHttpServer.class);

  /** Largest request body accepted; SQL text is small, anything bigger is a client error. */
  static final int MAX_REQUEST_BYTES = 1 << 20;

  private static final int MAX_CHUNK_BYTES = 8192;

  /**
   * Password checks (PBKDF2) waiting beyond this many are refused with 503: a brute-force attempt
   * fills this queue, not the heap.
   */
  static final int MAX_QUEUED_PASSWORD_CHECKS = 64;

  private final BrokerRoutes routes;
  private final HttpConfig http;
  private final HttpSecurity security;
  private final ConnectionLimits connections;
  private final EventLoopGroup group;
  private final ThreadPoolExecutor passwordChecks;
  private final AtomicLong requestIds = new AtomicLong();
  private Channel channel;

  /**
   * With the default connection limits and timeouts ({@link HttpConfig#defaults()}), without
   * authentication, on plain HTTP.
   */
  public BrokerHttpServer(BrokerRoutes routes) {
    this(routes, HttpConfig.defaults());
  }

  /** Without authentication, on plain HTTP. */
  public BrokerHttpServer(BrokerRoutes routes, HttpConfig http) {
    this(routes, http, HttpSecurity.none());
  }

  /** With the default connection limits and timeouts. */
  public BrokerHttpServer(BrokerRoutes routes, HttpSecurity security) {
    this(routes, HttpConfig.defaults(), security);
  }

  public BrokerHttpServer(BrokerRoutes routes, HttpConfig http, HttpSecurity security) {
    this.routes = requireNonNull(routes, "routes is null");
    this.http = requireNonNull(http, "http is null");
    this.security = requireNonNull(security, "security is null");
    this.connections = new ConnectionLimits(http);
    this.group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    // Two threads: each check is a few hundred ms of one core by design; more would only let a
    // flood of logins take more of the machine from queries.
    this.passwordChecks =
        new ThreadPoolExecutor(
            2,
            2,
            30,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(MAX_QUEUED_PASSWORD_CHECKS),
            Thread.ofPlatform().name("password-check-", 0).daemon().factory());
    passwordChecks.allowCoreThreadTimeOut(true);
  }

  /**
   * Binds to {@code host:port} (port 0 picks a free port) and starts serving.
   *
   * @return the port actually bound
   * @throws IOException naming the address when it cannot be bound
   */
  public int start(String host, int port, ExecutorService queryExecutor) throws IOException {
    requireNonNull(host, "host is null");
    requireNonNull(queryExecutor, "queryExecutor is null");
    if (channel != null) {
      throw new IllegalStateException("Cannot start broker HTTP server: already started");
    }
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    RequestTimeouts timeouts =
                        new RequestTimeouts(http.requestReadTimeout(), http.idleTimeout());
                    // Limits first: a refused connection costs no decoding. Malformed requests
                    // are answered before routing, which would misread them.
                    ch.pipeline().addLast(connections.handler()).addLast(timeouts.bytes());
                    // TLS after the byte timer: a handshake that stalls is a request that stalls.
                    security
                        .tls()
                        .ifPresent(tls -> ch.pipeline().addLast(tls.newHandler(ch.alloc())));
                    ch.pipeline()
                        .addLast(
                            new HttpServerCodec(
                                MalformedRequests.MAX_REQUEST_LINE_BYTES,
                                MalformedRequests.MAX_HEADER_BYTES,
                                MAX_CHUNK_BYTES))
                        .addLast(timeouts)
                        .addLast(new HttpServerKeepAliveHandler())
                        .addLast(new MalformedRequests.Aggregator(MAX_REQUEST_BYTES))
                        .addLast(new MalformedRequests())
                        .addLast(new AuthenticationHandler(security, passwordChecks))
                        .addLast(new BrokerRequestHandler(routes, queryExecutor, requestIds));
                  }
                });
    try {
      channel = bootstrap.bind(host, port).sync().channel();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Cannot start broker HTTP server on " + host + ":" + port, e);
    } catch (Exception e) {
      group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
      if (e instanceof BindException) {
        throw new IOException(
            "Cannot start broker HTTP server: "
                + host
                + ":"
                + port
                + " is in use or not available (choose another port with --port or"
                + " broker.http-port)",
            e);
      }
      throw new IOException("Cannot start broker HTTP server on " + host + ":" + port, e);
    }
    int bound = ((InetSocketAddress) channel.localAddress()).getPort();
    log.info(
        "Broker HTTP listening on {}://{}:{} ({})",
        security.tls().isPresent() ? "https" : "http",
        host,
        bound,
        security.authenticator().enabled() ? "credentials required" : "no authentication");
    return bound;
  }

  /** The connections open now; for tests and metrics. */
  public int openConnections() {
    return connections.open();
  }

  @Override
  public void close() {
    if (channel != null) {
      channel.close().syncUninterruptibly();
    }
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    passwordChecks.shutdownNow();
  }
}
