package io.shelfmark.config.security;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * A password stored as PBKDF2-HMAC-SHA256, written {@code pbkdf2-sha256$<iterations>$<salt
 * base64>$<hash base64>} so that a hash made with other parameters stays verifiable. Make one with
 * {@code bin/shelfmark auth hash-password}.
 *
 * <p>Immutable and thread safe. {@link #toString()} hides the salt and hash; {@link #encoded()}
 * gives the full form for config files.
 */
public final class PasswordHash {
  public static final String SCHEME = "pbkdf2-sha256";

  /**
   * Iterations of new hashes: OWASP's 2023 figure for PBKDF2-HMAC-SHA256. Verification costs about
   * this many HMACs, so the broker remembers passwords it verified (see the authenticator).
   */
  public static final int DEFAULT_ITERATIONS = 600_000;

  /** Fewer iterations make a hash cheap to brute-force if the config file leaks. */
  public static final int MIN_ITERATIONS = 10_000;

  /** More would make each verification take seconds: a denial of service, not more safety. */
  public static final int MAX_ITERATIONS = 10_000_000;

  private static final int SALT_BYTES = 16;
  private static final int HASH_BYTES = 32;
  private static final String ALGORITHM = "PBKDF2WithHmacSHA256";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final int iterations;
  private final byte[] salt;
  private final byte[] hash;

  private PasswordHash(int iterations, byte[] salt, byte[] hash) {
    checkArgument(
        iterations >= MIN_ITERATIONS && iterations <= MAX_ITERATIONS,
        "iterations %s outside %s..%s",
        iterations,
        MIN_ITERATIONS,
        MAX_ITERATIONS);
    checkArgument(salt.length >= 8, "salt of %s bytes (at least 8)", salt.length);
    checkArgument(hash.length >= 16, "hash of %s bytes (at least 16)", hash.length);
    this.iterations = iterations;
    this.salt = salt.clone();
    this.hash = hash.clone();
  }

  /** Hashes {@code password} with a fresh random salt. */
  public static PasswordHash create(char[] password, int iterations) {
    requireNonNull(password, "password is null");
    byte[] salt = new byte[SALT_BYTES];
    RANDOM.nextBytes(salt);
    return new PasswordHash(iterations, salt, derive(password, salt, iterations, HASH_BYTES));
  }

  /**
   * Reads the encoded form.
   *
   * @throws IllegalArgumentException saying which part is wrong, never repeating the text (it may
   *     be a password pasted by mistake)
   */
  public static PasswordHash parse(String encoded) {
    requireNonNull(encoded, "encoded is null");
    List<String> parts = List.of(encoded.strip().split("\\$", -1));
    if (parts.size() != 4 || !parts.get(0).equals(SCHEME)) {
      throw new IllegalArgumentException(
          "expected "
              + SCHEME
              + "$<iterations>$<salt>$<hash>, as printed by bin/shelfmark auth hash-password");
    }
    int iterations;
    try {
      iterations = Integer.parseInt(parts.get(1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("the iteration count is not a number");
    }
    if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) {
      throw new IllegalArgumentException(
          "the iteration count "
              + iterations
              + " is outside "
              + MIN_ITERATIONS
              + " to "
              + MAX_ITERATIONS);
    }
    byte[] salt = decode(parts.get(2), "salt");
    byte[] hash = decode(parts.get(3), "hash");
    if (salt.length < 8 || hash.length < 16) {
      throw new IllegalArgumentException("the salt or hash is too short (hash the password again)");
    }
    return new PasswordHash(iterations, salt, hash);
  }

  private static byte[] decode(String text, String what) {
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the " + what + " is not base64");
    }
  }

  /**
   * Whether {@code password} hashes to this hash; the comparison takes the same time either way.
   */
  public boolean matches(char[] password) {
    requireNonNull(password, "password is null");
    byte[] candidate = derive(password, salt, iterations, hash.length);
    return MessageDigest.isEqual(candidate, hash);
  }

  public int iterations() {
    return iterations;
  }

  /** The form written in config files. */
  public String encoded() {
    Base64.Encoder base64 = Base64.getEncoder();
    return SCHEME
        + "$"
        + iterations
        + "$"
        + base64.encodeToString(salt)
        + "$"
        + base64.encodeToString(hash);
  }

  private static byte[] derive(char[] password, byte[] salt, int iterations, int bytes) {
    PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, bytes * 8);
    try {
      return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      // Every JDK ships PBKDF2WithHmacSHA256 (it is a required algorithm since Java 8).
      throw new IllegalStateException("Cannot hash a password: " + ALGORITHM + " is missing", e);
    } finally {
      spec.clearPassword();
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof PasswordHash that
        && iterations == that.iterations
        && Arrays.equals(salt, that.salt)
        && Arrays.equals(hash, that.hash);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(hash);
  }

  @Override
  public String toString() {
    return SCHEME + "$" + iterations + "$****";
  }
}
