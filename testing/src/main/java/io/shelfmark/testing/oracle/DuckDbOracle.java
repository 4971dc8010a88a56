package io.shelfmark.testing.oracle;

import static java.util.Objects.requireNonNull;

import java.io.Closeable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An independent answer to compare Shelfmark against: an in-memory DuckDB reading the same Parquet
 * files from local disk. Tables are views over {@code read_parquet([...])}, named as Shelfmark
 * names them ({@code obs.metrics} becomes schema {@code obs}, view {@code metrics}), optionally
 * without the rows Iceberg position deletes remove.
 *
 * <p>DuckDB never touches the network: extension auto-install and auto-load are off, and the
 * Parquet reader is built into the driver.
 *
 * <p>Lifecycle: {@link #open()} → {@link #registerTable} → {@link #query} any number of times →
 * {@link #close()}. Thread safety: one connection, guarded by this object; calls serialise.
 *
 * <pre>{@code
 * try (DuckDbOracle oracle = DuckDbOracle.open()) {
 *   oracle.registerTable("obs.metrics", dataFiles);
 *   QueryResult expected = oracle.query(query.duckDbSql());
 *   ResultComparison.assertEquivalent(expected, actual, query.ordered(), query.tolerance());
 * }
 * }</pre>
 */
public final class DuckDbOracle implements Closeable {
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  // Hidden columns of read_parquet for the delete anti-join; unlikely to clash with data columns.
  // Every read_parquet here turns hive_partitioning off: Iceberg paths such as org_id=7/ must not
  // add or overwrite columns, since the files hold every column themselves.
  private static final String FILE_COLUMN = "__shelfmark_file";
  private static final String ROW_COLUMN = "file_row_number";
  private static final String DELETES_SCHEMA = "__shelfmark_deletes";

  private final Connection connection;

  private DuckDbOracle(Connection connection) {
    this.connection = connection;
  }

  /** Opens an empty in-memory database. */
  public static DuckDbOracle open() {
    Properties properties = new Properties();
    properties.setProperty("autoinstall_known_extensions", "false");
    properties.setProperty("autoload_known_extensions", "false");
    try {
      Connection connection = DriverManager.getConnection("jdbc:duckdb:", properties);
      return new DuckDbOracle(connection);
    } catch (SQLException e) {
      throw new OracleException("Cannot open in-memory DuckDB: " + e.getMessage(), e);
    }
  }

  /** Registers {@code tableName} as a view over the Parquet files, replacing an earlier one. */
  public void registerTable(String tableName, List<Path> files) {
    registerTable(tableName, files, List.of());
  }

  /**
   * Registers {@code tableName} ({@code table} or {@code schema.table}) as a view over the Parquet
   * files, without the rows the position deletes name. Every file must exist and have the same
   * schema; a delete must name one of the files (paths are compared after {@code
   * toAbsolutePath().normalize()}).
   *
   * @throws IllegalArgumentException naming the bad table name, missing file or stray delete
   */
  public synchronized void registerTable(
      String tableName, List<Path> files, List<PositionDelete> deletes) {
    requireNonNull(tableName, "tableName is null");
    requireNonNull(files, "files is null");
    requireNonNull(deletes, "deletes is null");
    String[] parts = splitName(tableName);
    Set<String> paths = filePaths(tableName, files);
    for (PositionDelete delete : deletes) {
      String path = pathText(delete.file());
      if (!paths.contains(path)) {
        throw new IllegalArgumentException(
            "Cannot register table "
                + tableName
                + ": a position delete names "
                + path
                + ", which is not one of its "
                + paths.size()
                + " files (delete rows of the table's own files)");
      }
    }
    String fileList = fileList(paths);
    String view = quote(parts[0]) + "." + quote(parts[1]);
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE SCHEMA IF NOT EXISTS " + quote(parts[0]));
      if (deletes.isEmpty()) {
        statement.execute(
            "CREATE OR REPLACE VIEW "
                + view
                + " AS SELECT * FROM read_parquet("
                + fileList
                + ", hive_partitioning = false)");
        return;
      }
      String deleteTable = writeDeletes(statement, parts, deletes);
      statement.execute(
          "CREATE OR REPLACE VIEW "
              + view
              + " AS SELECT * EXCLUDE ("
              + quote(FILE_COLUMN)
              + ", "
              + ROW_COLUMN
              + ") FROM read_parquet("
              + fileList
              + ", filename = '"
              + FILE_COLUMN
              + "', file_row_number = true, hive_partitioning = false) AS data"
              + " WHERE NOT EXISTS (SELECT 1 FROM "
              + deleteTable
              + " AS d WHERE d.file_path = data."
              + quote(FILE_COLUMN)
              + " AND d.pos = data."
              + ROW_COLUMN
              + ")");
    } catch (SQLException e) {
      throw new OracleException(
          "Cannot register table " + tableName + " over " + paths + ": " + e.getMessage(), e);
    }
  }

  private String writeDeletes(Statement statement, String[] parts, List<PositionDelete> deletes)
      throws SQLException {
    String deleteTable = quote(DELETES_SCHEMA) + "." + quote(parts[0] + "." + parts[1]);
    statement.execute("CREATE SCHEMA IF NOT EXISTS " + quote(DELETES_SCHEMA));
    statement.execute(
        "CREATE OR REPLACE TABLE " + deleteTable + " (file_path VARCHAR, pos BIGINT)");
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO " + deleteTable + " VALUES (?, ?)")) {
      for (PositionDelete delete : deletes) {
        insert.setString(1, pathText(delete.file()));
        insert.setLong(2, delete.position());
        insert.addBatch();
      }
      insert.executeBatch();
    }
    return deleteTable;
  }

  /**
   * Runs a query and returns its rows normalised (see {@link QueryResult}).
   *
   * @throws OracleException with DuckDB's message and the query
   */
  public synchronized QueryResult query(String sql) {
    requireNonNull(sql, "sql is null");
    try (Statement statement = connection.createStatement();
        ResultSet results = statement.executeQuery(sql)) {
      ResultSetMetaData metadata = results.getMetaData();
      int columnCount = metadata.getColumnCount();
      List<String> columns = new ArrayList<>(columnCount);
      for (int i = 1; i <= columnCount; i++) {
        columns.add(metadata.getColumnLabel(i));
      }
      List<List<Object>> rows = new ArrayList<>();
      while (results.next()) {
        List<Object> row = new ArrayList<>(columnCount);
        for (int i = 1; i <= columnCount; i++) {
          row.add(ResultValues.normalize(value(results, metadata.getColumnType(i), i)));
        }
        rows.add(row);
      }
      return new QueryResult(columns, rows);
    } catch (SQLException e) {
      throw new OracleException(
          "Cannot run query on DuckDB: " + e.getMessage() + " (query: " + sql + ")", e);
    }
  }

  /**
   * Runs a statement that returns no rows, such as {@code COPY (SELECT ...) TO 'file.parquet'}.
   *
   * @throws OracleException with DuckDB's message and the statement
   */
  public synchronized void execute(String sql) {
    requireNonNull(sql, "sql is null");
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    } catch (SQLException e) {
      throw new OracleException(
          "Cannot run statement on DuckDB: " + e.getMessage() + " (statement: " + sql + ")", e);
    }
  }

  @Override
  public synchronized void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      throw new OracleException("Cannot close DuckDB: " + e.getMessage(), e);
    }
  }

  // The driver's getObject gives java.sql.Timestamp, which carries the JVM's zone; ask for the
  // wall-clock types instead so results do not depend on where the test runs.
  private static Object value(ResultSet results, int type, int column) throws SQLException {
    return switch (type) {
      case Types.TIMESTAMP -> results.getObject(column, LocalDateTime.class);
      case Types.TIMESTAMP_WITH_TIMEZONE -> results.getObject(column, OffsetDateTime.class);
      default -> results.getObject(column);
    };
  }

  private static String[] splitName(String tableName) {
    String[] parts = tableName.split("\\.", -1);
    boolean valid = parts.length <= 2;
    for (String part : parts) {
      valid &= NAME.matcher(part).matches();
    }
    if (!valid) {
      throw new IllegalArgumentException(
          "Cannot register table: "
              + tableName
              + " is not a name of the form table or schema.table (letters, digits, underscores)");
    }
    return parts.length == 2 ? parts : new String[] {"main", parts[0]};
  }

  private static Set<String> filePaths(String tableName, List<Path> files) {
    if (files.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot register table " + tableName + ": no data files (give at least one)");
    }
    Set<String> paths = new LinkedHashSet<>();
    for (Path file : files) {
      if (!Files.isRegularFile(file)) {
        throw new IllegalArgumentException(
            "Cannot register table "
                + tableName
                + ": "
                + file
                + " does not exist (write the Parquet file first)");
      }
      paths.add(pathText(file));
    }
    return paths;
  }

  private static String fileList(Set<String> paths) {
    StringBuilder list = new StringBuilder("[");
    for (String path : paths) {
      if (list.length() > 1) {
        list.append(", ");
      }
      list.append('\'').append(path.replace("'", "''")).append('\'');
    }
    return list.append(']').toString();
  }

  private static String pathText(Path file) {
    return file.toAbsolutePath().normalize().toString();
  }

  private static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }
}
