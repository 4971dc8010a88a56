package io.shelfmark.config;

import static java.util.Objects.requireNonNull;

/**
 * One problem found in a config: the key path it concerns and a message that names the key, the
 * value given and what is allowed, such as {@code Cannot use storage.type: "gcs" (allowed: s3,
 * local)}.
 *
 * @param key the dotted key path ({@code cache.disk.max-size}); empty for problems with the whole
 *     file, such as a syntax error
 * @param message the full message, naming the key itself
 */
public record Violation(String key, String message) {
  public Violation {
    requireNonNull(key, "key is null");
    requireNonNull(message, "message is null");
  }

  @Override
  public String toString() {
    return message;
  }
}
