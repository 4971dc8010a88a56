package io.shelfmark.parquet.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.UnsupportedParquetException;
import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.read.RowGroupBatch;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed files of the parquet-testing corpus (bad_data/, plus the files in data/ that are
 * malformed or refused on purpose) each give a clear exception through the whole reader, naming the
 * file and, where the fault lies in a page, the row group, column and page.
 */
class TestCorruptCorpus {
  private static final Path BAD = io.shelfmark.parquet.ParquetTestingFiles.BAD_DATA;
  private static final Path DATA = TestParquetTestingCorpus.DATA;

  @Test
  void corruptThriftSchemaInFooter() {
    assertCorrupt(BAD.resolve("PARQUET-1481.parquet"), "Required field 'type' was not present");
  }

  @Test
  void negativeDictionaryValueCountIsRefused() {
    // The chunk's declared range overlaps the footer: refused before any page is decoded.
    assertCorrupt(
        BAD.resolve("ARROW-RS-GH-6229-DICTHEADER.parquet"), "row group 0, column name", "footer");
  }

  @Test
  void tooFewRepetitionLevels() {
    assertCorrupt(
        BAD.resolve("ARROW-RS-GH-6229-LEVELS.parquet"),
        "row group 0, column outer.list.item.c",
        "repetition levels: RLE/bit-packed data ends with 20 values still to read");
    assertCorruptPage(
        BAD.resolve("ARROW-RS-GH-6229-LEVELS.parquet"),
        "row group 0, column outer.list.item.c, page 0 at offset 19: repetition levels");
  }

  @Test
  void fewerLevelsThanPageValues() {
    assertCorrupt(
        BAD.resolve("ARROW-GH-41321.parquet"),
        "row group 1, column fixed_size_list_float64.list.item",
        "definition levels take 16386 bytes but only 6 are left in the page");
  }

  @Test
  void columnsOfDifferentLengths() {
    assertCorrupt(
        BAD.resolve("ARROW-GH-41317.parquet"),
        "row group 0, column timestamp_us_no_tz",
        "but the footer says 3 values in 3 rows");
  }

  @Test
  void repetitionLevelsStartingInsideARow() {
    assertCorrupt(
        BAD.resolve("ARROW-GH-45185.parquet"),
        "row group 0, column x.list.element",
        "page starts with repetition level 1, inside a row");
    assertCorruptPage(
        BAD.resolve("ARROW-GH-45185.parquet"),
        "row group 0, column x.list.element, page 0 at offset 4: page starts with");
  }

  @Test
  void requiredColumnMissingValues() {
    assertCorrupt(
        BAD.resolve("ARROW-GH-47662.parquet"),
        "row group 0, column flba_field, page 0 at offset 4",
        "PLAIN binary data holds 364 bytes, too few for 100 values");
  }

  /**
   * Listed as bad because one reader crashed on it, but the file is valid: a dictionary of one
   * value makes bit width 0 the right width for its ids. DuckDB reads 21186 zeros; so do we.
   */
  @Test
  void dictionaryIdsOfBitWidthZeroAreAllZero() throws Exception {
    List<RowGroupBatch> batches =
        TestingFileReads.read(BAD.resolve("ARROW-GH-43605.parquet"), RowSelection.all());
    ColumnBatch batch = batches.getFirst().column("min_fl");
    assertThat(batch.rowCount()).isEqualTo(21186);
    assertThat(batch.hasNulls()).isFalse();
    assertThat(batch.isDictionaryEncoded()).isTrue();
    assertThat(batch.dictionary().size()).isEqualTo(1);
    assertThat(batch.values().ints()).startsWith(0).containsOnly(0);
  }

  @Test
  void pageChecksumMismatchInDataPage() {
    assertCorrupt(
        DATA.resolve("datapage_v1-corrupt-checksum.parquet"),
        "row group 0, column a, page 0 at offset 4",
        "page checksum mismatch: the header says CRC-32 bbce3b9d but the page body has 0f4f6d0a");
  }

  @Test
  void pageChecksumMismatchInDictionaryPage() {
    assertCorrupt(
        DATA.resolve("rle-dict-uncompressed-corrupt-checksum.parquet"),
        "row group 0, column long_field",
        "page checksum mismatch: the header says CRC-32 6522df6a but the page body has 6522df69");
  }

  @Test
  void chunkSizeLeavingOutTheDictionaryHeader() {
    assertCorrupt(
        DATA.resolve("nation.dict-malformed.parquet"),
        "row group 0, column name, page 0 at offset 421",
        "runs past the end of its column chunk");
  }

  @Test
  void gigabytePagesAreRefusedBeforeDecompression() {
    assertThatThrownBy(
            () ->
                TestingFileReads.read(
                    DATA.resolve("large_string_map.brotli.parquet"), RowSelection.all()))
        .isInstanceOf(UnsupportedParquetException.class)
        .hasMessageContaining(
            "large_string_map.brotli.parquet, row group 0, column arr.key_value.key")
        .hasMessageContaining("a page of 1073741840 uncompressed bytes is not supported")
        .hasMessageContaining("rewrite the file with smaller pages");
  }

  static Stream<String> encryptedFiles() {
    return Stream.of(
        "encrypt_columns_and_footer.parquet.encrypted",
        "encrypt_columns_and_footer_aad.parquet.encrypted",
        "encrypt_columns_and_footer_bloom_filter.parquet.encrypted",
        "encrypt_columns_and_footer_ctr.parquet.encrypted",
        "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
        "external_key_material_java.parquet.encrypted",
        "uniform_encryption.parquet.encrypted",
        "aes256/encrypt_columns_and_footer.parquet.encrypted",
        "aes256/encrypt_columns_and_footer_ctr.parquet.encrypted",
        "aes256/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
        "aes256/uniform_encryption.parquet.encrypted");
  }

  @ParameterizedTest
  @MethodSource("encryptedFiles")
  void encryptedFooterIsRefused(String name) {
    assertThatThrownBy(() -> TestingFileReads.read(DATA.resolve(name), RowSelection.all()))
        .isInstanceOf(UnsupportedParquetException.class)
        .hasMessageContaining(name)
        .hasMessageContaining("encryption (encrypted footer, magic PARE) is not supported");
  }

  @ParameterizedTest
  @MethodSource("plaintextFooterFiles")
  void encryptedColumnsUnderPlaintextFooterAreRefused(String name) {
    assertThatThrownBy(() -> TestingFileReads.read(DATA.resolve(name), RowSelection.all()))
        .isInstanceOf(UnsupportedParquetException.class)
        .hasMessageContaining(name)
        .hasMessageContaining("encryption (plaintext footer, encrypted columns) is not supported");
  }

  static Stream<String> plaintextFooterFiles() {
    return Stream.of(
        "encrypt_columns_plaintext_footer.parquet.encrypted",
        "aes256/encrypt_columns_plaintext_footer.parquet.encrypted");
  }

  /**
   * Decoding the file page by page (the decoder handed each page's ordinal and offset) fails with a
   * message naming the page.
   */
  private static void assertCorruptPage(Path file, String fragment) {
    assertThatThrownBy(
            () -> {
              TestingLocalParquetReader reader = TestingLocalParquetReader.open(file);
              for (int rowGroup = 0; rowGroup < reader.rowGroups(); rowGroup++) {
                for (int column = 0; column < reader.schema().columns().size(); column++) {
                  reader.read(rowGroup, column);
                }
              }
            })
        .isInstanceOf(CorruptParquetException.class)
        .hasMessageContaining(file.getFileName().toString())
        .hasMessageContaining(fragment);
  }

  private static void assertCorrupt(Path file, String... fragments) {
    var thrown =
        assertThatThrownBy(() -> TestingFileReads.read(file, RowSelection.all()))
            .isInstanceOf(CorruptParquetException.class)
            .hasMessageStartingWith("Cannot read Parquet file ")
            .hasMessageContaining(file.getFileName().toString());
    for (String fragment : fragments) {
      thrown.hasMessageContaining(fragment);
    }
  }
}
