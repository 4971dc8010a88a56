package io.shelfmark.broker.flightsql;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.shelfmark.broker.auth.AuthOutcome;
import io.shelfmark.broker.auth.Authenticator;
import io.shelfmark.broker.auth.FailureLog;
import io.shelfmark.broker.auth.Principal;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.auth2.Auth2Constants;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;

/**
 * Checks each Flight call's {@code authorization} header with the HTTP API's {@link Authenticator}:
 * HTTP Basic {@code user:password} or a configured bearer token. A call that passed Basic gets a
 * session bearer token back (the Flight SQL JDBC driver and ADBC send Basic once, then the token
 * they were given), held in memory for {@link #SESSION_IDLE} after its last use, so the PBKDF2
 * check runs once per connection, not per call.
 *
 * <p>The caller's identity is the user name; {@link #principal} gives the {@link Principal} a
 * call's identity stands for. Thread safe.
 */
final class FlightAuthenticator implements CallHeaderAuthenticator {
  static final Duration SESSION_IDLE = Duration.ofHours(1);

  private static final String BEARER = "Bearer ";

  private final Authenticator authenticator;
  private final FailureLog failures;
  private final Cache<String, Principal> sessions =
      Caffeine.newBuilder().expireAfterAccess(SESSION_IDLE).maximumSize(100_000).build();
  private final Map<String, Principal> byName = new ConcurrentHashMap<>();
  private final SecureRandom random = new SecureRandom();

  FlightAuthenticator(Authenticator authenticator, FailureLog failures) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.failures = requireNonNull(failures, "failures is null");
  }

  /** The caller a call's peer identity names; everyone when authentication is off. */
  Principal principal(String peerIdentity) {
    if (!authenticator.enabled()) {
      return Principal.UNAUTHENTICATED;
    }
    Principal principal = byName.get(peerIdentity);
    if (principal == null) {
      // Only authenticated calls reach the producer, and each one recorded its user first.
      throw CallStatus.UNAUTHENTICATED
          .withDescription("Cannot serve this call: its caller is not authenticated")
          .toRuntimeException();
    }
    return principal;
  }

  @Override
  public AuthResult authenticate(CallHeaders headers) {
    if (!authenticator.enabled()) {
      return () -> "";
    }
    String header = headers.get(Auth2Constants.AUTHORIZATION_HEADER);
    if (header != null && header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      Principal session = sessions.getIfPresent(header.substring(BEARER.length()).strip());
      if (session != null) {
        return result(session, null);
      }
    }
    AuthOutcome outcome = authenticator.check(header);
    if (outcome instanceof AuthOutcome.PasswordCheck check) {
      // gRPC runs this on its executor, not on an event loop: the slow check blocks only this call.
      outcome = authenticator.verify(check);
    }
    return switch (outcome) {
      case AuthOutcome.Accepted accepted -> {
        boolean basic =
            header != null && header.regionMatches(true, 0, "Basic ", 0, "Basic ".length());
        yield result(accepted.principal(), basic ? newSession(accepted.principal()) : null);
      }
      case AuthOutcome.Rejected rejected -> {
        failures.failed("flight-sql", rejected.logDetail());
        throw CallStatus.UNAUTHENTICATED.withDescription(rejected.message()).toRuntimeException();
      }
      case AuthOutcome.PasswordCheck check ->
          throw new IllegalStateException("verify() answered another check: " + check);
    };
  }

  private String newSession(Principal principal) {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    sessions.put(token, principal);
    return token;
  }

  private AuthResult result(Principal principal, String sessionToken) {
    byName.put(principal.name(), principal);
    return new AuthResult() {
      @Override
      public String getPeerIdentity() {
        return principal.name();
      }

      @Override
      public void appendToOutgoingHeaders(CallHeaders outgoing) {
        if (sessionToken != null) {
          outgoing.insert(Auth2Constants.AUTHORIZATION_HEADER, BEARER + sessionToken);
        }
      }
    };
  }
}
