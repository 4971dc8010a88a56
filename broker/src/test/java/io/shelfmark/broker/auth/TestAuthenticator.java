package io.shelfmark.broker.auth;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.config.security.PasswordHash;
import io.shelfmark.config.security.SecurityConfig;
import io.shelfmark.config.security.TablePattern;
import io.shelfmark.config.security.TokenHash;
import io.shelfmark.config.security.UserConfig;
import io.shelfmark.config.security.UserRole;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TestAuthenticator {
  private static final String TOKEN = "token-of-forty-characters-0123456789abcd";
  private final Authenticator authenticator =
      new Authenticator(
          new SecurityConfig(
              List.of(
                  new UserConfig(
                      "alice",
                      Optional.of(PasswordHash.create("s3cret:with:colons".toCharArray(), 10_000)),
                      Optional.empty(),
                      EnumSet.of(UserRole.QUERY),
                      List.of(new TablePattern("obs.*"))),
                  new UserConfig(
                      "robot",
                      Optional.empty(),
                      Optional.of(TokenHash.of(TOKEN)),
                      EnumSet.of(UserRole.ADMIN),
                      List.of(TablePattern.ALL))),
              Optional.empty()));

  @Test
  void withoutUsersEveryoneIsLetIn() {
    AuthOutcome outcome = Authenticator.disabled().check(null);
    assertThat(outcome).isEqualTo(new AuthOutcome.Accepted(Principal.UNAUTHENTICATED));
    assertThat(Principal.UNAUTHENTICATED.has(UserRole.ADMIN)).isTrue();
    assertThat(Principal.UNAUTHENTICATED.readsEverything()).isTrue();
  }

  @Test
  void basicPasswordIsCheckedOnceThenRemembered() {
    AuthOutcome first = authenticator.check(basic("alice", "s3cret:with:colons"));
    assertThat(first).isInstanceOf(AuthOutcome.PasswordCheck.class);
    assertThat(first.toString()).doesNotContain("s3cret");
    AuthOutcome verified = authenticator.verify((AuthOutcome.PasswordCheck) first);
    Principal alice = ((AuthOutcome.Accepted) verified).principal();
    assertThat(alice.name()).isEqualTo("alice");
    assertThat(alice.has(UserRole.QUERY)).isTrue();
    assertThat(alice.has(UserRole.ADMIN)).isFalse();
    assertThat(alice.canRead("obs.metrics")).isTrue();
    assertThat(alice.canRead("hr.payroll")).isFalse();
    // The second request with the same password needs no PBKDF2.
    assertThat(authenticator.check(basic("alice", "s3cret:with:colons")))
        .isEqualTo(new AuthOutcome.Accepted(alice));
    // Another password is checked again, and fails.
    AuthOutcome wrong = authenticator.check(basic("alice", "guess"));
    assertThat(wrong).isInstanceOf(AuthOutcome.PasswordCheck.class);
    assertThat(authenticator.verify((AuthOutcome.PasswordCheck) wrong))
        .isInstanceOf(AuthOutcome.Rejected.class);
  }

  @Test
  void unknownUserAndWrongPasswordAnswerAlike() {
    AuthOutcome unknown =
        authenticator.verify(
            (AuthOutcome.PasswordCheck) authenticator.check(basic("mallory", "guess")));
    AuthOutcome wrong =
        authenticator.verify(
            (AuthOutcome.PasswordCheck) authenticator.check(basic("alice", "guess")));
    assertThat(((AuthOutcome.Rejected) unknown).message())
        .isEqualTo(((AuthOutcome.Rejected) wrong).message())
        .isEqualTo("Cannot authenticate: unknown user or wrong password");
    // A user with only a token cannot log in with Basic.
    AuthOutcome tokenUser =
        authenticator.verify(
            (AuthOutcome.PasswordCheck) authenticator.check(basic("robot", TOKEN)));
    assertThat(tokenUser).isInstanceOf(AuthOutcome.Rejected.class);
  }

  @Test
  void bearerTokensAnswerAtOnce() {
    AuthOutcome robot = authenticator.check("Bearer " + TOKEN);
    assertThat(((AuthOutcome.Accepted) robot).principal().has(UserRole.ADMIN)).isTrue();
    assertThat(authenticator.check("bearer " + TOKEN)).isInstanceOf(AuthOutcome.Accepted.class);
    AuthOutcome wrong = authenticator.check("Bearer " + TOKEN + "x");
    assertThat(((AuthOutcome.Rejected) wrong).message())
        .startsWith("Cannot authenticate: the bearer token is not valid")
        .doesNotContain(TOKEN);
  }

  @Test
  void missingOrMalformedHeadersAreRejectedWithAHint() {
    assertThat(((AuthOutcome.Rejected) authenticator.check(null)).message())
        .contains("without credentials");
    assertThat(((AuthOutcome.Rejected) authenticator.check("Digest abc")).message())
        .contains("unknown scheme");
    assertThat(((AuthOutcome.Rejected) authenticator.check("Basic %%%")).message())
        .contains("Basic needs base64 of user:password");
    String noColon = "Basic " + Base64.getEncoder().encodeToString("alice".getBytes(UTF_8));
    assertThat(authenticator.check(noColon)).isInstanceOf(AuthOutcome.Rejected.class);
  }

  @Test
  void logLinesShowUserNamesPrintableAndShort() {
    assertThat(Authenticator.printable("bob\n\u001b[31m")).isEqualTo("\"bob??[31m\"");
    assertThat(Authenticator.printable("x".repeat(100))).hasSize(67);
  }

  private static String basic(String user, String password) {
    return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(UTF_8));
  }
}
