package io.shelfmark.config.security;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Optional;

/**
 * TLS for the HTTP API ({@code security.tls.*}): a PEM certificate chain and its PEM private key
 * (PKCS#8; encrypted when a password is given). {@link #toString()} never shows the password.
 *
 * @param certificateFile the server's certificate chain, leaf first ({@code certificate-file})
 * @param privateKeyFile the certificate's private key ({@code private-key-file})
 * @param privateKeyPassword the key's password, if it is encrypted ({@code private-key-password})
 */
public record TlsConfig(
    Path certificateFile, Path privateKeyFile, Optional<String> privateKeyPassword) {
  public TlsConfig {
    requireNonNull(certificateFile, "certificateFile is null");
    requireNonNull(privateKeyFile, "privateKeyFile is null");
    requireNonNull(privateKeyPassword, "privateKeyPassword is null");
  }

  @Override
  public String toString() {
    return "TlsConfig[certificateFile="
        + certificateFile
        + ", privateKeyFile="
        + privateKeyFile
        + ", privateKeyPassword="
        + (privateKeyPassword.isPresent() ? "****" : "none")
        + "]";
  }
}
