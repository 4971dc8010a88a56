package io.shelfmark.indexbuilder.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.parquet.metadata.ColumnChunkPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.PageEncodings;
import io.shelfmark.parquet.metadata.PageLocation;
import io.shelfmark.storage.coalesce.ByteRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The documented order in which {@link DictionaryPageKeeper} fills a file's budget. */
class TestDictionaryPageKeeper {
  private static final int PAGE_ROWS = 100;
  private static final int PAGE_BYTES = 1_000;

  /**
   * One row group of chunks laid out one after another: per column, its dictionary page's size and
   * how many of its 10 data pages (the first ones) are dictionary-encoded; -1 for unknown
   * encodings.
   */
  private static FilePageLocations file(int[][] columns) {
    FilePageLocations.Builder builder = FilePageLocations.builder(1, columns.length);
    long offset = 4;
    for (int column = 0; column < columns.length; column++) {
      int dictionarySize = columns[column][0];
      int encodedPages = columns[column][1];
      long dictionaryOffset = dictionarySize > 0 ? offset : -1;
      offset += dictionarySize;
      List<PageLocation> pages = new ArrayList<>();
      for (int page = 0; page < 10; page++) {
        pages.add(new PageLocation(offset, PAGE_BYTES, (long) page * PAGE_ROWS));
        offset += PAGE_BYTES;
      }
      PageEncodings encodings =
          encodedPages < 0
              ? PageEncodings.UNKNOWN
              : PageEncodings.firstDictionaryEncoded(encodedPages, pages.size());
      builder.add(
          0,
          column,
          new ColumnChunkPages(
              dictionaryOffset,
              dictionarySize,
              pages,
              10 * PAGE_ROWS,
              ColumnChunkPages.Source.HEADER_WALK,
              encodings));
    }
    return builder.build();
  }

  private static List<Long> sizes(List<ByteRange> kept) {
    List<Long> sizes = new ArrayList<>();
    for (ByteRange range : kept) {
      sizes.add(range.length());
    }
    return sizes;
  }

  @Test
  void chunksWhoseRowsMostNeedTheirDictionaryComeFirstThenSmallestFirst() {
    // Column 0: 5,000 bytes, every page encoded; 1: 4,000 bytes, 3 of 10; 2: 3,000 bytes, 3 of 10;
    // 3: 6,000 bytes, encodings unknown (every page may need it).
    FilePageLocations file = file(new int[][] {{5_000, 10}, {4_000, 3}, {3_000, 3}, {6_000, -1}});
    Set<Integer> all = Set.of(0, 1, 2, 3);
    // Shares 1, 1, 0.3, 0.3: column 0 (5,000) then 3 (6,000) by size, then 2 (3,000), then 1.
    assertThat(sizes(DictionaryPageKeeper.choose(file, 11_000, Set.of(), all)))
        .containsExactly(5_000L, 6_000L);
    assertThat(sizes(DictionaryPageKeeper.choose(file, 14_000, Set.of(), all)))
        .containsExactly(5_000L, 3_000L, 6_000L); // in file order
    // The 4,000-byte page does not fit after the first three; nothing smaller is left.
    assertThat(sizes(DictionaryPageKeeper.choose(file, 17_999, Set.of(), all)))
        .containsExactly(5_000L, 3_000L, 6_000L);
    assertThat(sizes(DictionaryPageKeeper.choose(file, 18_000, Set.of(), all)))
        .containsExactly(5_000L, 4_000L, 3_000L, 6_000L);
  }

  @Test
  void aDictionaryNoPageNeedsIsNeverKept() {
    FilePageLocations file = file(new int[][] {{2_000, 0}, {1_000, 1}});
    assertThat(sizes(DictionaryPageKeeper.choose(file, 1 << 20, Set.of(), Set.of(0, 1))))
        .containsExactly(1_000L);
  }

  @Test
  void unindexedColumnsComeBeforeIndexedOnesWhateverTheirShare() {
    FilePageLocations file = file(new int[][] {{1_000, 10}, {2_000, 1}});
    // Column 0 is indexed: column 1's page (share 0.1) comes first.
    assertThat(sizes(DictionaryPageKeeper.choose(file, 2_500, Set.of(0), Set.of(0, 1))))
        .containsExactly(2_000L);
    assertThat(sizes(DictionaryPageKeeper.choose(file, 2_500, Set.of(), Set.of(0, 1))))
        .containsExactly(1_000L);
  }

  @Test
  void onlyTheListedColumnsPagesAreKept() {
    FilePageLocations file = file(new int[][] {{1_000, 10}, {2_000, 10}, {3_000, 10}});
    assertThat(sizes(DictionaryPageKeeper.choose(file, 1 << 20, Set.of(), Set.of(1, 2))))
        .containsExactly(2_000L, 3_000L);
    assertThat(DictionaryPageKeeper.choose(file, 1 << 20, Set.of(), Set.of())).isEmpty();
    assertThat(DictionaryPageKeeper.choose(file, 0, Set.of(), Set.of(0, 1, 2))).isEmpty();
  }
}
