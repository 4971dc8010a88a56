package io.shelfmark.parquet.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.parquet.CorruptParquetException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.format.OffsetIndex;
import org.apache.parquet.format.Util;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TestPageLocator {
  private static final Path TESTING = io.shelfmark.parquet.ParquetTestingFiles.DATA;

  /** Flat columns never need their rows counted from levels. */
  private static final PageLocator.PageRowCounter NO_REPEATED_COLUMNS =
      (page, bytes) -> {
        throw new AssertionError("Should not count rows of a flat column at " + page);
      };

  @TempDir Path directory;

  @ParameterizedTest
  @EnumSource(WriterVersion.class)
  void offsetIndexAndHeaderWalkAgreeOnParquetJavaFiles(WriterVersion version) throws IOException {
    Path file =
        TestingParquetFiles.writeParquetJava(
            directory.resolve("pages.parquet"),
            3_000,
            TestingParquetFiles.Layout.flat(version, 1_000, 100));
    ParquetFooter footer = footer(file);

    List<ColumnChunkPages> fromIndex = new ArrayList<>();
    for (int rowGroup = 0; rowGroup < 3; rowGroup++) {
      for (int column = 0; column < 3; column++) {
        ColumnChunkPages indexed = fromOffsetIndex(file, footer, rowGroup, column);
        ColumnChunkPages walked = walk(file, footer, rowGroup, column);
        assertThat(indexed.source()).isEqualTo(ColumnChunkPages.Source.OFFSET_INDEX);
        assertThat(walked.source()).isEqualTo(ColumnChunkPages.Source.HEADER_WALK);
        assertThat(withoutSource(indexed)).isEqualTo(withoutSource(walked));
        fromIndex.add(indexed);
      }
    }
    // 1000 rows per row group in pages of 100 rows: ten pages per chunk, each starting where the
    // one before ended, and the dictionary page (when any) right before the first.
    ColumnChunkPages name = fromIndex.get(3 + 1);
    assertThat(name.pageCount()).isEqualTo(10);
    assertThat(name.hasDictionaryPage()).isTrue();
    assertThat(name.dictionaryOffset() + name.dictionarySize()).isEqualTo(name.page(0).offset());
    for (int page = 0; page < 10; page++) {
      assertThat(name.page(page).firstRowIndex()).isEqualTo(page * 100L);
      assertThat(name.pageRowCount(page)).isEqualTo(100);
    }
  }

  @Test
  void offsetIndexAndHeaderWalkAgreeOnTinyPagesFromParquetTesting() throws IOException {
    Path file = TESTING.resolve("alltypes_tiny_pages.parquet");
    ParquetFooter footer = footer(file);
    int pages = 0;
    for (int column = 0; column < footer.columnCount(); column++) {
      ColumnChunkPages indexed = fromOffsetIndex(file, footer, 0, column);
      assertThat(withoutSource(walk(file, footer, 0, column))).isEqualTo(withoutSource(indexed));
      pages += indexed.pageCount();
    }
    assertThat(pages).isGreaterThan(footer.columnCount() * 10);
  }

  @Test
  void headerWalkMatchesRowCountsOfDuckDbFile() throws IOException {
    Path file =
        TestingParquetFiles.writeDuckDb(directory.resolve("duck.parquet"), 250_000, 100_000);
    ParquetFooter footer = footer(file);
    assertThat(footer.rowGroupCount()).isEqualTo(3);
    for (int rowGroup = 0; rowGroup < 3; rowGroup++) {
      for (int column = 0; column < 3; column++) {
        ColumnChunkPages walked = walk(file, footer, rowGroup, column);
        assertThat(walked.rowCount()).isEqualTo(footer.rowGroupRowCount(rowGroup));
        assertThat(walked.pageCount()).isPositive();
        if (PageLocator.offsetIndexOffset(footer, rowGroup, column) >= 0) {
          assertThat(withoutSource(fromOffsetIndex(file, footer, rowGroup, column)))
              .isEqualTo(withoutSource(walked));
        }
      }
    }
  }

  @Test
  void rejectsOffsetIndexWhoseFirstRowsDecrease() throws IOException {
    Path file = parquetJavaFile();
    ParquetFooter footer = footer(file);
    OffsetIndex index = Util.readOffsetIndex(offsetIndexStream(file, footer, 1, 2));
    index.getPage_locations().get(3).setFirst_row_index(150);
    assertThatThrownBy(() -> PageLocator.fromOffsetIndex(footer, 1, 2, serialize(index)))
        .isInstanceOfSatisfying(
            CorruptParquetException.class,
            e -> {
              assertThat(e.rowGroup()).isEqualTo(1);
              assertThat(e.column()).isEqualTo("score");
            })
        .hasMessage(
            "Cannot read Parquet file %s, row group 1, column score: page locations contradict the footer: page 3 starts at row 150 after a page starting at row 200 (the first page must start at row 0, first rows must not decrease)"
                .formatted(footer.file()));
  }

  @Test
  void rejectsOffsetIndexWithRowsPastTheRowGroup() throws IOException {
    Path file = parquetJavaFile();
    ParquetFooter footer = footer(file);
    OffsetIndex index = Util.readOffsetIndex(offsetIndexStream(file, footer, 0, 0));
    index.getPage_locations().get(9).setFirst_row_index(5_000);
    assertThatThrownBy(() -> PageLocator.fromOffsetIndex(footer, 0, 0, serialize(index)))
        .isInstanceOf(CorruptParquetException.class)
        .hasMessageEndingWith(
            "row group 0, column id: page locations contradict the footer: page 9 starts at row 5000 but the row group has 1000 rows");
  }

  @Test
  void rejectsOffsetIndexWithPagesOutsideTheChunk() throws IOException {
    Path file = parquetJavaFile();
    ParquetFooter footer = footer(file);
    OffsetIndex index = Util.readOffsetIndex(offsetIndexStream(file, footer, 2, 1));
    index.getPage_locations().get(4).setOffset(Files.size(file) + 10);
    long chunkStart = PageLocator.chunkOffset(footer, 2, 1);
    long chunkEnd = chunkStart + PageLocator.chunkLength(footer, 2, 1);
    assertThatThrownBy(() -> PageLocator.fromOffsetIndex(footer, 2, 1, serialize(index)))
        .isInstanceOfSatisfying(
            CorruptParquetException.class, e -> assertThat(e.pageIndex()).isEqualTo(4))
        .hasMessageContaining(
            "row group 2, column name, page 4 at offset " + (Files.size(file) + 10))
        .hasMessageEndingWith(
            "offset index puts page 4 at offset %d with %d bytes, outside the column chunk [%d, %d)"
                .formatted(
                    Files.size(file) + 10,
                    index.getPage_locations().get(4).getCompressed_page_size(),
                    chunkStart,
                    chunkEnd));
  }

  @Test
  void rejectsOffsetIndexThatIsNotThrift() throws IOException {
    ParquetFooter footer = footer(parquetJavaFile());
    assertThatThrownBy(
            () -> PageLocator.fromOffsetIndex(footer, 0, 1, ByteBuffer.wrap(new byte[] {1, 2, 3})))
        .isInstanceOf(CorruptParquetException.class)
        .hasMessageContaining("row group 0, column name: offset index is not valid Thrift");
  }

  @Test
  void rejectsHeaderWalkWhenFooterValueCountLies() throws IOException {
    Path honest = parquetJavaFile();
    Path lying =
        TestingParquetFiles.rewriteFooter(
            honest,
            directory.resolve("values.parquet"),
            metadata ->
                metadata
                    .getRow_groups()
                    .get(1)
                    .getColumns()
                    .get(0)
                    .getMeta_data()
                    .setNum_values(999));
    ParquetFooter footer = footer(lying);
    assertThatThrownBy(() -> walk(lying, footer, 1, 0))
        .isInstanceOf(CorruptParquetException.class)
        .hasMessageEndingWith(
            "row group 1, column id: pages hold 1000 values in 1000 rows but the footer says 999 values in 1000 rows");
  }

  @Test
  void rejectsHeaderWalkOfTruncatedChunk() throws IOException {
    Path file = parquetJavaFile();
    ParquetFooter footer = footer(file);
    ByteBuffer chunk = chunkBytes(file, footer, 0, 2);
    ByteBuffer truncated = chunk.slice(0, chunk.remaining() - 10);
    assertThatThrownBy(() -> PageLocator.walk(footer, 0, 2, truncated, 0, NO_REPEATED_COLUMNS))
        .isInstanceOfSatisfying(
            CorruptParquetException.class, e -> assertThat(e.pageIndex()).isEqualTo(9))
        .hasMessageContaining("row group 0, column score, page 9 at offset")
        .hasMessageContaining("runs past the end of its column chunk");
  }

  @Test
  void rejectsHeaderWalkOfGarbage() throws IOException {
    Path file = parquetJavaFile();
    ParquetFooter footer = footer(file);
    byte[] garbage = new byte[64];
    java.util.Arrays.fill(garbage, (byte) 0x7f);
    assertThatThrownBy(
            () -> PageLocator.walk(footer, 0, 0, ByteBuffer.wrap(garbage), 0, NO_REPEATED_COLUMNS))
        .isInstanceOf(CorruptParquetException.class)
        .hasMessageContaining("row group 0, column id, page 0 at offset 4")
        .hasMessageContaining("page header is not valid Thrift or is truncated");
  }

  private Path parquetJavaFile() throws IOException {
    return TestingParquetFiles.writeParquetJava(
        directory.resolve("pages.parquet"),
        3_000,
        TestingParquetFiles.Layout.flat(WriterVersion.PARQUET_1_0, 1_000, 100));
  }

  static ParquetFooter footer(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    return FooterReader.parseTail(file.toString(), bytes.length, ByteBuffer.wrap(bytes));
  }

  static ColumnChunkPages fromOffsetIndex(Path file, ParquetFooter footer, int rowGroup, int column)
      throws IOException {
    long offset = PageLocator.offsetIndexOffset(footer, rowGroup, column);
    assertThat(offset).as("offset index of row group %d column %d", rowGroup, column).isPositive();
    int length = PageLocator.offsetIndexLength(footer, rowGroup, column);
    return PageLocator.fromOffsetIndex(
        footer, rowGroup, column, ByteBuffer.wrap(Files.readAllBytes(file), (int) offset, length));
  }

  static ColumnChunkPages walk(Path file, ParquetFooter footer, int rowGroup, int column)
      throws IOException {
    return PageLocator.walk(
        footer,
        rowGroup,
        column,
        chunkBytes(file, footer, rowGroup, column),
        0,
        NO_REPEATED_COLUMNS);
  }

  static ColumnChunkPages withoutSource(ColumnChunkPages pages) {
    return new ColumnChunkPages(
        pages.dictionaryOffset(),
        pages.dictionarySize(),
        pages.pages(),
        pages.rowCount(),
        ColumnChunkPages.Source.OFFSET_INDEX);
  }

  private static ByteBuffer chunkBytes(Path file, ParquetFooter footer, int rowGroup, int column)
      throws IOException {
    long offset = PageLocator.chunkOffset(footer, rowGroup, column);
    long length = PageLocator.chunkLength(footer, rowGroup, column);
    return ByteBuffer.wrap(Files.readAllBytes(file), (int) offset, (int) length).slice();
  }

  private static java.io.InputStream offsetIndexStream(
      Path file, ParquetFooter footer, int rowGroup, int column) throws IOException {
    long offset = PageLocator.offsetIndexOffset(footer, rowGroup, column);
    int length = PageLocator.offsetIndexLength(footer, rowGroup, column);
    return new java.io.ByteArrayInputStream(Files.readAllBytes(file), (int) offset, length);
  }

  private static ByteBuffer serialize(OffsetIndex index) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Util.writeOffsetIndex(index, out);
    return ByteBuffer.wrap(out.toByteArray());
  }
}
