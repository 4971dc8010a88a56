package io.shelfmark.config.security;

import static com.google.common.base.Preconditions.checkArgument;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/**
 * A bearer token stored as its SHA-256, written {@code sha256$<hex>}. Tokens are random and long
 * ({@link #newToken()} gives 256 bits), so a fast unsalted hash is enough: there is no dictionary
 * to try, unlike passwords. Make one with {@code bin/shelfmark auth hash-token}.
 *
 * <p>Immutable and thread safe. {@link #toString()} hides the hash.
 */
public final class TokenHash {
  public static final String SCHEME = "sha256";

  /** Shorter tokens could be guessed; 32 characters of base64url hold 192 bits. */
  public static final int MIN_TOKEN_LENGTH = 32;

  private static final int HASH_BYTES = 32;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final byte[] hash;

  private TokenHash(byte[] hash) {
    checkArgument(hash.length == HASH_BYTES, "hash of %s bytes (expected 32)", hash.length);
    this.hash = hash.clone();
  }

  /** A new random token: 32 bytes in base64url without padding (43 characters). */
  public static String newToken() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** The hash of {@code token}. */
  public static TokenHash of(String token) {
    requireNonNull(token, "token is null");
    return new TokenHash(sha256(token));
  }

  /**
   * Reads the encoded form.
   *
   * @throws IllegalArgumentException saying what is wrong, never repeating the text (it may be the
   *     token itself pasted by mistake)
   */
  public static TokenHash parse(String encoded) {
    requireNonNull(encoded, "encoded is null");
    String text = encoded.strip();
    String prefix = SCHEME + "$";
    if (!text.startsWith(prefix) || text.length() != prefix.length() + 2 * HASH_BYTES) {
      throw new IllegalArgumentException(
          "expected sha256$ and 64 hex digits, as printed by bin/shelfmark auth hash-token");
    }
    try {
      return new TokenHash(HexFormat.of().parseHex(text.substring(prefix.length())));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("expected sha256$ and 64 hex digits (not hex)");
    }
  }

  /** Whether {@code token} hashes to this hash, in constant time. */
  public boolean matches(String token) {
    requireNonNull(token, "token is null");
    return MessageDigest.isEqual(sha256(token), hash);
  }

  /** The form written in config files. */
  public String encoded() {
    return SCHEME + "$" + HexFormat.of().formatHex(hash);
  }

  static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every JDK has SHA-256", e);
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof TokenHash that && Arrays.equals(hash, that.hash);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(hash);
  }

  @Override
  public String toString() {
    return SCHEME + "$****";
  }
}
