package io.shelfmark.storage.spi;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.nio.file.Path;

/**
 * Where an object lives: {@code s3://bucket/key} for object stores, {@code file:/abs/path} for the
 * local filesystem. Immutable; equal locations name the same object.
 *
 * @param scheme {@code s3} or {@code file}
 * @param bucket the bucket for {@code s3}, empty for {@code file}
 * @param key the object key for {@code s3} (no leading slash), the absolute path for {@code file}
 */
public record Location(String scheme, String bucket, String key) {
  public Location {
    requireNonNull(scheme, "scheme is null");
    requireNonNull(bucket, "bucket is null");
    requireNonNull(key, "key is null");
    if (!scheme.equals("s3") && !scheme.equals("file")) {
      throw new IllegalArgumentException(
          "Cannot use location scheme: " + scheme + " (supported: s3, file)");
    }
    if (scheme.equals("s3") && bucket.isEmpty()) {
      throw new IllegalArgumentException("Cannot use s3 location without a bucket: s3:///" + key);
    }
  }

  /**
   * Parses {@code s3://bucket/key}, {@code s3a://bucket/key} (treated as s3), {@code file:/path},
   * {@code file:///path} or a plain absolute path.
   */
  public static Location parse(String text) {
    requireNonNull(text, "text is null");
    if (text.startsWith("/")) {
      return new Location("file", "", Path.of(text).normalize().toString());
    }
    int colon = text.indexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException(
          "Cannot parse location: " + text + " (expected s3://bucket/key or an absolute path)");
    }
    String scheme = text.substring(0, colon);
    switch (scheme) {
      case "s3", "s3a", "s3n" -> {
        String rest = text.substring(colon + 1);
        if (!rest.startsWith("//")) {
          throw new IllegalArgumentException(
              "Cannot parse location: " + text + " (expected s3://bucket/key)");
        }
        rest = rest.substring(2);
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        String key = slash < 0 ? "" : rest.substring(slash + 1);
        return new Location("s3", bucket, key);
      }
      case "file" -> {
        // Both file:/abs and file:///abs are absolute paths; URI handles either form.
        return new Location("file", "", Path.of(URI.create(text)).normalize().toString());
      }
      default ->
          throw new IllegalArgumentException(
              "Cannot parse location: "
                  + text
                  + " (unsupported scheme "
                  + scheme
                  + ": use s3 or file)");
    }
  }

  /** Returns the location of {@code relative} below this one, joined with a single slash. */
  public Location resolve(String relative) {
    requireNonNull(relative, "relative is null");
    String joined =
        key.isEmpty() ? relative : (key.endsWith("/") ? key + relative : key + "/" + relative);
    return new Location(scheme, bucket, joined);
  }

  @Override
  public String toString() {
    return scheme.equals("s3") ? "s3://" + bucket + "/" + key : "file:" + key;
  }
}
