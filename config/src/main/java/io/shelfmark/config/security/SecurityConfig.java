package io.shelfmark.config.security;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Who may use the HTTP API and whether it speaks TLS. Without users (the default) every request is
 * served without credentials, as the quickstart on 127.0.0.1 expects; with at least one user every
 * endpoint but {@code /health} requires credentials.
 *
 * @param users the users, by distinct name ({@code security.users})
 * @param tls TLS for HTTP ({@code security.tls.*}); empty: plain HTTP
 */
public record SecurityConfig(List<UserConfig> users, Optional<TlsConfig> tls) {
  /** No users, no TLS: today's quickstart. */
  public static final SecurityConfig NONE = new SecurityConfig(List.of(), Optional.empty());

  public SecurityConfig {
    users = List.copyOf(requireNonNull(users, "users is null"));
    requireNonNull(tls, "tls is null");
    Set<String> names = new HashSet<>();
    Set<TokenHash> tokens = new HashSet<>();
    for (UserConfig user : users) {
      checkArgument(names.add(user.name()), "Cannot use user %s twice", user.name());
      user.tokenHash()
          .ifPresent(
              token ->
                  checkArgument(
                      tokens.add(token),
                      "Cannot use the token-hash of user %s: another user has the same token",
                      user.name()));
    }
  }

  /** Whether requests must carry credentials: at least one user is configured. */
  public boolean authenticationConfigured() {
    return !users.isEmpty();
  }

  /** The user with that name. */
  public Optional<UserConfig> user(String name) {
    return users.stream().filter(user -> user.name().equals(name)).findFirst();
  }
}
