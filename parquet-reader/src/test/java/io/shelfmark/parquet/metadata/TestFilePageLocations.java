package io.shelfmark.parquet.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestFilePageLocations {
  private static final ColumnChunkPages WITH_DICTIONARY =
      new ColumnChunkPages(
          4,
          60,
          List.of(
              new PageLocation(64, 1_000, 0),
              new PageLocation(1_064, 900, 100),
              new PageLocation(1_964, 10, 250)),
          300,
          ColumnChunkPages.Source.OFFSET_INDEX);
  private static final ColumnChunkPages WALKED =
      new ColumnChunkPages(
          -1, 0, List.of(new PageLocation(1_974, 77, 0)), 300, ColumnChunkPages.Source.HEADER_WALK);

  @Test
  void serializedFormRoundTrips() throws IOException {
    FilePageLocations locations =
        FilePageLocations.builder(2, 3).add(0, 1, WITH_DICTIONARY).add(1, 2, WALKED).build();
    byte[] bytes = locations.serialize();

    FilePageLocations read = FilePageLocations.deserialize(ByteBuffer.wrap(bytes));
    assertThat(read).isEqualTo(locations);
    assertThat(read.find(0, 1)).contains(WITH_DICTIONARY);
    assertThat(read.find(1, 2)).contains(WALKED);
    assertThat(read.find(0, 0)).isEmpty();
    assertThat(read.chunkCount()).isEqualTo(2);
    // magic, version, dimensions, count, two chunks (3 + 1 pages) and the checksum.
    assertThat(bytes).hasSize(17 + 2 * 29 + 4 * 16 + 4);
  }

  @Test
  void pageRowCountsComeFromTheNextPage() {
    assertThat(WITH_DICTIONARY.pageRowCount(0)).isEqualTo(100);
    assertThat(WITH_DICTIONARY.pageRowCount(1)).isEqualTo(150);
    assertThat(WITH_DICTIONARY.pageRowCount(2)).isEqualTo(50);
    assertThat(WITH_DICTIONARY.start()).isEqualTo(4);
    assertThat(WITH_DICTIONARY.end()).isEqualTo(1_974);
  }

  @Test
  void detectsCorruption() {
    byte[] bytes = FilePageLocations.builder(1, 2).add(0, 1, WITH_DICTIONARY).build().serialize();
    byte[] flipped = bytes.clone();
    flipped[30] ^= 0x10;
    assertThatThrownBy(() -> FilePageLocations.deserialize(ByteBuffer.wrap(flipped)))
        .isInstanceOf(IOException.class)
        .hasMessage("Cannot read page locations: checksum mismatch (corrupt bytes)");
    assertThatThrownBy(
            () -> FilePageLocations.deserialize(ByteBuffer.wrap(Arrays.copyOf(bytes, 40))))
        .isInstanceOf(IOException.class)
        .hasMessage("Cannot read page locations: checksum mismatch (corrupt bytes)");
    assertThatThrownBy(
            () -> FilePageLocations.deserialize(ByteBuffer.wrap(Arrays.copyOf(bytes, 20))))
        .isInstanceOf(IOException.class)
        .hasMessage("Cannot read page locations: 20 bytes are too few (at least 21)");
    byte[] otherMagic = bytes.clone();
    otherMagic[0] = 'X';
    assertThatThrownBy(() -> FilePageLocations.deserialize(ByteBuffer.wrap(otherMagic)))
        .isInstanceOf(IOException.class)
        .hasMessage("Cannot read page locations: missing magic SMPL (not page locations)");
    byte[] newerVersion = bytes.clone();
    newerVersion[4] = 2;
    assertThatThrownBy(() -> FilePageLocations.deserialize(ByteBuffer.wrap(newerVersion)))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "Cannot read page locations: version 2 (this reader knows 1; rebuild the segment)");
  }

  @Test
  void rejectsInconsistentLayouts() {
    assertThatThrownBy(
            () ->
                new ColumnChunkPages(
                    4,
                    100,
                    List.of(new PageLocation(64, 10, 0)),
                    10,
                    ColumnChunkPages.Source.OFFSET_INDEX))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "page 0 at offset 64 overlaps the page or dictionary before it, which ends at 104");
    assertThatThrownBy(
            () ->
                new ColumnChunkPages(
                    -1,
                    0,
                    List.of(new PageLocation(64, 10, 5)),
                    10,
                    ColumnChunkPages.Source.OFFSET_INDEX))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "page 0 starts at row 5 after a page starting at row 0 (the first page must start at row 0, first rows must not decrease)");
    assertThatThrownBy(
            () -> new ColumnChunkPages(-1, 0, List.of(), 10, ColumnChunkPages.Source.HEADER_WALK))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no data pages for a row group of 10 rows");
    assertThatThrownBy(
            () -> FilePageLocations.builder(1, 1).add(0, 0, WALKED).add(0, 0, WITH_DICTIONARY))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot add page locations of row group 0, column 0 twice");
    assertThatThrownBy(() -> FilePageLocations.builder(1, 1).add(1, 0, WALKED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot add page locations of row group 1, column 0: the file has 1 row groups of 1 columns");
  }
}
