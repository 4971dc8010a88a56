package io.shelfmark.parquet.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

class TestRowSelection {
  @Test
  void splitsFileSelectionIntoRowGroupsAndPages() {
    RowSelection selection = RowSelection.of(RoaringBitmap.bitmapOf(3, 999, 1_000, 1_005, 2_999));

    RowSelection.InRowGroup first = selection.inRowGroup(0, 1_000);
    assertThat(first.toArray()).containsExactly(3, 999);
    assertThat(first.isAll()).isFalse();
    assertThat(first.isEmpty()).isFalse();

    RowSelection.InRowGroup second = selection.inRowGroup(1_000, 1_000);
    assertThat(second.toArray()).containsExactly(0, 5);
    assertThat(selection.inRowGroup(2_000, 999).isEmpty()).isTrue();
    assertThat(selection.inRowGroup(2_000, 1_000).toArray()).containsExactly(999);

    RowSelection.InPage page = first.inPage(900, 100);
    assertThat(page.isAll()).isFalse();
    assertThat(page.firstRow()).isEqualTo(900);
    assertThat(page.rowCount()).isEqualTo(100);
    assertThat(page.size()).isEqualTo(1);
    assertThat(page.row(0)).isEqualTo(999);
    assertThat(first.inPage(100, 100).size()).isZero();
  }

  @Test
  void intersectsOnlyRangesHoldingASelectedRow() {
    RowSelection selection = RowSelection.of(RoaringBitmap.bitmapOf(100, 250));
    assertThat(selection.intersects(0, 100)).as("Should skip: rows 0-99").isFalse();
    assertThat(selection.intersects(0, 101)).isTrue();
    assertThat(selection.intersects(101, 149)).as("Should skip: rows 101-249").isFalse();
    assertThat(selection.intersects(250, 0)).as("Should skip: empty range").isFalse();

    RowSelection.InRowGroup group = selection.inRowGroup(0, 300);
    assertThat(group.intersects(100, 1)).isTrue();
    assertThat(group.intersects(101, 149)).isFalse();
    assertThat(group.intersects(249, 1)).isFalse();
    assertThat(group.intersects(249, 2)).isTrue();
    assertThat(group.intersects(250, 0)).isFalse();
  }

  @Test
  void allSelectsEveryRowOfEveryPage() {
    RowSelection.InRowGroup group = RowSelection.all().inRowGroup(5_000, 300);
    assertThat(group.isAll()).isTrue();
    assertThat(group.size()).isEqualTo(300);
    RowSelection.InPage page = group.inPage(200, 100);
    assertThat(page.isAll()).isTrue();
    assertThat(page.size()).isEqualTo(100);
    assertThat(page.row(0)).isEqualTo(200);
    assertThat(page.toArray()).hasSize(100).startsWith(200, 201).endsWith(299);
    assertThat(RowSelection.all().cardinality(123)).isEqualTo(123);
  }

  @Test
  void pageWhoseRowsAreAllSelectedIsAll() {
    RoaringBitmap rows = new RoaringBitmap();
    rows.add(100L, 200L);
    rows.add(250);
    RowSelection.InRowGroup group = RowSelection.of(rows).inRowGroup(0, 1_000);
    assertThat(group.inPage(100, 100).isAll()).isTrue();
    assertThat(group.inPage(200, 100).isAll()).isFalse();
  }

  @Test
  void listsRowsOfRowGroupsSpanningManyContainersAsOneAtATimeWould() {
    java.util.Random random = new java.util.Random(3);
    RoaringBitmap rows = new RoaringBitmap();
    rows.add(0L, 70_000L); // a run container, then arrays and a bitmap container
    for (int i = 0; i < 60_000; i++) {
      rows.add(70_000 + random.nextInt(400_000));
    }
    RowSelection selection = RowSelection.of(rows);
    for (long[] group : new long[][] {{0, 65_536}, {60_000, 100_000}, {131_072, 250_000}}) {
      long first = group[0];
      long count = group[1];
      int[] expected =
          rows.stream()
              .filter(row -> row >= first && row < first + count)
              .map(row -> (int) (row - first))
              .toArray();
      assertThat(selection.inRowGroup(first, count).toArray())
          .as("row group at %d of %d rows", first, count)
          .isEqualTo(expected);
    }
  }

  @Test
  void handlesOrdinalsAboveTwoToTheThirtyOne() {
    long firstRow = (1L << 31) + 10;
    RowSelection selection =
        RowSelection.of(RoaringBitmap.bitmapOf((int) firstRow, (int) (firstRow + 7)));
    assertThat(selection.inRowGroup(firstRow, 100).toArray()).containsExactly(0, 7);
    assertThat(selection.intersects(firstRow + 1, 6)).isFalse();
    assertThat(selection.cardinality(1L << 32)).isEqualTo(2);
  }

  @Test
  void copiesTheBitmap() {
    RoaringBitmap rows = RoaringBitmap.bitmapOf(1, 2);
    RowSelection selection = RowSelection.of(rows);
    rows.add(3);
    assertThat(selection.cardinality(10)).isEqualTo(2);
  }

  @Test
  void rejectsRowsPastTheEnd() {
    assertThatThrownBy(() -> RowSelection.of(RoaringBitmap.bitmapOf(10)).checkWithin(10, "f"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot select row 10 of f: the file has 10 rows (row ordinals are 0-based positions in the file)");
  }

  @Test
  void rejectsUnsortedRowGroupSelection() {
    assertThatThrownBy(() -> RowSelection.InRowGroup.of(10, new int[] {1, 5, 5}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot select rows of a row group of 10 rows: rows must be ascending, distinct and in [0, rowCount), found 5 at position 2");
    assertThatThrownBy(() -> RowSelection.InRowGroup.all(10).inPage(5, 6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot select rows of page: rows [5, 11) are not inside a row group of 10 rows");
  }

  @Test
  void countsTheSelectedRowsOfARangeWithoutListingThem() {
    RowSelection selection = RowSelection.of(RoaringBitmap.bitmapOf(3, 999, 1_000, 1_005, 2_999));
    assertThat(selection.countIn(0, 1_000)).isEqualTo(2);
    assertThat(selection.countIn(1_000, 1_000)).isEqualTo(2);
    assertThat(selection.countIn(1_001, 4)).isZero();
    assertThat(selection.countIn(0, 0)).isZero();
    assertThat(selection.countIn(0, 3_000)).isEqualTo(5);
    assertThat(RowSelection.all().countIn(500, 300)).isEqualTo(300);
    assertThat(RowSelection.all().countIn(500, 0)).isZero();
  }
}
