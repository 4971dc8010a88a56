package io.shelfmark.broker.flightsql;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.auth.Authenticator;
import io.shelfmark.broker.auth.FailureLog;
import io.shelfmark.broker.query.QueryService;
import io.shelfmark.config.security.TlsConfig;
import io.shelfmark.sql.schema.TableSchemaProvider;
import java.io.IOException;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.ServerSessionMiddleware;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The broker's Arrow Flight SQL server ({@code broker.flight-port}): the HTTP API's query service,
 * users and TLS certificate behind Arrow's gRPC Flight server. With users configured every call
 * needs Basic credentials or a bearer token; with TLS configured it speaks only TLS.
 */
public final class BrokerFlightServer implements AutoCloseable {
  private final BufferAllocator allocator;
  private final FlightServer server;

  private BrokerFlightServer(BufferAllocator allocator, FlightServer server) {
    this.allocator = allocator;
    this.server = server;
  }

  /**
   * Starts the server on {@code host:port} (port 0: any free port).
   *
   * @param authenticator the HTTP API's, so both endpoints accept the same credentials
   * @param tls the HTTP API's certificate and key; empty: plaintext
   * @throws IOException when the port cannot be bound or the TLS files cannot be read
   */
  public static BrokerFlightServer start(
      String host,
      int port,
      QueryService queries,
      TableSchemaProvider tables,
      Authenticator authenticator,
      Optional<TlsConfig> tls,
      String version)
      throws IOException {
    requireNonNull(host, "host is null");
    requireNonNull(queries, "queries is null");
    requireNonNull(tables, "tables is null");
    requireNonNull(authenticator, "authenticator is null");
    requireNonNull(tls, "tls is null");
    BufferAllocator allocator = new RootAllocator();
    FlightAuthenticator auth = new FlightAuthenticator(authenticator, FailureLog.toLogger());
    ShelfmarkFlightSqlProducer producer =
        new ShelfmarkFlightSqlProducer(
            queries, new FlightMetadata(tables, version), allocator, auth);
    Location location =
        tls.isPresent() ? Location.forGrpcTls(host, port) : Location.forGrpcInsecure(host, port);
    FlightServer.Builder builder = FlightServer.builder(allocator, location, producer);
    // Sessions carry time-travel options (SetSessionOptions) from call to call, by cookie.
    builder.middleware(
        FlightQueryOptions.SESSION,
        new ServerSessionMiddleware.Factory(() -> UUID.randomUUID().toString()));
    if (authenticator.enabled()) {
      builder.headerAuthenticator(auth);
    }
    try {
      if (tls.isPresent()) {
        if (tls.get().privateKeyPassword().isPresent()) {
          throw new IOException(
              "Cannot serve Flight SQL over TLS with an encrypted private key "
                  + tls.get().privateKeyFile()
                  + " (gRPC reads unencrypted PKCS#8 keys only: decrypt it with openssl pkcs8)");
        }
        builder.useTls(tls.get().certificateFile().toFile(), tls.get().privateKeyFile().toFile());
      }
      FlightServer server = builder.build().start();
      return new BrokerFlightServer(allocator, server);
    } catch (IOException | RuntimeException e) {
      allocator.close();
      throw new IOException(
          "Cannot start the Flight SQL endpoint on "
              + host
              + ":"
              + port
              + ": "
              + e.getMessage()
              + " (set broker.flight-port to a free port)",
          e);
    }
  }

  /** The port bound. */
  public int port() {
    return server.getPort();
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdown();
    if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
      server.close();
    }
    server.close();
    allocator.close();
  }
}
