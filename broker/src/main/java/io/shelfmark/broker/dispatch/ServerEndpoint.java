package io.shelfmark.broker.dispatch;

import static java.util.Objects.requireNonNull;

/** Where a server's Flight endpoint listens (plaintext gRPC). */
public record ServerEndpoint(String host, int port) {
  public ServerEndpoint {
    requireNonNull(host, "host is null");
    if (host.isBlank()) {
      throw new IllegalArgumentException("Cannot use a server endpoint with a blank host");
    }
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException(
          "Cannot use server endpoint %s:%d: the port must be 1 to 65535".formatted(host, port));
    }
  }

  @Override
  public String toString() {
    return host + ":" + port;
  }
}
