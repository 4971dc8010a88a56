package io.shelfmark.indexbuilder.column;

import io.shelfmark.parquet.metadata.ColumnChunkPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.PageLocation;
import io.shelfmark.segment.metadata.ChunkPageLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Converts the reader's page locations into the segment's neutral {@link ChunkPageLayout}s, one to
 * one (with the pages' encodings when known), so a server reads pages without an OffsetIndex read
 * or a header walk, and fetches a dictionary page only for pages that need it.
 */
public final class ChunkLayouts {
  private ChunkLayouts() {}

  /** Every located column chunk, in row group then column order. */
  public static List<ChunkPageLayout> of(FilePageLocations locations) {
    List<ChunkPageLayout> layouts = new ArrayList<>(locations.chunkCount());
    for (int rowGroup = 0; rowGroup < locations.rowGroupCount(); rowGroup++) {
      for (int column = 0; column < locations.columnCount(); column++) {
        Optional<ColumnChunkPages> pages = locations.find(rowGroup, column);
        if (pages.isPresent()) {
          layouts.add(of(rowGroup, column, pages.get()));
        }
      }
    }
    return layouts;
  }

  static ChunkPageLayout of(int rowGroup, int column, ColumnChunkPages pages) {
    int count = pages.pageCount();
    long[] offsets = new long[count];
    int[] sizes = new int[count];
    long[] firstRows = new long[count];
    // Empty when unknown: the layout then says every page may need the dictionary.
    boolean[] dictionaryEncoded = new boolean[pages.encodings().known() ? count : 0];
    for (int i = 0; i < count; i++) {
      PageLocation page = pages.page(i);
      offsets[i] = page.offset();
      sizes[i] = page.compressedSize();
      firstRows[i] = page.firstRowIndex();
      if (dictionaryEncoded.length > 0) {
        dictionaryEncoded[i] = pages.encodings().mayNeedDictionary(i);
      }
    }
    return new ChunkPageLayout(
        rowGroup,
        column,
        pages.rowCount(),
        pages.dictionaryOffset(),
        pages.dictionarySize(),
        offsets,
        sizes,
        firstRows,
        pages.source() == ColumnChunkPages.Source.OFFSET_INDEX,
        dictionaryEncoded);
  }
}
