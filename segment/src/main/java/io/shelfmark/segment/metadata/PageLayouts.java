package io.shelfmark.segment.metadata;

import com.google.common.collect.ImmutableList;
import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.format.PartWriter;
import java.util.List;

/**
 * Encodes one data file's {@link ChunkPageLayout}s as its {@code pages} part. Pages of a chunk lie
 * back to back, so offsets are stored as the gap after the previous page (usually 0) and first rows
 * as differences: a few bytes per page.
 *
 * <pre>
 * version 1:
 *   chunks varint | per chunk: rowGroup varint | column varint | fromOffsetIndex u8 | rowCount varint
 *                 | hasDictionary u8 [dictionaryOffset varint, dictionarySize varint]
 *                 | pages varint | per page: gap varint | size varint | firstRowDelta varint
 * version 2: as version 1, and after each chunk's pages
 *                 | encodings u8 (0 unknown, 1 known) [ceil(pages / 8) bytes: bit i of byte i / 8
 *                   (least significant first) set when data page i is dictionary-encoded]
 * </pre>
 *
 * A part whose chunks record no encodings is written as version 1, which says the same in fewer
 * bytes (and keeps segments of files without known encodings as they were).
 */
public final class PageLayouts {
  /** The newest layout version of the pages part, which this class reads and writes. */
  public static final int VERSION = 2;

  private static final int WITHOUT_ENCODINGS = 1;

  private PageLayouts() {}

  /** The version {@link #serialize} writes for these chunks: 2 when one records encodings. */
  public static int version(List<ChunkPageLayout> chunks) {
    for (ChunkPageLayout chunk : chunks) {
      if (chunk.encodingsKnown()) {
        return VERSION;
      }
    }
    return WITHOUT_ENCODINGS;
  }

  /** Serializes in the layout of {@link #version(List)}. */
  public static byte[] serialize(List<ChunkPageLayout> chunks) {
    int version = version(chunks);
    PartWriter out = new PartWriter(64 + chunks.size() * 32);
    out.putVarInt(chunks.size());
    for (ChunkPageLayout chunk : chunks) {
      out.putVarInt(chunk.rowGroup()).putVarInt(chunk.column());
      out.putByte(chunk.fromOffsetIndex() ? 1 : 0).putVarInt(chunk.rowCount());
      out.putByte(chunk.hasDictionaryPage() ? 1 : 0);
      long previousEnd = 0;
      if (chunk.hasDictionaryPage()) {
        out.putVarLong(chunk.dictionaryOffset()).putVarInt(chunk.dictionarySize());
        previousEnd = chunk.dictionaryOffset() + chunk.dictionarySize();
      }
      out.putVarInt(chunk.pageCount());
      long previousRow = 0;
      for (int page = 0; page < chunk.pageCount(); page++) {
        out.putVarLong(chunk.pageOffset(page) - previousEnd);
        out.putVarInt(chunk.pageSize(page));
        out.putVarLong(chunk.firstRow(page) - previousRow);
        previousEnd = chunk.pageOffset(page) + chunk.pageSize(page);
        previousRow = chunk.firstRow(page);
      }
      if (version >= 2) {
        writeEncodings(out, chunk);
      }
    }
    return out.toByteArray();
  }

  private static void writeEncodings(PartWriter out, ChunkPageLayout chunk) {
    out.putByte(chunk.encodingsKnown() ? 1 : 0);
    if (chunk.encodingsKnown()) {
      for (int first = 0; first < chunk.pageCount(); first += 8) {
        int bits = 0;
        for (int page = first; page < Math.min(first + 8, chunk.pageCount()); page++) {
          bits |= chunk.dictionaryEncoded(page) ? 1 << (page - first) : 0;
        }
        out.putByte(bits);
      }
    }
  }

  /** Reads a part of the newest layout. */
  public static List<ChunkPageLayout> deserialize(PartReader in) throws CorruptSegmentException {
    return deserialize(in, VERSION);
  }

  /**
   * Reads a part of layout {@code version} (1 or 2, as the table of contents says; version 1 gives
   * layouts without encodings).
   */
  public static List<ChunkPageLayout> deserialize(PartReader in, int version)
      throws CorruptSegmentException {
    if (version < 1 || version > VERSION) {
      throw in.corrupt(
          "pages part has layout version %d (known: 1 to %d)".formatted(version, VERSION));
    }
    int count = in.getCount(in.remaining(), "column chunk");
    ImmutableList.Builder<ChunkPageLayout> chunks = ImmutableList.builder();
    for (int i = 0; i < count; i++) {
      int rowGroup = in.getVarInt();
      int column = in.getVarInt();
      boolean fromOffsetIndex = in.getByte() == 1;
      int rowCount = in.getVarInt();
      boolean hasDictionary = in.getByte() == 1;
      long dictionaryOffset = -1;
      int dictionarySize = 0;
      long previousEnd = 0;
      if (hasDictionary) {
        dictionaryOffset = in.getVarLong();
        dictionarySize = in.getVarInt();
        previousEnd = dictionaryOffset + dictionarySize;
      }
      int pages = in.getCount(in.remaining() / 3, "page");
      long[] offsets = new long[pages];
      int[] sizes = new int[pages];
      long[] firstRows = new long[pages];
      long previousRow = 0;
      for (int page = 0; page < pages; page++) {
        offsets[page] = previousEnd + in.getVarLong();
        sizes[page] = in.getVarInt();
        firstRows[page] = previousRow + in.getVarLong();
        previousEnd = offsets[page] + sizes[page];
        previousRow = firstRows[page];
      }
      boolean[] dictionaryEncoded = version >= 2 ? readEncodings(in, pages) : new boolean[0];
      try {
        chunks.add(
            new ChunkPageLayout(
                rowGroup,
                column,
                rowCount,
                dictionaryOffset,
                dictionarySize,
                offsets,
                sizes,
                firstRows,
                fromOffsetIndex,
                dictionaryEncoded));
      } catch (IllegalArgumentException e) {
        throw in.corrupt(e.getMessage(), e);
      }
    }
    in.expectEnd();
    return chunks.build();
  }

  private static boolean[] readEncodings(PartReader in, int pages) throws CorruptSegmentException {
    int known = in.getByte();
    if (known == 0) {
      return new boolean[0];
    }
    if (known != 1) {
      throw in.corrupt("page encodings marker is %d (0 or 1 expected)".formatted(known));
    }
    boolean[] dictionaryEncoded = new boolean[pages];
    for (int first = 0; first < pages; first += 8) {
      int bits = in.getByte() & 0xff;
      for (int page = first; page < Math.min(first + 8, pages); page++) {
        dictionaryEncoded[page] = (bits & 1 << (page - first)) != 0;
      }
    }
    return dictionaryEncoded;
  }
}
