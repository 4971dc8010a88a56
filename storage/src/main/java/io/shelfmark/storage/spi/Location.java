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
   * {@code file:///path} or a plain absolute path. File paths are normalized ({@code .} and {@code
   * ..} resolved) but keep a trailing slash, which matters for {@link ObjectStore#list} prefixes.
   */
  public static Location parse(String text) {
    requireNonNull(text, "text is null");
    if (text.startsWith("/")) {
      return new Location("file", "", pathKey(Path.of(text), text));
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
        return new Location("file", "", pathKey(Path.of(URI.create(text)), text));
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

  // Path.normalize drops a trailing slash, but as a listing prefix "dir/" (what is below dir)
  // differs
  // from "dir" (which also matches dir2/...): keep it, as s3 keys keep theirs.
  private static String pathKey(Path path, String text) {
    String normalized = path.normalize().toString();
    return text.endsWith("/") && !normalized.endsWith("/") ? normalized + "/" : normalized;
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
