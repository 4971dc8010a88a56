package io.shelfmark.parquet.metadata;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The page layouts of some or all column chunks of one file, by row group and leaf column index.
 * Immutable and thread safe. Serialisable so a segment can store what the index builder found and a
 * query never reads an OffsetIndex or walks page headers again.
 *
 * <h2>Serialized layout (version 1, little-endian)</h2>
 *
 * <pre>
 * magic "SMPL" | version u8 = 1 | rowGroups i32 | columns i32 | chunks i32
 * per chunk:  rowGroup i32 | column i32 | source u8 | rowCount i32
 *             dictionaryOffset i64 (-1: none) | dictionarySize i32 | pages i32
 *             per page: offset i64 | compressedSize i32 | firstRowIndex i32
 * crc32c i32 of every byte before it
 * </pre>
 */
public final class FilePageLocations {
  private static final int MAGIC = 0x4c504d53; // "SMPL" read little-endian
  private static final byte VERSION = 1;
  private static final int HEADER_BYTES = 4 + 1 + 4 + 4 + 4;
  private static final int CHUNK_BYTES = 4 + 4 + 1 + 4 + 8 + 4 + 4;
  private static final int PAGE_BYTES = 8 + 4 + 4;

  private final int rowGroupCount;
  private final int columnCount;
  private final ColumnChunkPages[] chunks; // [rowGroup * columnCount + column], null when absent

  private FilePageLocations(int rowGroupCount, int columnCount, ColumnChunkPages[] chunks) {
    this.rowGroupCount = rowGroupCount;
    this.columnCount = columnCount;
    this.chunks = chunks;
  }

  /** A builder for a file with these dimensions (from its footer). */
  public static Builder builder(int rowGroupCount, int columnCount) {
    return new Builder(rowGroupCount, columnCount);
  }

  public int rowGroupCount() {
    return rowGroupCount;
  }

  public int columnCount() {
    return columnCount;
  }

  /** The layout of one column chunk, if present. */
  public Optional<ColumnChunkPages> find(int rowGroup, int column) {
    return Optional.ofNullable(chunks[index(rowGroup, column)]);
  }

  /** The number of column chunks with a layout. */
  public int chunkCount() {
    int count = 0;
    for (ColumnChunkPages chunk : chunks) {
      if (chunk != null) {
        count++;
      }
    }
    return count;
  }

  private int index(int rowGroup, int column) {
    if (rowGroup < 0 || rowGroup >= rowGroupCount || column < 0 || column >= columnCount) {
      throw new IndexOutOfBoundsException(
          "Cannot find page locations of row group %d, column %d: the file has %d row groups of %d columns"
              .formatted(rowGroup, column, rowGroupCount, columnCount));
    }
    return rowGroup * columnCount + column;
  }

  /**
   * Checks that these locations were built for a file shaped like {@code footer}'s (same number of
   * row groups and leaf columns).
   *
   * @throws IllegalArgumentException when they were not, for example because they belong to another
   *     file
   */
  public void checkShape(ParquetFooter footer) {
    if (rowGroupCount != footer.rowGroupCount() || columnCount != footer.columnCount()) {
      throw new IllegalArgumentException(
          "Cannot use page locations for %s: they cover %d row groups of %d columns but the file has %d of %d (were they built for another file?)"
              .formatted(
                  footer.file(),
                  rowGroupCount,
                  columnCount,
                  footer.rowGroupCount(),
                  footer.columnCount()));
    }
  }

  /** The serialized form (see the class javadoc). */
  public byte[] serialize() {
    int size = HEADER_BYTES + 4;
    for (ColumnChunkPages chunk : chunks) {
      if (chunk != null) {
        size += CHUNK_BYTES + chunk.pageCount() * PAGE_BYTES;
      }
    }
    ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    out.putInt(MAGIC).put(VERSION).putInt(rowGroupCount).putInt(columnCount).putInt(chunkCount());
    for (int i = 0; i < chunks.length; i++) {
      ColumnChunkPages chunk = chunks[i];
      if (chunk == null) {
        continue;
      }
      out.putInt(i / columnCount).putInt(i % columnCount);
      out.put((byte) chunk.source().ordinal()).putInt(chunk.rowCount());
      out.putLong(chunk.dictionaryOffset()).putInt(chunk.dictionarySize());
      out.putInt(chunk.pageCount());
      for (PageLocation page : chunk.pages()) {
        out.putLong(page.offset()).putInt(page.compressedSize()).putInt((int) page.firstRowIndex());
      }
    }
    CRC32C crc = new CRC32C();
    crc.update(out.array(), 0, out.position());
    out.putInt((int) crc.getValue());
    return out.array();
  }

  /**
   * Reads the serialized form back, checking magic, version, checksum and every value.
   *
   * @throws IOException naming what is wrong when the bytes are not a valid serialization
   */
  public static FilePageLocations deserialize(ByteBuffer serialized) throws IOException {
    ByteBuffer in = serialized.slice().order(ByteOrder.LITTLE_ENDIAN);
    try {
      if (in.remaining() < HEADER_BYTES + 4) {
        throw new IOException(
            "Cannot read page locations: %d bytes are too few (at least %d)"
                .formatted(in.remaining(), HEADER_BYTES + 4));
      }
      if (in.getInt() != MAGIC) {
        throw new IOException(
            "Cannot read page locations: missing magic SMPL (not page locations)");
      }
      byte version = in.get();
      if (version != VERSION) {
        throw new IOException(
            "Cannot read page locations: version %d (this reader knows %d; rebuild the segment)"
                .formatted(version, VERSION));
      }
      CRC32C crc = new CRC32C();
      crc.update(in.duplicate().position(0).limit(in.limit() - 4));
      if ((int) crc.getValue() != in.getInt(in.limit() - 4)) {
        throw new IOException("Cannot read page locations: checksum mismatch (corrupt bytes)");
      }
      in.limit(in.limit() - 4);
      Builder builder = builder(in.getInt(), in.getInt());
      int chunkCount = in.getInt();
      for (int i = 0; i < chunkCount; i++) {
        readChunk(in, builder);
      }
      if (in.hasRemaining()) {
        throw new IOException(
            "Cannot read page locations: %d bytes after the last chunk".formatted(in.remaining()));
      }
      return builder.build();
    } catch (BufferUnderflowException | IllegalArgumentException | IndexOutOfBoundsException e) {
      throw new IOException("Cannot read page locations: " + e, e);
    }
  }

  private static void readChunk(ByteBuffer in, Builder builder) throws IOException {
    int rowGroup = in.getInt();
    int column = in.getInt();
    int source = in.get();
    int rowCount = in.getInt();
    long dictionaryOffset = in.getLong();
    int dictionarySize = in.getInt();
    int pageCount = in.getInt();
    ColumnChunkPages.Source[] sources = ColumnChunkPages.Source.values();
    if (source < 0 || source >= sources.length || pageCount < 0) {
      throw new IOException(
          "Cannot read page locations: source %d, %d pages".formatted(source, pageCount));
    }
    if ((long) pageCount * PAGE_BYTES > in.remaining()) {
      throw new IOException(
          "Cannot read page locations: %d pages do not fit in %d bytes"
              .formatted(pageCount, in.remaining()));
    }
    List<PageLocation> pages = new ArrayList<>(pageCount);
    for (int p = 0; p < pageCount; p++) {
      pages.add(new PageLocation(in.getLong(), in.getInt(), in.getInt()));
    }
    builder.add(
        rowGroup,
        column,
        new ColumnChunkPages(dictionaryOffset, dictionarySize, pages, rowCount, sources[source]));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof FilePageLocations that
        && rowGroupCount == that.rowGroupCount
        && columnCount == that.columnCount
        && Arrays.equals(chunks, that.chunks);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(chunks);
  }

  @Override
  public String toString() {
    return "FilePageLocations[%d of %d column chunks]"
        .formatted(chunkCount(), rowGroupCount * columnCount);
  }

  /** Collects column chunk layouts; each chunk at most once. Not thread safe. */
  public static final class Builder {
    private final int rowGroupCount;
    private final int columnCount;
    private final ColumnChunkPages[] chunks;

    private Builder(int rowGroupCount, int columnCount) {
      if (rowGroupCount < 0 || columnCount < 0 || (long) rowGroupCount * columnCount > 1 << 26) {
        throw new IllegalArgumentException(
            "Cannot hold page locations of %d row groups of %d columns"
                .formatted(rowGroupCount, columnCount));
      }
      this.rowGroupCount = rowGroupCount;
      this.columnCount = columnCount;
      this.chunks = new ColumnChunkPages[rowGroupCount * columnCount];
    }

    /** Adds every chunk of {@code other}, which must have the same dimensions. */
    public Builder addAll(FilePageLocations other) {
      if (other.rowGroupCount != rowGroupCount || other.columnCount != columnCount) {
        throw new IllegalArgumentException(
            "Cannot merge page locations of %d x %d chunks into %d x %d"
                .formatted(other.rowGroupCount, other.columnCount, rowGroupCount, columnCount));
      }
      for (int i = 0; i < chunks.length; i++) {
        if (other.chunks[i] != null) {
          add(i / columnCount, i % columnCount, other.chunks[i]);
        }
      }
      return this;
    }

    public Builder add(int rowGroup, int column, ColumnChunkPages pages) {
      requireNonNull(pages, "pages is null");
      if (rowGroup < 0 || rowGroup >= rowGroupCount || column < 0 || column >= columnCount) {
        throw new IllegalArgumentException(
            "Cannot add page locations of row group %d, column %d: the file has %d row groups of %d columns"
                .formatted(rowGroup, column, rowGroupCount, columnCount));
      }
      int index = rowGroup * columnCount + column;
      if (chunks[index] != null && !chunks[index].equals(pages)) {
        throw new IllegalArgumentException(
            "Cannot add page locations of row group %d, column %d twice: have %s, got %s"
                .formatted(rowGroup, column, chunks[index], pages));
      }
      chunks[index] = pages;
      return this;
    }

    public FilePageLocations build() {
      return new FilePageLocations(rowGroupCount, columnCount, chunks.clone());
    }
  }
}
