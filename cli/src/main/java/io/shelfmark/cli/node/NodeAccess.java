package io.shelfmark.cli.node;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.client.BrokerCredentials;
import io.shelfmark.config.security.SecurityConfig;
import io.shelfmark.config.security.TablePattern;
import io.shelfmark.config.security.TokenHash;
import io.shelfmark.config.security.UserConfig;
import io.shelfmark.config.security.UserRole;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

/**
 * How a node's own code reaches its broker over HTTP (the warm-up queries it): when the broker
 * requires credentials, the node adds a user {@value #WARMUP_USER} with a random token made at
 * start-up and held only in memory, allowed to query every table and nothing else. With TLS, the
 * node trusts its own certificate.
 *
 * @param security the config the broker enforces, the warm-up user included
 * @param credentials what the node's own client sends
 */
record NodeAccess(SecurityConfig security, BrokerCredentials credentials) {
  /** The user the warm-up queries as; config files may not name it. */
  static final String WARMUP_USER = UserConfig.RESERVED_NAME;

  NodeAccess {
    requireNonNull(security, "security is null");
    requireNonNull(credentials, "credentials is null");
  }

  static NodeAccess of(SecurityConfig configured) {
    requireNonNull(configured, "configured is null");
    if (!configured.authenticationConfigured()) {
      return new NodeAccess(configured, BrokerCredentials.NONE);
    }
    if (configured.user(WARMUP_USER).isPresent()) {
      throw new IllegalArgumentException(
          "Cannot use user name "
              + WARMUP_USER
              + " in security.users: the node's warm-up uses it (rename the user)");
    }
    String token = TokenHash.newToken();
    List<UserConfig> users = new ArrayList<>(configured.users());
    users.add(
        new UserConfig(
            WARMUP_USER,
            Optional.empty(),
            Optional.of(TokenHash.of(token)),
            EnumSet.of(UserRole.QUERY),
            List.of(TablePattern.ALL)));
    return new NodeAccess(
        new SecurityConfig(users, configured.tls()), new BrokerCredentials.Bearer(token));
  }

  /** {@code https} when TLS is configured. */
  String scheme() {
    return security.tls().isPresent() ? "https" : "http";
  }

  /**
   * A client of the node's broker at {@code url}. With TLS it trusts the node's certificate file
   * (its first certificate is the leaf, which verifies when it names the host the node binds).
   */
  BrokerClient client(String url) {
    return new BrokerClient(
        url, credentials, security.tls().map(tls -> BrokerClient.trusting(tls.certificateFile())));
  }
}
