package io.shelfmark.storage.local;

import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectInfo;
import io.shelfmark.storage.spi.ObjectNotFoundException;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Lists files the way S3 lists keys: every regular file whose path starts with the prefix as a
 * string, in key order, skipping in-flight temporary files.
 */
final class DirectoryLister {
  /** Code-point order, which is the UTF-8 byte order S3 lists keys in (UTF-16 order is not). */
  static final Comparator<String> KEY_ORDER =
      (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
          int ca = a.codePointAt(i);
          int cb = b.codePointAt(j);
          if (ca != cb) {
            return Integer.compare(ca, cb);
          }
          i += Character.charCount(ca);
          j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
      };

  private DirectoryLister() {}

  /**
   * @param prefix the listing prefix as the caller gave it
   * @param base the prefix resolved to a path (normalized, so without a trailing slash)
   * @param bucket for s3 prefixes, the bucket's directory; keys are paths relative to it
   */
  static List<ObjectInfo> list(Location prefix, Path base, Optional<Path> bucket)
      throws IOException {
    if (bucket.isPresent() && !Files.isDirectory(bucket.get())) {
      throw new ObjectNotFoundException(
          prefix,
          "no bucket " + prefix.bucket() + " at " + bucket.get(),
          new NoSuchFileException(bucket.get().toString()));
    }
    // "dir/" lists below dir; "dir/part" lists dir's entries starting with "part"; an empty s3 key
    // lists the whole bucket.
    boolean directoryPrefix = prefix.key().isEmpty() || prefix.key().endsWith("/");
    String text = base.toString();
    String prefixText = directoryPrefix && !text.endsWith("/") ? text + "/" : text;
    Path start = directoryPrefix ? base : base.getParent();
    List<ObjectInfo> found = new ArrayList<>();
    if (start == null || !Files.isDirectory(start)) {
      return found;
    }
    Files.walkFileTree(
        start,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attributes) {
            String name = directory.toString();
            String asPrefix = name.endsWith("/") ? name : name + "/";
            // Descend only where matches can be: below the prefix, or on the way to it.
            return asPrefix.startsWith(prefixText) || prefixText.startsWith(asPrefix)
                ? FileVisitResult.CONTINUE
                : FileVisitResult.SKIP_SUBTREE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            String name = file.toString();
            if (attributes.isRegularFile()
                && name.startsWith(prefixText)
                && !name.endsWith(LocalObjectStore.TEMPORARY_SUFFIX)) {
              found.add(LocalObjectStore.info(locationOf(prefix, file, bucket), attributes));
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            // A file deleted while the walk passes by is simply not listed, as with S3.
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE;
            }
            throw e;
          }
        });
    found.sort(Comparator.comparing((ObjectInfo info) -> info.location().key(), KEY_ORDER));
    return found;
  }

  private static Location locationOf(Location prefix, Path file, Optional<Path> bucket) {
    if (bucket.isEmpty()) {
      return new Location("file", "", file.toString());
    }
    String key =
        bucket.get().relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
    return new Location("s3", prefix.bucket(), key);
  }
}
