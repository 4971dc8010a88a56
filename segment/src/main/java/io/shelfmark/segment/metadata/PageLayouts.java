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
 * </pre>
 */
public final class PageLayouts {
  /** The pages part's layout version. */
  public static final int VERSION = 1;

  private PageLayouts() {}

  public static byte[] serialize(List<ChunkPageLayout> chunks) {
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
    }
    return out.toByteArray();
  }

  public static List<ChunkPageLayout> deserialize(PartReader in) throws CorruptSegmentException {
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
                fromOffsetIndex));
      } catch (IllegalArgumentException e) {
        throw in.corrupt(e.getMessage(), e);
      }
    }
    in.expectEnd();
    return chunks.build();
  }
}
