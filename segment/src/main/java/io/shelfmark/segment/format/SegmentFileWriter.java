package io.shelfmark.segment.format;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Writes the segment container: the header, then parts one after another (each checksummed and
 * 8-byte aligned), then the table of contents and the trailer on {@link #finish()}. Streams to an
 * {@link OutputStream}; holds only the table of contents in memory.
 *
 * <p>Lifecycle: construct (writes the header), {@link #writePart} any number of times with distinct
 * keys, {@link #finish()} once. The caller owns and closes the stream. Not thread safe.
 */
public final class SegmentFileWriter {
  private static final byte[] PADDING = new byte[SegmentFormat.PART_ALIGNMENT];

  private final OutputStream out;
  private final List<TocEntry> entries = new ArrayList<>();
  private final Set<PartKey> keys = new HashSet<>();
  private long position;
  private boolean finished;

  public SegmentFileWriter(OutputStream out) throws IOException {
    this.out = requireNonNull(out, "out is null");
    PartWriter header = new PartWriter(SegmentFormat.HEADER_SIZE);
    header.putBytes(SegmentFormat.MAGIC);
    header.putShort(SegmentFormat.MAJOR_VERSION).putShort(SegmentFormat.MINOR_VERSION).putInt(0);
    write(header.toByteArray(), 0, SegmentFormat.HEADER_SIZE);
  }

  /** Appends one part; returns its table of contents entry. */
  public TocEntry writePart(PartKey key, int version, byte[] content) throws IOException {
    return writePart(key, version, content, 0, content.length);
  }

  /** Appends {@code length} bytes of {@code content} from {@code offset} as one part. */
  public TocEntry writePart(PartKey key, int version, byte[] content, int offset, int length)
      throws IOException {
    requireNonNull(key, "key is null");
    requireNonNull(content, "content is null");
    if (finished) {
      throw new IllegalStateException("Cannot write part " + key + ": the segment is finished");
    }
    if (!keys.add(key)) {
      throw new IllegalArgumentException("Cannot write part " + key + " twice");
    }
    int padding = (int) (-position & (SegmentFormat.PART_ALIGNMENT - 1));
    write(PADDING, 0, padding);
    CRC32C crc = new CRC32C();
    crc.update(content, offset, length);
    TocEntry entry = new TocEntry(key, version, position, length, (int) crc.getValue());
    write(content, offset, length);
    entries.add(entry);
    return entry;
  }

  /** Writes the table of contents and trailer; returns the segment's total size in bytes. */
  public long finish() throws IOException {
    if (finished) {
      throw new IllegalStateException("Cannot finish a segment twice");
    }
    finished = true;
    byte[] toc = new TableOfContents(entries).serialize();
    long tocOffset = position;
    write(toc, 0, toc.length);
    CRC32C crc = new CRC32C();
    crc.update(toc);
    PartWriter trailer = new PartWriter(SegmentFormat.TRAILER_SIZE);
    trailer.putLong(tocOffset).putInt(toc.length).putInt((int) crc.getValue());
    trailer.putShort(SegmentFormat.MAJOR_VERSION).putShort(SegmentFormat.MINOR_VERSION).putInt(0);
    trailer.putBytes(SegmentFormat.MAGIC);
    write(trailer.toByteArray(), 0, SegmentFormat.TRAILER_SIZE);
    out.flush();
    return position;
  }

  /** The entries written so far, in file order. */
  public List<TocEntry> entries() {
    return List.copyOf(entries);
  }

  private void write(byte[] bytes, int offset, int length) throws IOException {
    out.write(bytes, offset, length);
    position += length;
  }
}
