package io.shelfmark.parquet.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.parquet.metadata.ColumnChunkPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.FooterReader;
import io.shelfmark.parquet.metadata.PageLocation;
import io.shelfmark.parquet.metadata.PageLocator;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.metadata.TestingParquetFiles;
import io.shelfmark.parquet.read.PageLocationLoader;
import io.shelfmark.parquet.read.ReaderOptions;
import io.shelfmark.storage.coalesce.ByteRange;
import io.shelfmark.storage.local.LocalObjectStore;
import io.shelfmark.storage.spi.Location;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/** Two row groups of 1000 rows, pages of 100 rows, {@code name} dictionary-encoded. */
class TestPagePlanner {
  private static final int ID = 0;
  private static final int NAME = 1;

  @TempDir static Path directory;
  private static ParquetFooter footer;
  private static FilePageLocations locations;

  @BeforeAll
  static void writeFile() throws IOException {
    Path file =
        TestingParquetFiles.writeParquetJava(
            directory.resolve("plan.parquet"),
            2_000,
            TestingParquetFiles.Layout.flat(WriterVersion.PARQUET_1_0, 1_000, 100));
    LocalObjectStore store = LocalObjectStore.unconfined();
    Location location = Location.parse(file.toString());
    footer = FooterReader.withDefaults().read(store, location, Files.size(file));
    locations =
        new PageLocationLoader(store, Runnable::run, ReaderOptions.defaults())
            .load(location, footer);
  }

  @Test
  void picksExactlyThePagesHoldingSelectedRowsPlusTheDictionary() throws IOException {
    RoaringBitmap rows = RoaringBitmap.bitmapOf(5, 150, 151, 999, 1_400);
    PagePlan plan = PagePlanner.plan(footer, locations, List.of(NAME, ID), RowSelection.of(rows));

    RowGroupPlan first = plan.rowGroups().get(0);
    assertThat(first.access()).isEqualTo(RowGroupAccess.SELECTION);
    assertThat(first.columns()).extracting(ColumnChunkPlan::path).containsExactly("name", "id");
    ColumnChunkPlan name = first.columns().get(0);
    ColumnChunkPages namePages = locations.find(0, NAME).orElseThrow();
    assertThat(name.pages()).extracting(PlannedPage::pageIndex).containsExactly(0, 1, 9);
    assertThat(name.pages().get(1).range())
        .isEqualTo(new ByteRange(namePages.page(1).offset(), namePages.page(1).compressedSize()));
    assertThat(name.pages().get(1).rows().toArray()).containsExactly(150, 151);
    assertThat(name.pages().get(1).rows().firstRow()).isEqualTo(100);
    assertThat(name.dictionaryPage())
        .contains(new ByteRange(namePages.dictionaryOffset(), namePages.dictionarySize()));

    RowGroupPlan second = plan.rowGroups().get(1);
    assertThat(second.rows().toArray()).containsExactly(400);
    assertThat(second.columns().get(0).pages())
        .extracting(PlannedPage::pageIndex)
        .containsExactly(4);

    assertThat(plan.dataPageCount()).isEqualTo(2 * (3 + 1));
    assertThat(plan.selectedRowCount()).isEqualTo(5);
    long bytes = 0;
    for (ByteRange range : plan.ranges()) {
      bytes += range.length();
    }
    assertThat(plan.lowerBoundBytes()).isEqualTo(bytes);
  }

  @Test
  void scansEveryPageOfRowGroupsWhollySelected() throws IOException {
    RoaringBitmap rows = new RoaringBitmap();
    rows.add(1_000L, 2_000L);
    PagePlan plan = PagePlanner.plan(footer, locations, List.of(ID), RowSelection.of(rows));
    assertThat(plan.rowGroups())
        .extracting(RowGroupPlan::access)
        .containsExactly(RowGroupAccess.SKIP, RowGroupAccess.SCAN);
    assertThat(plan.rowGroups().get(0).columns()).isEmpty();
    ColumnChunkPlan id = plan.rowGroups().get(1).columns().get(0);
    assertThat(id.pages()).hasSize(10).allSatisfy(page -> assertThat(page.rows().isAll()).isTrue());
    assertThat(id.bytes())
        .isEqualTo(
            locations.find(1, ID).orElseThrow().end()
                - locations.find(1, ID).orElseThrow().start());
  }

  @Test
  void plansNothingForAnEmptySelection() throws IOException {
    PagePlan plan =
        PagePlanner.plan(
            footer, locations, List.of(ID, NAME), RowSelection.of(new RoaringBitmap()));
    assertThat(plan.rowGroups()).extracting(RowGroupPlan::access).containsOnly(RowGroupAccess.SKIP);
    assertThat(plan.ranges()).isEmpty();
    assertThat(plan.lowerBoundBytes()).isZero();
    assertThat(plan.dictionaryPageCount()).isZero();
  }

  @Test
  void neverSelectsPagesHoldingNoRows() throws IOException {
    // Split row group 0's id chunk into pages where page 1 holds no rows (an empty page, as some
    // writers emit): a selection of row 100 must pick page 2, not the empty page 1.
    ColumnChunkPages real = locations.find(0, ID).orElseThrow();
    List<PageLocation> pages = new ArrayList<>();
    long start = real.page(0).offset();
    long end = real.end();
    long third = (end - start) / 3;
    pages.add(new PageLocation(start, (int) third, 0));
    pages.add(new PageLocation(start + third, (int) third, 100));
    pages.add(new PageLocation(start + 2 * third, (int) (end - start - 2 * third), 100));
    FilePageLocations edited =
        FilePageLocations.builder(2, 3)
            .add(
                0,
                ID,
                new ColumnChunkPages(
                    real.dictionaryOffset(),
                    real.dictionarySize(),
                    pages,
                    1_000,
                    ColumnChunkPages.Source.OFFSET_INDEX))
            .build();
    PagePlan plan =
        PagePlanner.plan(
            footer, edited, List.of(ID), RowSelection.of(RoaringBitmap.bitmapOf(99, 100)));
    assertThat(plan.rowGroups().get(0).columns().get(0).pages())
        .extracting(PlannedPage::pageIndex)
        .containsExactly(0, 2);
    assertThat(
            PagePlanner.ranges(
                footer, edited, List.of(ID), RowSelection.of(RoaringBitmap.bitmapOf(99, 100))))
        .extracting(PagePlanner.PlannedRange::range)
        .containsExactlyElementsOf(plan.ranges());
  }

  @Test
  void refusesToPlanWithoutLocationsOfAChunkToRead() {
    FilePageLocations none = FilePageLocations.builder(2, 3).build();
    assertThatThrownBy(
            () ->
                PagePlanner.plan(
                    footer, none, List.of(NAME), RowSelection.of(RoaringBitmap.bitmapOf(3))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot plan read of %s: no page locations for row group 0, column name (load them with PageLocationLoader first)"
                .formatted(footer.file()));
    assertThatThrownBy(() -> PagePlanner.plan(footer, locations, List.of(3), RowSelection.all()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot plan read of column 3 of %s: the file has 3 leaf columns"
                .formatted(footer.file()));
    assertThat(PageLocator.chunkOffset(footer, 0, ID)).isPositive();
  }

  @Test
  void rangesAreThePlansRangesFoundWithoutListingRows() throws IOException {
    java.util.Random random = new java.util.Random(42);
    List<RowSelection> selections = new ArrayList<>();
    selections.add(RowSelection.all());
    selections.add(RowSelection.of(new RoaringBitmap()));
    RoaringBitmap wholeSecondGroup = new RoaringBitmap();
    wholeSecondGroup.add(1_000L, 2_000L);
    selections.add(RowSelection.of(wholeSecondGroup));
    selections.add(RowSelection.of(RoaringBitmap.bitmapOf(0, 999, 1_000, 1_999)));
    for (int i = 0; i < 200; i++) {
      RoaringBitmap rows = new RoaringBitmap();
      int count = random.nextInt(i % 3 == 0 ? 5 : 400);
      for (int j = 0; j < count; j++) {
        rows.add(random.nextInt(2_000));
      }
      if (i % 10 == 0) {
        long from = random.nextInt(2_000);
        rows.add(from, Math.min(2_000, from + random.nextInt(1_200)));
      }
      selections.add(RowSelection.of(rows));
    }
    for (RowSelection selection : selections) {
      for (List<Integer> columns : List.of(List.of(ID), List.of(NAME, ID), List.of(NAME))) {
        PagePlan plan = PagePlanner.plan(footer, locations, columns, selection);
        List<PagePlanner.PlannedRange> ranges =
            PagePlanner.ranges(footer, locations, columns, selection);
        assertThat(ranges)
            .as("ranges of %s over %s", selection, columns)
            .extracting(PagePlanner.PlannedRange::range)
            .containsExactlyElementsOf(plan.ranges());
        assertThat(ranges.stream().filter(PagePlanner.PlannedRange::dataPage).count())
            .isEqualTo(plan.dataPageCount());
        assertThat(ranges.stream().filter(range -> !range.dataPage()).count())
            .isEqualTo(plan.dictionaryPageCount());
      }
    }
  }

  @Test
  void rangesRefuseWhatPlanningRefuses() {
    FilePageLocations none = FilePageLocations.builder(2, 3).build();
    assertThatThrownBy(
            () ->
                PagePlanner.ranges(
                    footer, none, List.of(NAME), RowSelection.of(RoaringBitmap.bitmapOf(3))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no page locations for row group 0, column name");
    assertThatThrownBy(
            () ->
                PagePlanner.ranges(
                    footer, locations, List.of(ID), RowSelection.of(RoaringBitmap.bitmapOf(2_000))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the file has 2000 rows");
  }
}
