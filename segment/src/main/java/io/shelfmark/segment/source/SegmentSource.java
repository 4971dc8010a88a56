package io.shelfmark.segment.source;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where a segment's bytes come from: a memory-mapped local file ({@link MappedSegmentSource}) when
 * the segment is pinned on local disk, ranged reads from the segment store ({@link
 * ObjectStoreSegmentSource}) in "no local storage" mode, or a byte array ({@link
 * ByteArraySegmentSource}). A segment reads only the byte ranges it needs: the tail (trailer, table
 * of contents, metadata) when opened, then each part on first use.
 *
 * <p>Thread safety: implementations are safe for concurrent reads. Lifecycle: the segment that
 * reads from a source owns it and closes it; buffers returned by a mapped source must not be used
 * after close (they then fail with {@link IllegalStateException}, never crash the JVM).
 */
public interface SegmentSource extends Closeable {
  /** A name for messages: the file path or object location. */
  String name();

  /** The segment's size in bytes. */
  long size() throws IOException;

  /**
   * Returns {@code length} bytes from {@code offset}, which must lie inside the segment; the buffer
   * is read-only, little-endian, positioned at 0 with its limit at {@code length}.
   *
   * @throws java.io.EOFException when the range extends past the end of the segment
   */
  ByteBuffer read(long offset, int length) throws IOException;

  /**
   * Whether {@link #read} returns views of memory that stays valid and unchanged until close (a
   * mapped file or an array), so checksums need verifying only once and parts need no copying.
   */
  boolean isMemoryResident();
}
