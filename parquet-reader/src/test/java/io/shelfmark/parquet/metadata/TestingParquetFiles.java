package io.shelfmark.parquet.metadata;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/**
 * Parquet files for the I/O tests, written by real writers (parquet-java's example writer, DuckDB)
 * with values that are a pure function of the row ordinal, so tests can check any row without
 * keeping the data:
 *
 * <ul>
 *   <li>{@code id}: the row ordinal (INT64, required)
 *   <li>{@code name}: {@code "name-" + id % 37}, null when {@code id % 11 == 0} (STRING, optional;
 *       dictionary-encoded)
 *   <li>{@code score}: {@code id * 0.25} (DOUBLE, required)
 *   <li>{@code tags} (only in {@link #WITH_LIST}): {@code id % 4} strings {@code "t" + (id + j) %
 *       7}
 * </ul>
 *
 * Also edits of existing files: footer rewrites (for lying metadata) and page index removal.
 */
public final class TestingParquetFiles {
  public static final MessageType FLAT =
      MessageTypeParser.parseMessageType(
          "message test { required int64 id; optional binary name (STRING); required double score; }");

  public static final MessageType WITH_LIST =
      MessageTypeParser.parseMessageType(
          "message test { required int64 id; optional binary name (STRING); required double score;"
              + " optional group tags (LIST) { repeated group list { optional binary element"
              + " (STRING); } } }");

  private TestingParquetFiles() {}

  /** How parquet-java writes a fixture. */
  public record Layout(
      MessageType schema,
      WriterVersion version,
      int rowGroupRows,
      int pageRows,
      CompressionCodecName codec) {

    public static Layout flat(WriterVersion version, int rowGroupRows, int pageRows) {
      return new Layout(FLAT, version, rowGroupRows, pageRows, CompressionCodecName.SNAPPY);
    }
  }

  public static String name(long id) {
    return id % 11 == 0 ? null : "name-" + id % 37;
  }

  public static double score(long id) {
    return id * 0.25;
  }

  public static String[] tags(long id) {
    String[] tags = new String[(int) (id % 4)];
    for (int j = 0; j < tags.length; j++) {
      tags[j] = "t" + (id + j) % 7;
    }
    return tags;
  }

  /**
   * {@code rows} rows of {@link #FLAT} by parquet-java, v1 pages of 100 rows in row groups of
   * 1,000, zstd: {@code name} is dictionary-encoded, so each row group has one dictionary page.
   */
  public static Path writeZstdV1(Path file, int rows) throws IOException {
    return writeParquetJava(
        file,
        rows,
        new Layout(FLAT, WriterVersion.PARQUET_1_0, 1_000, 100, CompressionCodecName.ZSTD));
  }

  /** Writes {@code rows} rows with parquet-java (which always writes an OffsetIndex). */
  public static Path writeParquetJava(Path file, int rows, Layout layout) throws IOException {
    Files.deleteIfExists(file);
    SimpleGroupFactory groups = new SimpleGroupFactory(layout.schema());
    boolean withTags = layout.schema().containsField("tags");
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(file))
            .withConf(new Configuration(false))
            .withType(layout.schema())
            .withWriterVersion(layout.version())
            .withCompressionCodec(layout.codec())
            .withRowGroupRowCountLimit(layout.rowGroupRows())
            .withPageRowCountLimit(layout.pageRows())
            .withMinRowCountForPageSizeCheck(1)
            .withDictionaryEncoding(true)
            .build()) {
      for (long id = 0; id < rows; id++) {
        Group row = groups.newGroup().append("id", id).append("score", score(id));
        if (name(id) != null) {
          row.append("name", name(id));
        }
        if (withTags) {
          Group list = row.addGroup("tags");
          for (String tag : tags(id)) {
            list.addGroup("list").append("element", tag);
          }
        }
        writer.write(row);
      }
    }
    return file;
  }

  /** A DuckDB connection that never reaches for the network. */
  public static Connection duckDb() throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("autoinstall_known_extensions", "false");
    properties.setProperty("autoload_known_extensions", "false");
    return DriverManager.getConnection("jdbc:duckdb:", properties);
  }

  /** Writes {@code rows} flat rows with DuckDB's own Parquet writer. */
  public static Path writeDuckDb(Path file, int rows, int rowGroupRows) throws IOException {
    Files.deleteIfExists(file);
    try (Connection connection = duckDb();
        Statement statement = connection.createStatement()) {
      statement.execute(
          ("COPY (SELECT range AS id,"
                  + " CASE WHEN range %% 11 = 0 THEN NULL ELSE 'name-' || (range %% 37) END AS name,"
                  + " (range * 0.25)::DOUBLE AS score FROM range(%d))"
                  + " TO '%s' (FORMAT parquet, ROW_GROUP_SIZE %d)")
              .formatted(rows, file, rowGroupRows));
    } catch (SQLException e) {
      throw new IOException("Cannot write " + file + " with DuckDB: " + e.getMessage(), e);
    }
    return file;
  }

  /** The parsed footer of a local file. */
  public static FileMetaData readFooter(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    int length = footerLength(bytes);
    return Util.readFileMetaData(
        new java.io.ByteArrayInputStream(bytes, bytes.length - 8 - length, length));
  }

  /**
   * Copies {@code source} to {@code target} with its footer edited by {@code edit}: same data
   * bytes, a new footer, length and magic.
   */
  public static Path rewriteFooter(Path source, Path target, Consumer<FileMetaData> edit)
      throws IOException {
    byte[] bytes = Files.readAllBytes(source);
    int length = footerLength(bytes);
    FileMetaData footer = readFooter(source);
    edit.accept(footer);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(bytes, 0, bytes.length - 8 - length);
    ByteArrayOutputStream serialized = new ByteArrayOutputStream();
    Util.writeFileMetaData(footer, serialized);
    out.write(serialized.toByteArray());
    out.write(
        ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(serialized.size()).array());
    out.write(new byte[] {'P', 'A', 'R', '1'});
    Files.write(target, out.toByteArray());
    return target;
  }

  /** Copies a file with the page index references removed from its footer (data unchanged). */
  public static Path stripPageIndex(Path source, Path target) throws IOException {
    return rewriteFooter(
        source,
        target,
        footer -> {
          for (RowGroup rowGroup : footer.getRow_groups()) {
            for (ColumnChunk chunk : rowGroup.getColumns()) {
              chunk.unsetOffset_index_offset();
              chunk.unsetOffset_index_length();
              chunk.unsetColumn_index_offset();
              chunk.unsetColumn_index_length();
            }
          }
        });
  }

  /** Copies a file with {@code length} bytes overwritten at {@code offset}. */
  public static Path overwrite(Path source, Path target, long offset, byte[] replacement)
      throws IOException {
    byte[] bytes = Files.readAllBytes(source);
    System.arraycopy(replacement, 0, bytes, (int) offset, replacement.length);
    Files.write(target, bytes);
    return target;
  }

  /** Copies the first {@code length} bytes of a file. */
  public static Path truncate(Path source, Path target, int length) throws IOException {
    Files.write(target, Arrays.copyOf(Files.readAllBytes(source), length));
    return target;
  }

  private static int footerLength(byte[] bytes) {
    return ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
  }
}
