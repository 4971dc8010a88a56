package io.shelfmark.segment.source;

import static java.util.Objects.requireNonNull;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A segment file on local disk, memory-mapped read-only in one piece (no 2 GiB limit: the mapping
 * is a {@link MemorySegment} in a shared arena). Reads are zero-copy views of the mapping; the page
 * cache holds what was touched. Thread safe.
 *
 * <p>The file must not change while mapped: segments are immutable, and a pinned segment is
 * replaced by writing a new file and renaming it, never by rewriting in place.
 */
public final class MappedSegmentSource implements SegmentSource {
  private final Path path;
  private final Arena arena;
  private final MemorySegment mapping;

  private MappedSegmentSource(Path path, Arena arena, MemorySegment mapping) {
    this.path = path;
    this.arena = arena;
    this.mapping = mapping;
  }

  /** Maps {@code path}; the file is closed right away, the mapping lives until {@link #close()}. */
  public static MappedSegmentSource open(Path path) throws IOException {
    requireNonNull(path, "path is null");
    Arena arena = Arena.ofShared();
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      MemorySegment mapping = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
      return new MappedSegmentSource(path, arena, mapping);
    } catch (IOException | RuntimeException e) {
      arena.close();
      throw e;
    }
  }

  @Override
  public String name() {
    return path.toString();
  }

  @Override
  public long size() {
    return mapping.byteSize();
  }

  @Override
  public ByteBuffer read(long offset, int length) throws IOException {
    if (offset < 0 || length < 0 || offset > mapping.byteSize() - length) {
      throw new EOFException(
          "Cannot read %d bytes at offset %d of segment %s: it has %d bytes"
              .formatted(length, offset, path, mapping.byteSize()));
    }
    return mapping
        .asSlice(offset, length)
        .asByteBuffer()
        .asReadOnlyBuffer()
        .order(ByteOrder.LITTLE_ENDIAN);
  }

  @Override
  public boolean isMemoryResident() {
    return true;
  }

  @Override
  public void close() {
    arena.close();
  }

  @Override
  public String toString() {
    return "MappedSegmentSource[" + path + ", " + mapping.byteSize() + " bytes]";
  }
}
