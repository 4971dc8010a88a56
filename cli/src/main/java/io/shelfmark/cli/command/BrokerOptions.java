package io.shelfmark.cli.command;

import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.client.BrokerCredentials;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * How a command reaches a broker: its URL, the credentials and, for https, which CA to trust.
 * Passwords come only from the environment, never from the command line, where {@code ps} shows
 * them to every user of the machine.
 */
final class BrokerOptions {
  @Option(
      names = "--user",
      paramLabel = "NAME",
      description =
          "Log in with HTTP Basic as NAME; the password is read from "
              + BrokerCredentials.PASSWORD_VARIABLE
              + ".")
  String user;

  @Option(
      names = "--token",
      paramLabel = "TOKEN",
      description =
          "Send a bearer token (default: "
              + BrokerCredentials.TOKEN_VARIABLE
              + " when set). Prefer the variable: arguments are visible to other users.")
  String token;

  @Option(
      names = "--ca-cert",
      paramLabel = "PEM",
      description =
          "Trust the certificate(s) in this PEM file for https (a private CA or a self-signed"
              + " broker certificate); default: the JDK's CAs.")
  Path caCert;

  /** A client of the broker at {@code url} with these options. */
  BrokerClient client(String url) {
    BrokerCredentials credentials =
        BrokerCredentials.resolve(
            Optional.ofNullable(user), Optional.ofNullable(token), System.getenv());
    return new BrokerClient(
        url, credentials, Optional.ofNullable(caCert).map(BrokerClient::trusting));
  }
}
