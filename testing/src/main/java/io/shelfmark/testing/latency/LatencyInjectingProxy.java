package io.shelfmark.testing.latency;

import static java.util.Objects.requireNonNull;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import java.io.Closeable;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An HTTP/1.1 reverse proxy on {@code 127.0.0.1} in front of an S3 endpoint (such as the embedded
 * S3 server) that makes loopback storage behave like a remote one: each response waits for an
 * injected latency before its first byte, and may be held to a bandwidth cap per connection. It
 * counts by itself what crosses it ({@link #counters()}) and logs each request's start and end
 * ({@link #requestLog()}), so tests can assert request counts, bytes and sequential round trips
 * independently of Shelfmark's own statistics.
 *
 * <p>Latency: a response message (a final answer, or an interim {@code 100 Continue}) is not sent
 * to the client before {@code latency + jitter} has passed since the latest byte of its request
 * arrived, with jitter drawn uniformly from {@code [0, jitter]} by a seeded generator. The time to
 * first byte is thus at least the latency, and the backend's own time overlaps it rather than
 * adding to it (time to first byte = max(latency, backend's time)), so the figure does not depend
 * on how fast the loopback server happens to be. Release times are kept by a timer thread of the
 * proxy's own rather than by Netty's event loop, whose NIO selector wakes for scheduled work at
 * millisecond granularity: measured on 200 sequential GETs each, the event loop released responses
 * 0.62-0.90 ms late (median; p90 about 1.05 ms), the timer thread 0.16-0.20 ms, so the injected
 * latency is the one asked for, not about 1 ms more.
 *
 * <p>Bandwidth: with a cap of R bytes/s, response body bytes leave each connection no faster than R
 * (large bodies are sent in slices of about 20 ms each; a late event loop may catch up by one
 * slice), so B bytes take at least (B − 2 slices) / R. Headers are not paced.
 *
 * <p>Faults: with {@code slowDownRate} and {@code resetRate}, each GET or HEAD that arrives on an
 * idle connection is, with those probabilities (drawn by a seeded generator per connection),
 * answered {@code 503 SlowDown} by the proxy itself (as S3 answers when throttling, XML body and
 * all; the backend never sees it) or met by a connection reset (TCP RST, as a load balancer or a
 * dying node gives). Both are what the S3 SDK's retry strategy retries, so a test can check that
 * queries still answer right and in time, and that the retries are counted.
 *
 * <p>Fidelity: clients sign requests (AWS Signature V4) for the proxy's host and port, and the
 * proxy forwards the Host header unchanged, so the backend verifies the signature against the same
 * Host the client signed. Messages are re-framed through Netty's HTTP codecs: the request line,
 * status line, header names, values and order, and body bytes pass unchanged; only optional
 * whitespace around header values and the boundaries of chunked transfer encoding may differ,
 * neither of which a signature covers. Each client connection has its own backend connection, so
 * keep-alive and request order on a connection behave as without the proxy.
 *
 * <p>Lifecycle: {@link #builder()} → {@link #start()} once → requests → {@link #close()}
 * (idempotent). Thread safety: every method may be called from any thread.
 *
 * <pre>{@code
 * try (LatencyInjectingProxy proxy = LatencyInjectingProxy.builder()
 *     .backend(s3Server.endpoint()).latency(Duration.ofMillis(20)).build()) {
 *   proxy.start();
 *   // point the S3 client at proxy.endpoint(), path-style, with the server's credentials
 *   proxy.reset();
 *   runQuery();
 *   int rounds = proxy.requestLog().withMethod("GET").sequentialRounds();
 * }
 * }</pre>
 */
public final class LatencyInjectingProxy implements Closeable {
  /** The latency the benchmark injects by default (see BENCHMARK.md). */
  public static final Duration DEFAULT_LATENCY = Duration.ofMillis(20);

  /** The address the proxy binds: loopback only. */
  public static final String HOST = "127.0.0.1";

  public static final int DEFAULT_IO_THREADS = 2;

  // Presigned URLs and S3's many x-amz headers exceed Netty's 4 KiB default line length.
  private static final int MAX_LINE_BYTES = 64 << 10;
  private static final int MAX_CHUNK_BYTES = 64 << 10;
  private static final int MIN_SLICE_BYTES = 512;
  private static final long SLICES_PER_SECOND = 50;

  private static final Logger log = LoggerFactory.getLogger(LatencyInjectingProxy.class);

  private enum State {
    NEW,
    STARTED,
    CLOSED
  }

  private final URI backend;
  private final int requestedPort;
  private final long latencyNanos;
  private final long jitterNanos;
  private final long bytesPerSecond;
  private final long seed;
  private final int ioThreads;
  private final double slowDownRate;
  private final double resetRate;
  private final ProxyCounters counters = new ProxyCounters();
  private final ConcurrentLinkedQueue<RequestTiming> completed = new ConcurrentLinkedQueue<>();
  private final AtomicLong connectionSeeds = new AtomicLong();

  // Guarded by this.
  private State state = State.NEW;
  private EventLoopGroup group;
  // Written under this, read without it: an event loop scheduling a release must not wait for a
  // close() that is waiting for the event loops.
  private volatile ScheduledExecutorService releaseTimer;
  private Channel serverChannel;
  private int port = -1;

  private LatencyInjectingProxy(Builder builder) {
    this.backend = requireNonNull(builder.backend, "backend is null");
    this.requestedPort = builder.port == null ? 0 : builder.port;
    this.latencyNanos = (builder.latency == null ? DEFAULT_LATENCY : builder.latency).toNanos();
    this.jitterNanos = builder.jitter == null ? 0 : builder.jitter.toNanos();
    this.bytesPerSecond = builder.bytesPerSecond == null ? 0 : builder.bytesPerSecond;
    this.seed = builder.seed == null ? 0 : builder.seed;
    this.ioThreads = builder.ioThreads == null ? DEFAULT_IO_THREADS : builder.ioThreads;
    this.slowDownRate = builder.slowDownRate == null ? 0 : builder.slowDownRate;
    this.resetRate = builder.resetRate == null ? 0 : builder.resetRate;
  }

  /** A fault the proxy injects instead of forwarding a request. */
  enum Fault {
    NONE,
    SLOW_DOWN,
    RESET
  }

  /** The fault for the next request on an idle connection, drawn from {@code random}. */
  Fault drawFault(java.util.SplittableRandom random) {
    if (slowDownRate == 0 && resetRate == 0) {
      return Fault.NONE;
    }
    double draw = random.nextDouble();
    if (draw < resetRate) {
      return Fault.RESET;
    }
    return draw < resetRate + slowDownRate ? Fault.SLOW_DOWN : Fault.NONE;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Binds the port and starts accepting connections; the backend is connected to per client
   * connection, so it need not be up yet (a request that cannot reach it gets a 502 naming it).
   *
   * @throws IOException naming the address when the port is taken
   * @throws IllegalStateException when already started or closed
   */
  public synchronized void start() throws IOException {
    if (state != State.NEW) {
      throw new IllegalStateException(
          "Cannot start latency proxy: it is "
              + state.name().toLowerCase(Locale.ROOT)
              + " (create a new one)");
    }
    EventLoopGroup loops = new MultiThreadIoEventLoopGroup(ioThreads, NioIoHandler.newFactory());
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(loops)
            .channel(NioServerSocketChannel.class)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel channel) {
                    channel
                        .pipeline()
                        .addLast(
                            new WireCounter(counters),
                            new HttpServerCodec(decoderConfig()),
                            new ProxyConnection(
                                LatencyInjectingProxy.this,
                                seed * 31 + connectionSeeds.getAndIncrement()));
                  }
                });
    try {
      serverChannel = bootstrap.bind(HOST, requestedPort).sync().channel();
    } catch (Exception e) {
      loops.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
      if (e instanceof BindException) {
        throw new IOException(
            "Cannot start latency proxy on "
                + HOST
                + ":"
                + requestedPort
                + ": the port is in use (choose another port, or 0 for a free one)",
            e);
      }
      throw new IOException(
          "Cannot start latency proxy on " + HOST + ":" + requestedPort + ": " + e, e);
    }
    group = loops;
    releaseTimer =
        Executors.newSingleThreadScheduledExecutor(
            task -> Thread.ofPlatform().daemon(true).name("latency-proxy-timer").unstarted(task));
    port = ((InetSocketAddress) serverChannel.localAddress()).getPort();
    state = State.STARTED;
    log.info(
        "Latency proxy at {} in front of {}: latency {} ms, jitter {} ms, bandwidth {}",
        endpoint(),
        backend,
        latencyNanos / 1_000_000.0,
        jitterNanos / 1_000_000.0,
        bytesPerSecond == 0 ? "unlimited" : bytesPerSecond + " bytes/s per connection");
  }

  /** The proxy's base URI, {@code http://127.0.0.1:<port>}: point S3 clients here. */
  public synchronized URI endpoint() {
    return URI.create("http://" + HOST + ":" + port());
  }

  /** The port the proxy listens on (the real one when it was asked for port 0). */
  public synchronized int port() {
    if (state != State.STARTED) {
      throw new IllegalStateException(
          "Cannot get the port of latency proxy: it is "
              + state.name().toLowerCase(Locale.ROOT)
              + " (call start() first)");
    }
    return port;
  }

  /** The endpoint requests are forwarded to. */
  public URI backend() {
    return backend;
  }

  public Duration latency() {
    return Duration.ofNanos(latencyNanos);
  }

  public Duration jitter() {
    return Duration.ofNanos(jitterNanos);
  }

  /** The bandwidth cap per connection in bytes per second; empty when uncapped. */
  public OptionalLong bandwidth() {
    return bytesPerSecond == 0 ? OptionalLong.empty() : OptionalLong.of(bytesPerSecond);
  }

  /** What the proxy counted since start or the last {@link #reset()}. */
  public ProxyCounters counters() {
    return counters;
  }

  /** The requests completed since start or the last {@link #reset()}, in completion order. */
  public RequestLog requestLog() {
    return new RequestLog(List.copyOf(completed));
  }

  /** Zeroes the counters and empties the request log (requests in flight stay in flight). */
  public void reset() {
    counters.reset();
    completed.clear();
  }

  /** Stops accepting and closes every connection; safe to call more than once. */
  @Override
  public synchronized void close() throws IOException {
    if (state == State.CLOSED) {
      return;
    }
    State previous = state;
    state = State.CLOSED;
    if (previous == State.STARTED) {
      serverChannel.close().syncUninterruptibly();
      group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
      releaseTimer.shutdownNow();
    }
  }

  @Override
  public synchronized String toString() {
    return "LatencyInjectingProxy{"
        + (state == State.STARTED ? "http://" + HOST + ":" + port : state)
        + " -> "
        + backend
        + ", latency="
        + latency()
        + "}";
  }

  // ---- for ProxyConnection

  static HttpDecoderConfig decoderConfig() {
    // Headers are forwarded as received: validating them here could only refuse what the
    // backend would judge itself.
    return new HttpDecoderConfig()
        .setMaxInitialLineLength(MAX_LINE_BYTES)
        .setMaxHeaderSize(MAX_LINE_BYTES)
        .setMaxChunkSize(MAX_CHUNK_BYTES)
        .setValidateHeaders(false);
  }

  String backendHost() {
    return backend.getHost();
  }

  int backendPort() {
    return backend.getPort();
  }

  /**
   * Runs {@code task} on {@code loop} once {@code delayNanos} have passed, to within about 0.2 ms
   * (see the class comment); never if the proxy closed meanwhile (its connections are closing).
   */
  void runLater(EventLoop loop, Runnable task, long delayNanos) {
    try {
      releaseTimer.schedule(() -> loop.execute(task), delayNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      // Closed: the event loops are shutting down and every connection with them.
    }
  }

  long latencyNanos() {
    return latencyNanos;
  }

  long jitterNanos() {
    return jitterNanos;
  }

  long bytesPerSecond() {
    return bytesPerSecond;
  }

  /** The size of one paced slice, or 0 when uncapped. */
  int sliceBytes() {
    if (bytesPerSecond == 0) {
      return 0;
    }
    return (int)
        Math.max(MIN_SLICE_BYTES, Math.min(MAX_CHUNK_BYTES, bytesPerSecond / SLICES_PER_SECOND));
  }

  void record(RequestTiming timing) {
    completed.add(timing);
  }

  /** Counts raw bytes on the client side, before HTTP decoding and after encoding. */
  private static final class WireCounter extends ChannelDuplexHandler {
    private final ProxyCounters counters;

    WireCounter(ProxyCounters counters) {
      this.counters = counters;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof ByteBuf bytes) {
        counters.recordRequestBytes(bytes.readableBytes());
      }
      ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      if (msg instanceof ByteBuf bytes) {
        counters.recordResponseBytes(bytes.readableBytes());
      }
      ctx.write(msg, promise);
    }
  }

  /**
   * Builds a {@link LatencyInjectingProxy}. Each setting may be given once; the backend is
   * required.
   */
  public static final class Builder {
    private URI backend;
    private Integer port;
    private Duration latency;
    private Duration jitter;
    private Long bytesPerSecond;
    private Long seed;
    private Integer ioThreads;
    private Double slowDownRate;
    private Double resetRate;

    private Builder() {}

    /** The S3 endpoint to forward to, {@code http://host:port} (plain HTTP only). */
    public Builder backend(URI backend) {
      requireNonNull(backend, "backend is null");
      checkUnset("backend", this.backend);
      if (!"http".equals(backend.getScheme())
          || backend.getHost() == null
          || backend.getPort() < 0) {
        throw new IllegalArgumentException(
            "Cannot set backend: "
                + backend
                + " (expected http://host:port; the proxy speaks plain HTTP only)");
      }
      this.backend = backend;
      return this;
    }

    /** The port to listen on; 0 (the default) picks a free one. */
    public Builder port(int port) {
      checkUnset("port", this.port);
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException(
            "Cannot set port: " + port + " (use 0 for a free port, or 1-65535)");
      }
      this.port = port;
      return this;
    }

    /** The least time from a request's last byte to its response's first byte (default 20 ms). */
    public Builder latency(Duration latency) {
      requireNonNull(latency, "latency is null");
      checkUnset("latency", this.latency);
      if (latency.isNegative()) {
        throw new IllegalArgumentException(
            "Cannot set latency: " + latency + " (expected zero or more)");
      }
      this.latency = latency;
      return this;
    }

    /** The most added to the latency at random, uniformly from 0 (default 0: none). */
    public Builder jitter(Duration jitter) {
      requireNonNull(jitter, "jitter is null");
      checkUnset("jitter", this.jitter);
      if (jitter.isNegative()) {
        throw new IllegalArgumentException(
            "Cannot set jitter: " + jitter + " (expected zero or more)");
      }
      this.jitter = jitter;
      return this;
    }

    /** Caps response body bytes per connection to this many per second (default: no cap). */
    public Builder bandwidth(long bytesPerSecond) {
      checkUnset("bandwidth", this.bytesPerSecond);
      if (bytesPerSecond < 1) {
        throw new IllegalArgumentException(
            "Cannot set bandwidth: "
                + bytesPerSecond
                + " bytes/s (expected 1 or more; leave it unset for no cap)");
      }
      this.bytesPerSecond = bytesPerSecond;
      return this;
    }

    /** The seed of the jitter (default 0), so a run's delays can be repeated. */
    public Builder seed(long seed) {
      checkUnset("seed", this.seed);
      this.seed = seed;
      return this;
    }

    /**
     * The share of GETs and HEADs on idle connections answered {@code 503 SlowDown} by the proxy
     * (default 0).
     */
    public Builder slowDownRate(double rate) {
      checkUnset("slowDownRate", this.slowDownRate);
      this.slowDownRate = checkRate("slowDownRate", rate);
      return this;
    }

    /** The share of GETs and HEADs on idle connections met by a connection reset (default 0). */
    public Builder resetRate(double rate) {
      checkUnset("resetRate", this.resetRate);
      this.resetRate = checkRate("resetRate", rate);
      return this;
    }

    private static double checkRate(String name, double rate) {
      if (!(rate >= 0 && rate < 1)) {
        throw new IllegalArgumentException(
            "Cannot set " + name + ": " + rate + " (expected a share from 0 to below 1)");
      }
      return rate;
    }

    /** Netty event-loop threads (default 2; the proxy only shuffles bytes). */
    public Builder ioThreads(int ioThreads) {
      checkUnset("ioThreads", this.ioThreads);
      if (ioThreads < 1) {
        throw new IllegalArgumentException(
            "Cannot set ioThreads: " + ioThreads + " (expected 1 or more)");
      }
      this.ioThreads = ioThreads;
      return this;
    }

    public LatencyInjectingProxy build() {
      if (backend == null) {
        throw new IllegalStateException(
            "Cannot build latency proxy: no backend (call backend(uri), e.g. the S3 server's"
                + " endpoint)");
      }
      return new LatencyInjectingProxy(this);
    }

    private static void checkUnset(String name, Object current) {
      if (current != null) {
        throw new IllegalStateException("Cannot set " + name + ": it is already set to " + current);
      }
    }
  }
}
