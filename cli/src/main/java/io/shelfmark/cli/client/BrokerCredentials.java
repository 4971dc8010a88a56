package io.shelfmark.cli.client;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * How the CLI proves who it is to a broker that requires credentials: nothing, HTTP Basic, or a
 * bearer token. {@link #toString()} never shows the secret.
 */
public sealed interface BrokerCredentials {
  /** The environment variable holding the password for {@code --user}. */
  String PASSWORD_VARIABLE = "SHELFMARK_PASSWORD";

  /** The environment variable holding a bearer token, when {@code --token} is not given. */
  String TOKEN_VARIABLE = "SHELFMARK_TOKEN";

  /** The {@code Authorization} header's value; empty for {@link None}. */
  Optional<String> header();

  BrokerCredentials NONE = new None();

  /** No credentials: a broker without users. */
  record None() implements BrokerCredentials {
    @Override
    public Optional<String> header() {
      return Optional.empty();
    }
  }

  /** HTTP Basic, as Pinot clients send it. */
  record Basic(String user, String password) implements BrokerCredentials {
    public Basic {
      requireNonNull(user, "user is null");
      requireNonNull(password, "password is null");
      if (user.contains(":")) {
        throw new IllegalArgumentException("Cannot use user name " + user + ": it contains ':'");
      }
    }

    @Override
    public Optional<String> header() {
      String pair = user + ":" + password;
      return Optional.of("Basic " + Base64.getEncoder().encodeToString(pair.getBytes(UTF_8)));
    }

    @Override
    public String toString() {
      return "Basic[user=" + user + ", password=****]";
    }
  }

  /** A bearer token. */
  record Bearer(String token) implements BrokerCredentials {
    public Bearer {
      requireNonNull(token, "token is null");
    }

    @Override
    public Optional<String> header() {
      return Optional.of("Bearer " + token);
    }

    @Override
    public String toString() {
      return "Bearer[****]";
    }
  }

  /**
   * The credentials the command line and environment name: {@code --token} (or {@code
   * SHELFMARK_TOKEN}) for a bearer token, else {@code --user} with the password from {@code
   * SHELFMARK_PASSWORD}, else none.
   *
   * @throws BrokerClientException when {@code --user} is given without a password
   */
  static BrokerCredentials resolve(
      Optional<String> user, Optional<String> token, Map<String, String> environment) {
    Optional<String> bearer =
        token
            .or(() -> Optional.ofNullable(environment.get(TOKEN_VARIABLE)))
            .filter(t -> !t.isBlank());
    if (user.isPresent()) {
      String password = environment.get(PASSWORD_VARIABLE);
      if (password == null) {
        throw new BrokerClientException(
            "Cannot log in as "
                + user.get()
                + ": no password (set "
                + PASSWORD_VARIABLE
                + "; passwords are not taken on the command line, where other users could see"
                + " them)");
      }
      return new Basic(user.get(), password);
    }
    return bearer.<BrokerCredentials>map(Bearer::new).orElse(NONE);
  }
}
