package io.shelfmark.segment.format;

import static java.util.Objects.requireNonNull;

import java.io.IOException;

/**
 * A segment whose bytes contradict the format: a checksum mismatch, a truncated file, a missing
 * magic number, a table of contents or part that points outside the file, or a part whose contents
 * do not parse. Rebuilding the segment from its data file is the cure; the data file itself is not
 * affected.
 *
 * <p>The message reads {@code Cannot read segment <segment>: <reason> (part <part> at offset
 * <offset>; rebuild the segment)}, where the part is {@code ""} for the container itself (header,
 * trailer, table of contents) and the offset is the absolute file offset where the problem was
 * found, or -1 when unknown.
 */
public class CorruptSegmentException extends IOException {
  private final String segment;
  private final String part;
  private final long offset;
  private final String reason;

  public CorruptSegmentException(String segment, String part, long offset, String reason) {
    this(segment, part, offset, reason, null);
  }

  public CorruptSegmentException(
      String segment, String part, long offset, String reason, Throwable cause) {
    super(message(segment, part, offset, reason), cause);
    this.segment = segment;
    this.part = part;
    this.offset = offset;
    this.reason = reason;
  }

  private static String message(String segment, String part, long offset, String reason) {
    requireNonNull(segment, "segment is null");
    requireNonNull(part, "part is null");
    requireNonNull(reason, "reason is null");
    String where = part.isEmpty() ? "container" : "part " + part;
    return "Cannot read segment %s: %s (%s at offset %d; rebuild the segment)"
        .formatted(segment, reason, where, offset);
  }

  /** The segment's name: its path or object location. */
  public String segment() {
    return segment;
  }

  /** The part, as {@code kind[name]}, or {@code ""} for the container itself. */
  public String part() {
    return part;
  }

  /** The absolute file offset where the problem was found, or -1. */
  public long offset() {
    return offset;
  }

  /** What is wrong, without the location. */
  public String reason() {
    return reason;
  }
}
