package io.shelfmark.config.cluster;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * The ports a process listens on. Config keys {@code broker.http-port}, {@code broker.flight-port}
 * (Arrow Flight SQL, for JDBC and ADBC clients), {@code server.rpc-port} and {@code
 * controller.http-port}.
 *
 * <p>Config files accept 1..65535. Programmatic configs may also use {@link #ANY_FREE_PORT} (0) so
 * that tests and embedded runs let the operating system pick a free port; the process reports the
 * port it bound.
 *
 * @param brokerHttpPort the broker's HTTP SQL and admin port
 * @param serverRpcPort the server's RPC port that brokers scatter to
 * @param controllerHttpPort the controller's HTTP admin port
 * @param brokerFlightPort the broker's Arrow Flight SQL port (JDBC and ADBC clients)
 */
public record PortsConfig(
    int brokerHttpPort, int serverRpcPort, int controllerHttpPort, int brokerFlightPort) {
  public static final int DEFAULT_BROKER_HTTP_PORT = 8099;

  /** Arrow Flight's customary port, as in Arrow's examples and Dremio's. */
  public static final int DEFAULT_BROKER_FLIGHT_PORT = 8815;

  public static final int DEFAULT_SERVER_RPC_PORT = 8098;
  public static final int DEFAULT_CONTROLLER_HTTP_PORT = 8097;
  public static final int MIN_PORT = 1;
  public static final int MAX_PORT = 65535;

  /** Port 0: bind any free port. Allowed programmatically, refused in config files. */
  public static final int ANY_FREE_PORT = 0;

  public PortsConfig {
    checkPort("broker.http-port", brokerHttpPort);
    checkPort("server.rpc-port", serverRpcPort);
    checkPort("controller.http-port", controllerHttpPort);
    checkPort("broker.flight-port", brokerFlightPort);
  }

  /** Ports with the default Flight SQL port ({@value #DEFAULT_BROKER_FLIGHT_PORT}). */
  public PortsConfig(int brokerHttpPort, int serverRpcPort, int controllerHttpPort) {
    this(brokerHttpPort, serverRpcPort, controllerHttpPort, DEFAULT_BROKER_FLIGHT_PORT);
  }

  /** The default ports: broker 8099 (Flight SQL 8815), server 8098, controller 8097. */
  public static PortsConfig defaults() {
    return new PortsConfig(
        DEFAULT_BROKER_HTTP_PORT, DEFAULT_SERVER_RPC_PORT, DEFAULT_CONTROLLER_HTTP_PORT);
  }

  /** Every role on {@link #ANY_FREE_PORT}, for tests and embedded runs. */
  public static PortsConfig anyFreePorts() {
    return new PortsConfig(ANY_FREE_PORT, ANY_FREE_PORT, ANY_FREE_PORT, ANY_FREE_PORT);
  }

  private static void checkPort(String key, int port) {
    checkArgument(
        port >= ANY_FREE_PORT && port <= MAX_PORT,
        "Cannot use %s: %s (expected 1 to 65535, or 0 for any free port)",
        key,
        port);
  }
}
