package io.shelfmark.segment.format;

import java.io.IOException;

/**
 * A segment, or one of its core parts, written in a format version newer than this reader knows: it
 * was written by a newer Shelfmark. Not corruption: upgrade the reader, or rebuild the segment with
 * this version.
 */
public class UnsupportedSegmentVersionException extends IOException {
  private final String segment;

  public UnsupportedSegmentVersionException(String segment, String message) {
    super(message);
    this.segment = segment;
  }

  /** The segment's name: its path or object location. */
  public String segment() {
    return segment;
  }
}
