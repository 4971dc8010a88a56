package io.shelfmark.server.flight;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cache.TieredCache;
import io.shelfmark.server.local.LocalServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server role's Flight endpoint: {@link FragmentService} listening on a host and port (0 = any
 * free port), plaintext gRPC. Start with {@link #start}; {@link #close} stops accepting, waits a
 * moment for calls in flight and releases the Arrow memory.
 */
public final class FlightFragmentServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FlightFragmentServer.class);

  private final BufferAllocator allocator;
  private final FlightServer server;
  private final AtomicBoolean closed = new AtomicBoolean();

  private FlightFragmentServer(BufferAllocator allocator, FlightServer server) {
    this.allocator = allocator;
    this.server = server;
  }

  /**
   * Starts serving {@code server}'s files on {@code host}:{@code port}.
   *
   * @param cheapWork runs cheap queries' file work; {@code heavyWork} heavy ones'
   * @throws UncheckedIOException when the port cannot be bound
   */
  public static FlightFragmentServer start(
      String host, int port, LocalServer server, Executor cheapWork, Executor heavyWork) {
    return start(host, port, server, cheapWork, heavyWork, Optional.empty());
  }

  /** As the other, with the process's cache, whose use the node report tells. */
  public static FlightFragmentServer start(
      String host,
      int port,
      LocalServer server,
      Executor cheapWork,
      Executor heavyWork,
      Optional<TieredCache> cache) {
    requireNonNull(host, "host is null");
    BufferAllocator allocator = new RootAllocator();
    FlightServer flight =
        FlightServer.builder(
                allocator,
                Location.forGrpcInsecure(host, port),
                new FragmentService(
                    server, cheapWork, heavyWork, allocator, Clock.systemUTC(), cache))
            .build();
    try {
      flight.start();
    } catch (IOException e) {
      allocator.close();
      throw new UncheckedIOException(
          "Cannot start the server's Flight endpoint on %s:%d: %s (is the port taken?)"
              .formatted(host, port, e.getMessage()),
          e);
    }
    return new FlightFragmentServer(allocator, flight);
  }

  /** The port it listens on (the one chosen when started with 0). */
  public int port() {
    return server.getPort();
  }

  @Override
  public void close() throws InterruptedException {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    server.shutdown();
    if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
      server.close();
    }
    try {
      allocator.close();
    } catch (IllegalStateException e) {
      // A response cut off by the shutdown can leave its batch unreleased; the process goes on.
      log.warn("Closed the Flight endpoint with Arrow memory still held: {}", e.getMessage());
    }
  }
}
