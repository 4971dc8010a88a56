package io.shelfmark.broker.auth;

import static java.util.Objects.requireNonNull;

/** What checking one request's credentials gave. */
public sealed interface AuthOutcome {
  /** The credentials name a user: serve the request as {@code principal}. */
  record Accepted(Principal principal) implements AuthOutcome {
    public Accepted {
      requireNonNull(principal, "principal is null");
    }
  }

  /**
   * No valid credentials: answer 401.
   *
   * @param message for the client: names what is missing or wrong, never a secret, and never
   *     whether a user name exists
   * @param logDetail for the server log: adds the user name tried, if any
   */
  record Rejected(String message, String logDetail) implements AuthOutcome {
    public Rejected {
      requireNonNull(message, "message is null");
      requireNonNull(logDetail, "logDetail is null");
    }
  }

  /**
   * A password that must be checked against its PBKDF2 hash: slow by design, so callers run {@link
   * Authenticator#verify} away from network threads.
   */
  final class PasswordCheck implements AuthOutcome {
    final String user;
    final char[] password;

    PasswordCheck(String user, char[] password) {
      this.user = requireNonNull(user, "user is null");
      this.password = requireNonNull(password, "password is null");
    }

    @Override
    public String toString() {
      return "PasswordCheck[user=" + user + ", password=****]";
    }
  }
}
