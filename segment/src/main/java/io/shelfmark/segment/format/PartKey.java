package io.shelfmark.segment.format;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;

/**
 * Names one part of a segment: its kind (a persisted id such as {@code "inverted"} or {@code
 * "metadata"}) and a name — the column for column parts, the data file's ordinal for per-file parts
 * ({@code "0"}), empty for segment-wide parts. A segment holds each key at most once.
 *
 * @param kind the part kind: 1 to {@value #MAX_KIND_BYTES} ASCII letters, digits or dashes
 * @param name the column, file ordinal or {@code ""}; at most {@value #MAX_NAME_BYTES} UTF-8 bytes
 */
public record PartKey(String kind, String name) implements Comparable<PartKey> {
  public static final int MAX_KIND_BYTES = 64;
  public static final int MAX_NAME_BYTES = 65535;

  public PartKey {
    requireNonNull(kind, "kind is null");
    requireNonNull(name, "name is null");
    if (kind.isEmpty() || kind.length() > MAX_KIND_BYTES || !kind.matches("[a-z0-9-]+")) {
      throw new IllegalArgumentException(
          "Cannot use part kind: '%s' (expected 1 to %d lower-case letters, digits or dashes)"
              .formatted(kind, MAX_KIND_BYTES));
    }
    if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
      throw new IllegalArgumentException(
          "Cannot use part name of %d characters for kind %s (at most %d UTF-8 bytes)"
              .formatted(name.length(), kind, MAX_NAME_BYTES));
    }
  }

  /** A segment-wide part, such as the metadata. */
  public static PartKey of(String kind) {
    return new PartKey(kind, "");
  }

  /** A part of one column, such as its inverted index. */
  public static PartKey column(String kind, String column) {
    return new PartKey(kind, column);
  }

  /** A part of one data file of the segment, such as its Parquet footer. */
  public static PartKey file(String kind, int fileOrdinal) {
    if (fileOrdinal < 0) {
      throw new IllegalArgumentException("file ordinal is negative: " + fileOrdinal);
    }
    return new PartKey(kind, Integer.toString(fileOrdinal));
  }

  @Override
  public int compareTo(PartKey other) {
    int byKind = kind.compareTo(other.kind);
    return byKind != 0 ? byKind : name.compareTo(other.name);
  }

  @Override
  public String toString() {
    return name.isEmpty() ? kind : kind + "[" + name + "]";
  }
}
