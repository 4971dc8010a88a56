package io.shelfmark.storage.s3;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * A parsed {@code Content-Range} header: {@code bytes first-last/size} (a 206 answer) or {@code
 * bytes * /size} (a 416 answer, without the space), where the size may be {@code *} (unknown).
 *
 * @param first the first byte sent, or -1 when none was (416)
 * @param last the last byte sent, or -1 when none was
 * @param size the object's size when the server said it
 */
record ContentRange(long first, long last, OptionalLong size) {
  static Optional<ContentRange> parse(String header) {
    if (header == null || !header.startsWith("bytes ")) {
      return Optional.empty();
    }
    String value = header.substring("bytes ".length()).trim();
    int slash = value.indexOf('/');
    if (slash < 0) {
      return Optional.empty();
    }
    try {
      String sizeText = value.substring(slash + 1);
      OptionalLong size =
          sizeText.equals("*") ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(sizeText));
      String range = value.substring(0, slash);
      if (range.equals("*")) {
        return Optional.of(new ContentRange(-1, -1, size));
      }
      int dash = range.indexOf('-');
      if (dash < 0) {
        return Optional.empty();
      }
      return Optional.of(
          new ContentRange(
              Long.parseLong(range.substring(0, dash)),
              Long.parseLong(range.substring(dash + 1)),
              size));
    } catch (NumberFormatException e) {
      // A malformed header carries no information we can trust: treat it as absent.
      return Optional.empty();
    }
  }
}
