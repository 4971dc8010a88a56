package io.shelfmark.broker.http;

import static java.util.Objects.requireNonNull;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.shelfmark.broker.auth.Authenticator;
import io.shelfmark.broker.auth.FailureLog;
import io.shelfmark.config.security.SecurityConfig;
import io.shelfmark.config.security.TlsConfig;
import java.io.IOException;
import java.util.Optional;

/**
 * How the HTTP endpoint checks callers and whether it speaks TLS.
 *
 * @param authenticator checks credentials; {@link Authenticator#disabled()} lets everyone in
 * @param tls the server's TLS context; empty: plain HTTP
 * @param failures where failed authentications are logged
 */
public record HttpSecurity(
    Authenticator authenticator, Optional<SslContext> tls, FailureLog failures) {
  public HttpSecurity {
    requireNonNull(authenticator, "authenticator is null");
    requireNonNull(tls, "tls is null");
    requireNonNull(failures, "failures is null");
  }

  /** No authentication, plain HTTP: the quickstart's endpoint. */
  public static HttpSecurity none() {
    return new HttpSecurity(Authenticator.disabled(), Optional.empty(), FailureLog.toLogger());
  }

  /**
   * The endpoint {@code config} asks for.
   *
   * @throws IOException naming the files when the certificate or key cannot be read
   */
  public static HttpSecurity from(SecurityConfig config) throws IOException {
    requireNonNull(config, "config is null");
    Optional<SslContext> tls = Optional.empty();
    if (config.tls().isPresent()) {
      tls = Optional.of(sslContext(config.tls().get()));
    }
    return new HttpSecurity(new Authenticator(config), tls, FailureLog.toLogger());
  }

  private static SslContext sslContext(TlsConfig tls) throws IOException {
    try {
      // The JDK's TLS: netty-tcnative is not in the build (no native jars served for it).
      return SslContextBuilder.forServer(
              tls.certificateFile().toFile(),
              tls.privateKeyFile().toFile(),
              tls.privateKeyPassword().orElse(null))
          .sslProvider(SslProvider.JDK)
          .build();
    } catch (IOException | RuntimeException e) {
      throw new IOException(
          "Cannot use the TLS certificate "
              + tls.certificateFile()
              + " with key "
              + tls.privateKeyFile()
              + ": "
              + e.getMessage()
              + " (expected PEM files: the certificate chain, and a PKCS#8 key; give"
              + " security.tls.private-key-password when the key is encrypted)",
          e);
    }
  }
}
