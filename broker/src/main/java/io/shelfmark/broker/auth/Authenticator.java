package io.shelfmark.broker.auth;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.shelfmark.config.security.PasswordHash;
import io.shelfmark.config.security.SecurityConfig;
import io.shelfmark.config.security.TokenHash;
import io.shelfmark.config.security.UserConfig;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks the {@code Authorization} header of a request against {@code security.users}: HTTP Basic
 * ({@code user:password}, checked against the user's PBKDF2 hash) or a bearer token (checked
 * against the users' SHA-256 token hashes).
 *
 * <p>A PBKDF2 check costs hundreds of milliseconds of CPU by design, and Basic clients send the
 * password with every request. So {@link #check} answers at once for tokens, for malformed headers
 * and for a password that already passed, and hands back an {@link AuthOutcome.PasswordCheck} for
 * the rest, which the caller runs through {@link #verify} on a bounded pool. Passed passwords are
 * remembered per user as an HMAC under a key made at start-up, so the memory holds no password.
 * Unknown users are checked against a dummy hash of the same cost, so timing does not tell which
 * user names exist.
 *
 * <p>Thread safe.
 */
public final class Authenticator {
  /** The realm named in {@code WWW-Authenticate}. */
  public static final String REALM = "shelfmark";

  private static final String BASIC = "basic ";
  private static final String BEARER = "bearer ";

  private final boolean enabled;
  private final Map<String, UserConfig> users = new HashMap<>();
  private final Map<TokenHash, UserConfig> byToken = new HashMap<>();
  private final PasswordHash dummy;
  private final SecretKeySpec rememberKey;
  private final Map<String, byte[]> passed = new ConcurrentHashMap<>();

  public Authenticator(SecurityConfig config) {
    requireNonNull(config, "config is null");
    this.enabled = config.authenticationConfigured();
    int iterations = PasswordHash.MIN_ITERATIONS;
    for (UserConfig user : config.users()) {
      users.put(user.name(), user);
      user.tokenHash().ifPresent(hash -> byToken.put(hash, user));
      if (user.passwordHash().isPresent()) {
        iterations = Math.max(iterations, user.passwordHash().get().iterations());
      }
    }
    this.dummy = PasswordHash.create("no such user".toCharArray(), iterations);
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    this.rememberKey = new SecretKeySpec(key, "HmacSHA256");
  }

  /** An authenticator that lets every request through as {@link Principal#UNAUTHENTICATED}. */
  public static Authenticator disabled() {
    return new Authenticator(SecurityConfig.NONE);
  }

  /** Whether requests need credentials (at least one user is configured). */
  public boolean enabled() {
    return enabled;
  }

  /**
   * Checks a request's {@code Authorization} header (null when absent). Answers {@link
   * AuthOutcome.PasswordCheck} when only a PBKDF2 check can tell.
   */
  public AuthOutcome check(String authorization) {
    if (!enabled) {
      return new AuthOutcome.Accepted(Principal.UNAUTHENTICATED);
    }
    if (authorization == null || authorization.isBlank()) {
      return new AuthOutcome.Rejected(
          "Cannot serve this request without credentials (send HTTP Basic user:password or"
              + " Authorization: Bearer <token>; see docs/security.md)",
          "no credentials");
    }
    String header = authorization.strip();
    String scheme = header.length() < 7 ? header : header.substring(0, 7);
    if (scheme.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return bearer(header.substring(BEARER.length()).strip());
    }
    if (scheme.regionMatches(true, 0, BASIC, 0, BASIC.length())) {
      return basic(header.substring(BASIC.length()).strip());
    }
    return new AuthOutcome.Rejected(
        "Cannot read the Authorization header: unknown scheme (use Basic or Bearer)",
        "unknown authorization scheme");
  }

  private AuthOutcome bearer(String token) {
    UserConfig user = token.isEmpty() ? null : byToken.get(TokenHash.of(token));
    if (user == null) {
      return new AuthOutcome.Rejected(
          "Cannot authenticate: the bearer token is not valid (check the token, or ask an"
              + " administrator for one)",
          "invalid bearer token");
    }
    return new AuthOutcome.Accepted(Principal.of(user));
  }

  private AuthOutcome basic(String encoded) {
    byte[] decoded;
    try {
      decoded = Base64.getDecoder().decode(encoded);
    } catch (IllegalArgumentException e) {
      return malformedBasic();
    }
    CharBuffer chars = UTF_8.decode(ByteBuffer.wrap(decoded));
    char[] text = new char[chars.remaining()];
    chars.get(text);
    Arrays.fill(chars.array(), '\0');
    Arrays.fill(decoded, (byte) 0);
    int colon = indexOf(text, ':');
    if (colon <= 0) {
      Arrays.fill(text, '\0');
      return malformedBasic();
    }
    String user = new String(text, 0, colon);
    char[] password = Arrays.copyOfRange(text, colon + 1, text.length);
    Arrays.fill(text, '\0');
    UserConfig known = users.get(user);
    if (known != null && known.passwordHash().isPresent()) {
      byte[] remembered = passed.get(user);
      if (remembered != null && MessageDigest.isEqual(remembered, remember(password))) {
        Arrays.fill(password, '\0');
        return new AuthOutcome.Accepted(Principal.of(known));
      }
    }
    return new AuthOutcome.PasswordCheck(user, password);
  }

  /**
   * Runs the PBKDF2 check {@link #check} asked for; slow by design, so never on a network thread.
   * Clears the password it was given.
   */
  public AuthOutcome verify(AuthOutcome.PasswordCheck check) {
    requireNonNull(check, "check is null");
    try {
      UserConfig user = users.get(check.user);
      Optional<PasswordHash> hash = user == null ? Optional.empty() : user.passwordHash();
      // Same work whether or not the user exists: timing must not tell.
      boolean matches = hash.orElse(dummy).matches(check.password) && hash.isPresent();
      if (!matches) {
        return new AuthOutcome.Rejected(
            "Cannot authenticate: unknown user or wrong password",
            "wrong password or unknown user " + printable(check.user));
      }
      passed.put(user.name(), remember(check.password));
      return new AuthOutcome.Accepted(Principal.of(user));
    } finally {
      Arrays.fill(check.password, '\0');
    }
  }

  private byte[] remember(char[] password) {
    ByteBuffer bytes = UTF_8.encode(CharBuffer.wrap(password));
    byte[] array = new byte[bytes.remaining()];
    bytes.get(array);
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(rememberKey);
      return mac.doFinal(array);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Every JDK has HmacSHA256", e);
    } finally {
      Arrays.fill(array, (byte) 0);
    }
  }

  private static AuthOutcome malformedBasic() {
    return new AuthOutcome.Rejected(
        "Cannot read the Authorization header: Basic needs base64 of user:password",
        "malformed basic credentials");
  }

  private static int indexOf(char[] text, char wanted) {
    for (int i = 0; i < text.length; i++) {
      if (text[i] == wanted) {
        return i;
      }
    }
    return -1;
  }

  /** A user name as it may appear in a log line: printable and short (it is the client's text). */
  static String printable(String text) {
    String shown = text.length() > 64 ? text.substring(0, 64) + "…" : text;
    return "\"" + shown.replaceAll("[^\\x20-\\x7e]", "?") + "\"";
  }
}
