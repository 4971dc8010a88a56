package io.shelfmark.parquet.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.UnsupportedParquetException;
import io.shelfmark.storage.local.LocalObjectStore;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestFooterReader {
  private static final Path TESTING = io.shelfmark.parquet.ParquetTestingFiles.DATA;

  @TempDir Path directory;
  private LocalObjectStore store;
  private Path file;

  @BeforeEach
  void writeFile() throws IOException {
    store = LocalObjectStore.unconfined();
    file =
        TestingParquetFiles.writeParquetJava(
            directory.resolve("three-row-groups.parquet"),
            3_000,
            TestingParquetFiles.Layout.flat(WriterVersion.PARQUET_1_0, 1_000, 100));
  }

  @Test
  void readsFooterWithOneGetWhenItFitsTheTail() throws IOException {
    StorageStats.Snapshot before = store.stats().snapshot();
    ParquetFooter footer = FooterReader.withDefaults().read(store, location(file), size(file));
    StorageStats.Snapshot used = store.stats().snapshot().minus(before);

    assertThat(used.getRequests()).isEqualTo(1);
    assertThat(used.requests()).isEqualTo(1);
    assertThat(used.bytesRead()).isEqualTo(size(file)); // the file is below 64 KiB: all of it
    assertThat(footer.rowCount()).isEqualTo(3_000);
    assertThat(footer.rowGroupCount()).isEqualTo(3);
    assertThat(footer.rowGroupFirstRow(2)).isEqualTo(2_000);
    assertThat(footer.columnCount()).isEqualTo(3);
    assertThat(footer.columnPath(1)).isEqualTo("name");
    assertThat(footer.bytes().remaining()).isEqualTo(footer.length());
    assertThat(footer.footerOffset() + footer.length() + 8).isEqualTo(size(file));
  }

  @Test
  void readsLongFooterWithASecondGet() throws IOException {
    FooterReader smallTail = new FooterReader(64);
    StorageStats.Snapshot before = store.stats().snapshot();
    ParquetFooter footer = smallTail.read(store, location(file), size(file));
    StorageStats.Snapshot used = store.stats().snapshot().minus(before);

    assertThat(footer.length()).isGreaterThan(64);
    assertThat(used.getRequests()).isEqualTo(2);
    // The tail plus exactly the part of the footer it missed: nothing read twice.
    assertThat(used.bytesRead()).isEqualTo(footer.length() + 8);
    assertThat(footer.metadata())
        .isEqualTo(FooterReader.withDefaults().read(store, location(file), size(file)).metadata());
  }

  @Test
  void parsesFooterFromTailInMemory() throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    ParquetFooter footer =
        FooterReader.parseTail("in-memory", bytes.length, ByteBuffer.wrap(bytes));
    assertThat(footer.rowCount()).isEqualTo(3_000);
    assertThat(footer.file()).isEqualTo("in-memory");
  }

  @Test
  void refusesEncryptedFooter() {
    Path encrypted = TESTING.resolve("encrypt_columns_and_footer.parquet.encrypted");
    assertThatThrownBy(() -> read(encrypted))
        .isInstanceOf(UnsupportedParquetException.class)
        .hasMessage(
            "Cannot read Parquet file %s: encryption (encrypted footer, magic PARE) is not supported"
                    .formatted(location(encrypted))
                + " (decrypt the file first)");
  }

  @Test
  void refusesPlaintextFooterWithEncryptedColumns() {
    Path encrypted = TESTING.resolve("encrypt_columns_plaintext_footer.parquet.encrypted");
    assertThatThrownBy(() -> read(encrypted))
        .isInstanceOf(UnsupportedParquetException.class)
        .hasMessageContaining("Cannot read Parquet file " + location(encrypted))
        .hasMessageContaining("encryption (plaintext footer, encrypted columns) is not supported");
  }

  @Test
  void rejectsFooterLengthPastFileSize() throws IOException {
    long size = size(file);
    byte[] huge = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(1 << 30).array();
    Path lying =
        TestingParquetFiles.overwrite(file, directory.resolve("lying.parquet"), size - 8, huge);
    assertThatThrownBy(() -> read(lying))
        .isInstanceOfSatisfying(
            CorruptParquetException.class,
            e -> {
              assertThat(e.file()).isEqualTo(location(lying).toString());
              assertThat(e.rowGroup()).isEqualTo(-1);
            })
        .hasMessage(
            "Cannot read Parquet file %s: footer length %d does not fit in a file of %d bytes (at most %d)"
                .formatted(location(lying), 1 << 30, size, size - 12));
  }

  @Test
  void rejectsFileWithoutMagic() throws IOException {
    Path notParquet = directory.resolve("not.parquet");
    Files.writeString(notParquet, "just some text, long enough");
    assertThatThrownBy(() -> read(notParquet))
        .isInstanceOf(CorruptParquetException.class)
        .hasMessage(
            "Cannot read Parquet file %s: file does not end with the Parquet magic PAR1 (found bytes"
                    .formatted(location(notParquet))
                + " 6f756768; is it a Parquet file, and is the size 27 right?)");
  }

  @Test
  void rejectsTinyFile() throws IOException {
    Path tiny = directory.resolve("tiny.parquet");
    Files.write(tiny, new byte[] {'P', 'A', 'R', '1'});
    assertThatThrownBy(() -> read(tiny))
        .isInstanceOf(CorruptParquetException.class)
        .hasMessageEndingWith(
            "file of 4 bytes is too small to be Parquet (at least 12 bytes: magic, footer length,"
                + " magic)");
  }

  @Test
  void rejectsGarbageFooter() throws IOException {
    long size = size(file);
    ParquetFooter footer = read(file);
    byte[] garbage = new byte[footer.length()];
    Arrays.fill(garbage, (byte) 0xff);
    Path corrupt =
        TestingParquetFiles.overwrite(
            file, directory.resolve("garbage.parquet"), footer.footerOffset(), garbage);
    assertThatThrownBy(() -> read(corrupt))
        .isInstanceOf(CorruptParquetException.class)
        .hasMessageStartingWith(
            "Cannot read Parquet file %s: footer of %d bytes is not valid Thrift metadata"
                .formatted(location(corrupt), footer.length()));
    assertThat(size(corrupt)).isEqualTo(size);
  }

  @Test
  void rejectsRowCountsThatDoNotAddUp() throws IOException {
    Path lying =
        TestingParquetFiles.rewriteFooter(
            file, directory.resolve("rows.parquet"), footer -> footer.setNum_rows(3_001));
    assertThatThrownBy(() -> read(lying))
        .isInstanceOf(CorruptParquetException.class)
        .hasMessage(
            "Cannot read Parquet file %s: row groups hold 3000 rows but the footer says the file has 3001"
                .formatted(location(lying)));
  }

  @Test
  void takesRowGroupCountsWhenTheFooterRowCountIsZero() throws IOException {
    // A writer bug other readers tolerate (parquet-testing's repeated_no_annotation.parquet).
    Path zero =
        TestingParquetFiles.rewriteFooter(
            file, directory.resolve("zero-rows.parquet"), footer -> footer.setNum_rows(0));
    assertThat(read(zero).rowCount()).isEqualTo(3_000);
    assertThat(read(TESTING.resolve("repeated_no_annotation.parquet")).rowCount()).isEqualTo(6);
  }

  @Test
  void acceptsEmptyRowGroupWhoseChunksHaveNoOffsets() throws IOException {
    // Nothing is ever read from a row group without rows, so its chunk offsets are not checked
    // (parquet-testing's column_chunk_key_value_metadata.parquet records offset 0).
    Path empty =
        TestingParquetFiles.rewriteFooter(
            file,
            directory.resolve("empty-row-group.parquet"),
            footer -> {
              var rowGroup = footer.getRow_groups().get(2).deepCopy();
              rowGroup.setNum_rows(0);
              rowGroup.getColumns().forEach(chunk -> chunk.getMeta_data().setData_page_offset(0));
              footer.getRow_groups().add(rowGroup);
            });
    ParquetFooter footer = read(empty);
    assertThat(footer.rowGroupCount()).isEqualTo(4);
    assertThat(footer.rowCount()).isEqualTo(3_000);
    assertThat(read(TESTING.resolve("column_chunk_key_value_metadata.parquet")).rowCount())
        .isZero();
  }

  @Test
  void rejectsColumnChunkPastTheFooter() throws IOException {
    Path lying =
        TestingParquetFiles.rewriteFooter(
            file,
            directory.resolve("offsets.parquet"),
            footer ->
                footer
                    .getRow_groups()
                    .get(1)
                    .getColumns()
                    .get(2)
                    .getMeta_data()
                    .setData_page_offset(10_000_000));
    assertThatThrownBy(() -> read(lying))
        .isInstanceOfSatisfying(
            CorruptParquetException.class,
            e -> {
              assertThat(e.rowGroup()).isEqualTo(1);
              assertThat(e.column()).isEqualTo("score");
            })
        .hasMessageStartingWith(
            "Cannot read Parquet file %s, row group 1, column score: column chunk at offset 10000000"
                .formatted(location(lying)))
        .hasMessageContaining("does not lie between the leading magic and the footer");
  }

  @Test
  void rejectsMissingColumnChunk() throws IOException {
    Path lying =
        TestingParquetFiles.rewriteFooter(
            file,
            directory.resolve("columns.parquet"),
            footer -> footer.getRow_groups().get(2).getColumns().remove(0));
    assertThatThrownBy(() -> read(lying))
        .isInstanceOf(CorruptParquetException.class)
        .hasMessage(
            "Cannot read Parquet file %s, row group 2: row group has 2 column chunks but the schema has 3 leaf columns"
                .formatted(location(lying)));
  }

  private ParquetFooter read(Path path) throws IOException {
    return FooterReader.withDefaults().read(store, location(path), size(path));
  }

  private static Location location(Path path) {
    return Location.parse(path.toAbsolutePath().toString());
  }

  private static long size(Path path) throws IOException {
    return Files.size(path);
  }
}
