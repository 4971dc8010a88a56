package io.shelfmark.cli.command;

import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.client.BrokerCredentials;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.Role;
import io.shelfmark.config.security.TlsConfig;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * How a command reaches a broker: its URL (given, or read from the node's cluster config), the
 * credentials and, for https, which CA to trust. Passwords come only from the environment, never
 * from the command line, where {@code ps} shows them to every user of the machine.
 */
final class BrokerOptions {
  /** The variable that names the broker's URL when neither option does. */
  static final String BROKER_VARIABLE = "SHELFMARK_BROKER";

  /** The variable that names the node's cluster config when neither option does. */
  static final String CONFIG_VARIABLE = "SHELFMARK_CONFIG";

  @Option(
      names = "--broker",
      paramLabel = "URL",
      description =
          "The broker's URL (default: from --config, else "
              + BROKER_VARIABLE
              + ", else "
              + BrokerClient.DEFAULT_URL
              + ").")
  String url;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "Reach the broker the node started with this cluster config serves: its host,"
              + " broker.http-port and TLS (default: "
              + CONFIG_VARIABLE
              + " when set).")
  Path config;

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
              + " broker certificate); default: the certificate of --config's TLS section, else"
              + " the JDK's CAs.")
  Path caCert;

  /** A client of the broker these options name. */
  BrokerClient client() {
    return client(System.getenv());
  }

  BrokerClient client(Map<String, String> environment) {
    BrokerCredentials credentials =
        BrokerCredentials.resolve(
            Optional.ofNullable(user), Optional.ofNullable(token), environment);
    Optional<ClusterConfig> node = nodeConfig(environment);
    String target =
        Optional.ofNullable(url)
            .or(() -> node.map(BrokerOptions::urlOf))
            .or(() -> Optional.ofNullable(environment.get(BROKER_VARIABLE)))
            .filter(value -> !value.isBlank())
            .orElse(BrokerClient.DEFAULT_URL);
    Optional<Path> trusted =
        Optional.ofNullable(caCert)
            .or(() -> node.flatMap(c -> c.security().tls()).map(TlsConfig::certificateFile));
    return new BrokerClient(target, credentials, trusted.map(BrokerClient::trusting));
  }

  /**
   * The cluster config {@code --config} or {@value #CONFIG_VARIABLE} names, loaded and checked;
   * none when {@code --broker} names the broker outright.
   */
  private Optional<ClusterConfig> nodeConfig(Map<String, String> environment) {
    Optional<Path> file =
        Optional.ofNullable(config)
            .or(
                () ->
                    Optional.ofNullable(environment.get(CONFIG_VARIABLE))
                        .filter(value -> !value.isBlank())
                        .map(Path::of));
    if (url != null || file.isEmpty()) {
      return Optional.empty();
    }
    ClusterConfig loaded = ConfigLoader.withSystemEnvironment().loadCluster(file.get());
    if (!loaded.roles().contains(Role.BROKER)) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "Cannot reach a broker through %s: its roles are %s, not broker (pass the"
                  + " broker's config, or --broker URL)",
              file.get(),
              loaded.roles().stream().map(Role::configName).sorted().toList()));
    }
    return Optional.of(loaded);
  }

  /**
   * The URL a local client reaches the broker of {@code config} at: a wildcard bind address is
   * reached through loopback, as the node's banner does.
   */
  static String urlOf(ClusterConfig config) {
    String host = config.host().strip();
    if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
      host = "127.0.0.1";
    } else if (host.contains(":") && !host.startsWith("[")) {
      host = "[" + host + "]";
    }
    String scheme = config.security().tls().isPresent() ? "https" : "http";
    return scheme + "://" + host + ":" + config.ports().brokerHttpPort();
  }
}
