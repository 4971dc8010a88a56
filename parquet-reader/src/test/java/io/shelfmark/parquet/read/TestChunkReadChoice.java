package io.shelfmark.parquet.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.config.unit.DataSize;
import io.shelfmark.parquet.plan.PagePlanner.PlannedRange;
import io.shelfmark.parquet.plan.RowGroupAccess;
import io.shelfmark.storage.coalesce.ByteRange;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cost model of {@link ChunkReadChoice}: {@code requests × requestCost + bytes}, pages against
 * the chunk's span, and where its answer flips.
 */
class TestChunkReadChoice {
  private static final long KIB = 1024;

  private static ReaderOptions options(long requestCost, ReaderOptions.ChunkReads reads) {
    return ReaderOptions.builder()
        .maxMergeDistance(DataSize.of(64, DataSize.Unit.KIBIBYTE))
        .maxBufferSize(DataSize.of(2, DataSize.Unit.MEBIBYTE))
        .requestCost(DataSize.ofBytes(requestCost))
        .chunkReads(reads)
        .build();
  }

  /** {@code count} pages of {@code size} bytes, {@code gap} bytes apart. */
  private static List<ByteRange> pages(int count, long size, long gap) {
    List<ByteRange> pages = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      pages.add(new ByteRange(4 + i * (size + gap), size));
    }
    return pages;
  }

  @Test
  void flipsWhereTheModelSays() {
    // 6 pages of 10 KiB, 100 KiB apart: page by page 6 reads of 60 KiB in all; whole one read of
    // 560 KiB. Whole is cheaper iff 1 × c + 560 KiB < 6 × c + 60 KiB, that is c > 100 KiB.
    List<ByteRange> chunk = pages(6, 10 * KIB, 100 * KIB);
    assertThat(Coalescing.merge(chunk, options(0, ReaderOptions.ChunkReads.COST))).hasSize(6);
    assertThat(
            ChunkReadChoice.wholeIsCheaper(
                chunk, options(100 * KIB, ReaderOptions.ChunkReads.COST)))
        .isFalse();
    assertThat(
            ChunkReadChoice.wholeIsCheaper(
                chunk, options(100 * KIB + 1, ReaderOptions.ChunkReads.COST)))
        .isTrue();
    assertThat(
            ChunkReadChoice.wholeIsCheaper(
                chunk,
                options(ReaderOptions.DEFAULT_REQUEST_COST.bytes(), ReaderOptions.ChunkReads.COST)))
        .isTrue();
  }

  @Test
  void theChoiceCarriesItsCostFigures() {
    // Two chunks of the same shape as above and one whose pages lie side by side (no choice: one
    // read either way). At 1 MiB per request the two are read whole: 6 reads of 60 KiB against
    // one of 560 KiB each.
    List<PlannedRange> planned = new ArrayList<>();
    for (int column = 0; column < 3; column++) {
      for (ByteRange page : pages(6, 10 * KIB, column == 2 ? 0 : 100 * KIB)) {
        planned.add(
            new PlannedRange(
                new ByteRange(page.offset() + column * (1 << 20), page.length()),
                true,
                0,
                column,
                RowGroupAccess.SELECTION));
      }
    }
    boolean[] fetched = new boolean[planned.size()];
    java.util.Arrays.fill(fetched, true);
    ChunkReadChoice.Choice choice =
        ChunkReadChoice.choose(planned, fetched, options(1 << 20, ReaderOptions.ChunkReads.COST));
    assertThat(choice.spans()).hasSize(2);
    assertThat(choice.figures())
        .isEqualTo(new ChunkReadFigures("COST", 1 << 20, 2, 2, 12, 120 * KIB, 2, 1120 * KIB));
    assertThat(choice.figures().pagesCost()).isEqualTo(12L * (1 << 20) + 120 * KIB);
    assertThat(choice.figures().wholeCost()).isEqualTo(2L * (1 << 20) + 1120 * KIB);
    // At 100 KiB per request the same chunks stay pages: same figures, none read whole.
    ChunkReadChoice.Choice cheap =
        ChunkReadChoice.choose(planned, fetched, options(100 * KIB, ReaderOptions.ChunkReads.COST));
    assertThat(cheap.spans()).isEmpty();
    assertThat(cheap.figures().chunks()).isEqualTo(2);
    assertThat(cheap.figures().chunksReadWhole()).isZero();
    // Forced pages: no choice is made, so no figures.
    assertThat(
            ChunkReadChoice.choose(
                    planned, fetched, options(1 << 20, ReaderOptions.ChunkReads.PAGES))
                .figures())
        .isEqualTo(new ChunkReadFigures("PAGES", 1 << 20, 0, 0, 0, 0, 0, 0));
  }

  @Test
  void neverWholeWhenItSavesNoRequest() {
    // Side by side: one read either way.
    List<ByteRange> adjacent = pages(6, 10 * KIB, 0);
    assertThat(
            ChunkReadChoice.wholeIsCheaper(
                adjacent, options(1 << 30, ReaderOptions.ChunkReads.WHOLE)))
        .isFalse();
    // 3 pages of 1 MiB, 1 MiB apart: the 5 MiB span is 3 reads of at most 2 MiB, as many as pages.
    List<ByteRange> large = pages(3, 1 << 20, 1 << 20);
    assertThat(
            ChunkReadChoice.wholeIsCheaper(large, options(1 << 30, ReaderOptions.ChunkReads.WHOLE)))
        .isFalse();
  }

  @Test
  void forcedEitherWay() {
    List<ByteRange> chunk = pages(6, 10 * KIB, 100 * KIB);
    assertThat(ChunkReadChoice.wholeIsCheaper(chunk, options(0, ReaderOptions.ChunkReads.WHOLE)))
        .isTrue();
    List<PlannedRange> planned = new ArrayList<>();
    for (ByteRange page : chunk) {
      planned.add(new PlannedRange(page, true, 0, 3, RowGroupAccess.SELECTION));
    }
    boolean[] fetched = new boolean[planned.size()];
    java.util.Arrays.fill(fetched, true);
    assertThat(
            ChunkReadChoice.wholeSpans(
                planned, fetched, options(1 << 30, ReaderOptions.ChunkReads.PAGES)))
        .isEmpty();
    assertThat(
            ChunkReadChoice.wholeSpans(
                planned, fetched, options(0, ReaderOptions.ChunkReads.WHOLE)))
        .containsExactly(ByteRange.between(4, chunk.get(5).end()));
    // A scanned row group's chunk is contiguous already: never a span of its own.
    List<PlannedRange> scanned = new ArrayList<>();
    for (ByteRange page : chunk) {
      scanned.add(new PlannedRange(page, true, 0, 3, RowGroupAccess.SCAN));
    }
    assertThat(
            ChunkReadChoice.wholeSpans(
                scanned, fetched, options(0, ReaderOptions.ChunkReads.WHOLE)))
        .isEmpty();
  }

  @Test
  void spansAreReadAsOneAndPiecesOfGapAloneAreDropped() {
    // A span cut into 2 MiB reads whose middle piece holds no page: it is not fetched.
    List<ByteRange> reads =
        List.of(
            new ByteRange(0, 2 << 20),
            new ByteRange(2 << 20, 2 << 20),
            new ByteRange(4 << 20, 100));
    List<ByteRange> uses = List.of(new ByteRange(10, 100), new ByteRange(4 << 20, 50));
    assertThat(Coalescing.readsHolding(reads, uses))
        .containsExactly(new ByteRange(0, 2 << 20), new ByteRange(4 << 20, 100));
  }
}
