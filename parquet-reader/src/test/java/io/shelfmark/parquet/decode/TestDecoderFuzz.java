package io.shelfmark.parquet.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.UnsupportedParquetException;
import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.schema.ColumnSchema;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;
import org.junit.jupiter.api.Test;

/**
 * Mutated valid files and pages: truncation, random byte flips, and length fields inflated to huge
 * values. Every outcome must be a read or a clean {@link CorruptParquetException} / {@link
 * UnsupportedParquetException} naming the file, within a time bound and without exhausting the
 * heap. Where a page carries a CRC, any change to its body must be caught; elsewhere a flipped
 * value byte can only be read as a different value (no reader can tell), so a read is accepted when
 * its row counts are right.
 */
class TestDecoderFuzz {
  private static final Path DATA = TestParquetTestingCorpus.DATA;

  /** Small files covering the codecs, encodings, page versions and nesting the decoder handles. */
  private static final List<String> FILES =
      List.of(
          "alltypes_plain.snappy.parquet",
          "alltypes_dictionary.parquet",
          "datapage_v2.snappy.parquet",
          "delta_byte_array.parquet",
          "delta_length_byte_array.parquet",
          "delta_encoding_optional_column.parquet",
          "byte_stream_split.zstd.parquet",
          "rle_boolean_encoding.parquet",
          "concatenated_gzip_members.parquet",
          "lz4_raw_compressed.parquet",
          "hadoop_lz4_compressed.parquet",
          "nested_maps.snappy.parquet",
          "nested_lists.snappy.parquet",
          "nullable.impala.parquet",
          "repeated_primitive_no_list.parquet",
          "fixed_length_decimal.parquet",
          "int96_from_spark.parquet",
          "page_v2_empty_compressed.parquet");

  private static final Duration BOUND = Duration.ofSeconds(60);

  @Test
  void mutatedFilesReadOrFailCleanly() {
    assertTimeoutPreemptively(
        BOUND,
        () -> {
          Random random = new Random(20260101);
          Outcomes outcomes = new Outcomes();
          for (String name : FILES) {
            byte[] original = Files.readAllBytes(DATA.resolve(name));
            for (int i = 0; i < 40; i++) {
              byte[] mutated =
                  i % 4 == 0
                      ? java.util.Arrays.copyOf(original, 8 + random.nextInt(original.length - 8))
                      : original.clone();
              String mutation =
                  i % 4 == 0 ? "truncated to " + mutated.length : mutate(random, mutated, i % 4);
              outcomes.record(name, mutation, () -> readAll(name, mutated));
            }
          }
          assertThat(outcomes.reads).isGreaterThan(0);
          assertThat(outcomes.corrupt).isGreaterThan(100);
        });
  }

  /** Page by page, each header field that sizes something set to a huge or negative value. */
  @Test
  void inflatedPageHeaderFieldsAreRefused() {
    assertTimeoutPreemptively(
        BOUND,
        () -> {
          int refused = 0;
          for (String name : FILES) {
            TestingLocalParquetReader reader = TestingLocalParquetReader.open(DATA.resolve(name));
            byte[] file = Files.readAllBytes(DATA.resolve(name));
            for (ColumnSchema column : reader.schema().columns()) {
              for (Page page : pages(reader, file, 0, column.index())) {
                for (int field = 0; field < 6; field++) {
                  for (int value : new int[] {Integer.MAX_VALUE, 1 << 30, -1}) {
                    PageHeader header = page.header.deepCopy();
                    if (!inflate(header, field, value)) {
                      continue;
                    }
                    ByteBuffer mutated = page.with(header);
                    try {
                      decodeAlone(reader, column, page, mutated);
                      fail(
                          "%s column %s page at %d: field %d set to %d was not refused"
                              .formatted(name, column.dottedPath(), page.offset, field, value));
                    } catch (CorruptParquetException | UnsupportedParquetException e) {
                      assertThat(e)
                          .hasMessageStartingWith("Cannot read Parquet file " + DATA.resolve(name));
                      refused++;
                    }
                  }
                }
              }
            }
          }
          assertThat(refused).isGreaterThan(200);
        });
  }

  /** Pages carrying a CRC: any single byte flipped in a body is a checksum error, never a read. */
  @Test
  void flippedBytesInChecksummedPagesAreCaught() {
    assertTimeoutPreemptively(
        BOUND,
        () -> {
          Random random = new Random(7);
          int caught = 0;
          for (String name :
              List.of(
                  "datapage_v1-uncompressed-checksum.parquet",
                  "datapage_v1-snappy-compressed-checksum.parquet",
                  "plain-dict-uncompressed-checksum.parquet",
                  "rle-dict-snappy-checksum.parquet")) {
            TestingLocalParquetReader reader = TestingLocalParquetReader.open(DATA.resolve(name));
            byte[] file = Files.readAllBytes(DATA.resolve(name));
            for (ColumnSchema column : reader.schema().columns()) {
              for (Page page : pages(reader, file, 0, column.index())) {
                if (!page.header.isSetCrc()) {
                  continue; // a writer may leave a page without one
                }
                for (int i = 0; i < 20 && page.bodyLength() > 0; i++) {
                  byte[] bytes = page.bytes.clone();
                  int at = page.headerLength + random.nextInt(page.bodyLength());
                  bytes[at] ^= (byte) (1 + random.nextInt(255));
                  try {
                    decodeAlone(reader, column, page, ByteBuffer.wrap(bytes));
                    fail(
                        "%s column %s: flipped byte %d was read"
                            .formatted(name, column.dottedPath(), at));
                  } catch (CorruptParquetException e) {
                    assertThat(e).hasMessageContaining("page checksum mismatch");
                    caught++;
                  }
                }
              }
            }
          }
          assertThat(caught).isGreaterThan(100);
        });
  }

  /** Reads every column chunk of a file held in memory, all rows and a selection. */
  private static void readAll(String name, byte[] bytes) throws IOException {
    TestingLocalParquetReader reader =
        TestingLocalParquetReader.open(DATA.resolve(name).toString(), bytes);
    for (int rowGroup = 0; rowGroup < reader.rowGroups(); rowGroup++) {
      long rows = reader.rowCount(rowGroup);
      if (rows < 0 || rows > 1_000_000) {
        throw new CorruptParquetException(
            io.shelfmark.parquet.ParquetLocation.file(name), "row group of " + rows + " rows");
      }
      for (ColumnSchema column : reader.schema().columns()) {
        ColumnBatch batch = reader.read(rowGroup, column.index());
        assertThat(batch.rowCount()).isEqualTo(rows);
        int[] selected = TestParquetTestingCorpus.randomRows(new Random(rowGroup), (int) rows);
        ColumnBatch some =
            reader.read(rowGroup, column.index(), RowSelection.InRowGroup.of((int) rows, selected));
        assertThat(some.rowCount()).isEqualTo(selected.length);
      }
    }
  }

  private static String mutate(Random random, byte[] bytes, int kind) {
    int start = 4;
    int end = bytes.length - 8;
    switch (kind) {
      case 1 -> {
        int flips = 1 + random.nextInt(4);
        StringBuilder where = new StringBuilder("flipped");
        for (int i = 0; i < flips; i++) {
          int at = start + random.nextInt(end - start);
          bytes[at] ^= (byte) (1 + random.nextInt(255));
          where.append(' ').append(at);
        }
        return where.toString();
      }
      case 2, 3 -> {
        // A little-endian int or a varint made huge: lengths, counts, offsets.
        int at = start + random.nextInt(Math.max(1, end - start - 5));
        if (kind == 2) {
          int value =
              random.nextBoolean()
                  ? Integer.MAX_VALUE - random.nextInt(16)
                  : -1 - random.nextInt(16);
          ByteBuffer.wrap(bytes, at, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(value);
          return "int %d at %d".formatted(value, at);
        }
        bytes[at] = (byte) 0xFE;
        bytes[at + 1] = (byte) 0xFF;
        bytes[at + 2] = (byte) 0xFF;
        bytes[at + 3] = (byte) 0xFF;
        bytes[at + 4] = (byte) 0x0F;
        return "varint at " + at;
      }
      default -> {
        return "truncated";
      }
    }
  }

  /** The header fields that size or count something. */
  private static boolean inflate(PageHeader header, int field, int value) {
    switch (field) {
      case 0 -> header.setUncompressed_page_size(value);
      case 1 -> header.setCompressed_page_size(value);
      case 2 -> {
        if (header.isSetData_page_header()) {
          header.getData_page_header().setNum_values(value);
        } else if (header.isSetData_page_header_v2()) {
          header.getData_page_header_v2().setNum_values(value);
        } else if (header.isSetDictionary_page_header()) {
          header.getDictionary_page_header().setNum_values(value);
        } else {
          return false;
        }
      }
      case 3 -> {
        if (!header.isSetData_page_header_v2()) {
          return false;
        }
        header.getData_page_header_v2().setNum_rows(value);
      }
      case 4 -> {
        if (!header.isSetData_page_header_v2()) {
          return false;
        }
        header.getData_page_header_v2().setDefinition_levels_byte_length(value);
      }
      case 5 -> {
        if (!header.isSetData_page_header_v2()) {
          return false;
        }
        header.getData_page_header_v2().setRepetition_levels_byte_length(value);
      }
      default -> {
        return false;
      }
    }
    return true;
  }

  /**
   * Decodes one page of a chunk on its own: the chunk's dictionary page first (unmutated) when the
   * page is a data page, then the page.
   */
  private static void decodeAlone(
      TestingLocalParquetReader reader, ColumnSchema column, Page page, ByteBuffer bytes)
      throws IOException {
    ColumnMetaData meta =
        reader.footer().getRow_groups().get(0).getColumns().get(column.index()).getMeta_data();
    ColumnChunkDecoder decoder =
        new ColumnChunkDecoder(
            column,
            meta.getCodec(),
            io.shelfmark.parquet.ParquetLocation.file(DATA.resolve(reader.fileName()).toString())
                .withRowGroup(0)
                .withColumn(column.dottedPath()));
    if (page.header.getType() == PageType.DICTIONARY_PAGE) {
      decoder.readDictionaryPage(page.offset, bytes);
      return;
    }
    if (page.dictionary != null) {
      decoder.readDictionaryPage(page.dictionary.offset, ByteBuffer.wrap(page.dictionary.bytes));
    }
    decoder.readDataPage(
        page.index,
        page.offset,
        bytes,
        page.firstRow,
        RowSelection.InPage.all(page.firstRow, page.rows),
        io.shelfmark.parquet.batch.ColumnBatch.builder(column));
  }

  /** The pages of one column chunk, in order, each with its exact bytes. */
  private static List<Page> pages(
      TestingLocalParquetReader reader, byte[] file, int rowGroup, int column) throws IOException {
    ColumnMetaData meta =
        reader.footer().getRow_groups().get(rowGroup).getColumns().get(column).getMeta_data();
    long position = meta.getData_page_offset();
    if (meta.isSetDictionary_page_offset()
        && meta.getDictionary_page_offset() > 0
        && meta.getDictionary_page_offset() < position) {
      position = meta.getDictionary_page_offset();
    }
    long end = position + meta.getTotal_compressed_size();
    ColumnChunkDecoder counter =
        new ColumnChunkDecoder(
            reader.schema().column(column),
            meta.getCodec(),
            io.shelfmark.parquet.ParquetLocation.file("counting"));
    List<Page> pages = new ArrayList<>();
    Page dictionary = null;
    int firstRow = 0;
    int index = 0;
    String name = "";
    while (position < end) {
      ByteArrayInputStream in =
          new ByteArrayInputStream(file, (int) position, (int) (end - position));
      PageHeader header = Util.readPageHeader(in);
      int headerLength = (int) (end - position) - in.available();
      int length = headerLength + header.getCompressed_page_size();
      byte[] bytes = java.util.Arrays.copyOfRange(file, (int) position, (int) position + length);
      Page page;
      if (header.getType() == PageType.DICTIONARY_PAGE) {
        page = new Page(name, header, bytes, headerLength, position, -1, 0, 0, null);
        dictionary = page;
      } else {
        int rows = counter.countRows(ByteBuffer.wrap(bytes));
        page =
            new Page(
                name, header, bytes, headerLength, position, index++, firstRow, rows, dictionary);
        firstRow += rows;
      }
      pages.add(page);
      position += length;
    }
    return pages;
  }

  private record Page(
      String file,
      PageHeader header,
      byte[] bytes,
      int headerLength,
      long offset,
      int index,
      int firstRow,
      int rows,
      Page dictionary) {
    int bodyLength() {
      return bytes.length - headerLength;
    }

    /** The page with another header and the same body. */
    ByteBuffer with(PageHeader replacement) throws IOException {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Util.writePageHeader(replacement, out);
      out.write(bytes, headerLength, bytes.length - headerLength);
      return ByteBuffer.wrap(out.toByteArray());
    }
  }

  /** Tallies outcomes; anything but a read or a clean exception fails the test at once. */
  private static final class Outcomes {
    int reads;
    int corrupt;
    int unsupported;

    void record(String file, String mutation, Action action) {
      try {
        action.run();
        reads++;
      } catch (CorruptParquetException e) {
        assertThat(e.getMessage())
            .as("%s %s", file, mutation)
            .startsWith("Cannot read Parquet file ")
            .contains(file);
        corrupt++;
      } catch (UnsupportedParquetException e) {
        assertThat(e.getMessage())
            .as("%s %s", file, mutation)
            .startsWith("Cannot read Parquet file ")
            .contains(file);
        unsupported++;
      } catch (Throwable e) {
        throw new AssertionError("%s %s: unclean outcome %s".formatted(file, mutation, e), e);
      }
    }
  }

  private interface Action {
    void run() throws Exception;
  }
}
