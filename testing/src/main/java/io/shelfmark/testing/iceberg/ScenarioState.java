package io.shelfmark.testing.iceberg;

import static java.util.Objects.requireNonNull;

import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.PositionDelete;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.StringJoiner;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * A scenario's table after one step: its current schema and snapshot, and every live data file with
 * the deletes that apply to it, in the terms an independent reader needs.
 *
 * <p>How DuckDB reads it ({@link #duckDbSelect()}): DuckDB's Parquet reader matches columns by name
 * and knows nothing of Iceberg field ids, so each file gets its own {@code SELECT} that names every
 * current column by the name the file gave that field id ({@code SELECT "amount" AS "total"} after
 * a rename), reads {@code NULL} for fields the file lacks (columns added after it was written),
 * leaves out columns dropped since, and casts to the current type; the per-file selects are joined
 * with {@code UNION ALL}. Position deletes and deletion vectors become {@code file_row_number NOT
 * IN (...)}; equality deletes (on the row id) become {@code id NOT IN (...)} on exactly the files
 * they apply to (those committed before the delete).
 *
 * @param step what the step did, for messages ({@code "append 40 rows"})
 * @param snapshotId the table's current snapshot, empty before the first commit
 * @param formatVersion the table's format version
 * @param schema the table's current schema
 * @param files the live data files, by location
 */
public record ScenarioState(
    String step,
    OptionalLong snapshotId,
    int formatVersion,
    Schema schema,
    List<ScenarioFile> files) {
  public ScenarioState {
    requireNonNull(step, "step is null");
    requireNonNull(snapshotId, "snapshotId is null");
    requireNonNull(schema, "schema is null");
    files = List.copyOf(requireNonNull(files, "files is null"));
  }

  /** The live file at {@code location}. */
  public Optional<ScenarioFile> file(String location) {
    for (ScenarioFile file : files) {
      if (file.location().equals(location)) {
        return Optional.of(file);
      }
    }
    return Optional.empty();
  }

  /** The rows the snapshot holds: live rows of every file. */
  public long liveRowCount() {
    long rows = 0;
    for (ScenarioFile file : files) {
      rows += file.liveRowCount();
    }
    return rows;
  }

  /** Whether some live file has rows removed by equality deletes. */
  public boolean hasEqualityDeletes() {
    for (ScenarioFile file : files) {
      if (!file.equalityDeletedIds().isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** Every deleted position, as {@link DuckDbOracle#registerTable} takes them. */
  public List<PositionDelete> positionDeletes() {
    List<PositionDelete> deletes = new ArrayList<>();
    for (ScenarioFile file : files) {
      for (long position : file.deletedPositions()) {
        deletes.add(new PositionDelete(file.localPath(), position));
      }
    }
    return deletes;
  }

  /**
   * A DuckDB query returning the snapshot's rows with the current schema's columns, in order (see
   * the class comment for how renames, added and dropped columns and deletes are handled).
   */
  public String duckDbSelect() {
    if (files.isEmpty()) {
      StringJoiner columns = new StringJoiner(", ", "SELECT ", " WHERE false");
      for (Types.NestedField column : schema.columns()) {
        columns.add("CAST(NULL AS " + duckDbType(column.type()) + ") AS " + quote(column.name()));
      }
      return columns.toString();
    }
    StringJoiner union = new StringJoiner("\nUNION ALL\n");
    for (ScenarioFile file : files) {
      union.add(fileSelect(file));
    }
    return union.toString();
  }

  /**
   * Registers the snapshot in DuckDB as view {@code schemaName.viewName} over {@link
   * #duckDbSelect()}, replacing an earlier one.
   */
  public void registerIn(DuckDbOracle oracle, String schemaName, String viewName) {
    requireNonNull(oracle, "oracle is null");
    oracle.execute("CREATE SCHEMA IF NOT EXISTS " + quote(schemaName));
    oracle.execute(
        "CREATE OR REPLACE VIEW "
            + quote(schemaName)
            + "."
            + quote(viewName)
            + " AS "
            + duckDbSelect());
  }

  private String fileSelect(ScenarioFile file) {
    StringJoiner columns = new StringJoiner(", ", "SELECT ", "");
    for (Types.NestedField column : schema.columns()) {
      String inFile = file.columnNames().get(column.fieldId());
      String type = duckDbType(column.type());
      String value = inFile == null ? "NULL" : quote(inFile);
      columns.add("CAST(" + value + " AS " + type + ") AS " + quote(column.name()));
    }
    StringBuilder select =
        new StringBuilder(columns.toString())
            .append(" FROM read_parquet('")
            .append(file.localPath().toAbsolutePath().toString().replace("'", "''"))
            // Iceberg paths look like Hive partitions (category=c1/...): DuckDB must not read
            // column values from them.
            .append("', file_row_number = true, hive_partitioning = false)");
    List<String> conditions = new ArrayList<>();
    if (!file.deletedPositions().isEmpty()) {
      conditions.add("file_row_number NOT IN " + list(file.deletedPositions()));
    }
    if (!file.equalityDeletedIds().isEmpty()) {
      String id = file.columnNames().get(schema.columns().getFirst().fieldId());
      conditions.add(quote(id) + " NOT IN " + list(file.equalityDeletedIds()));
    }
    if (!conditions.isEmpty()) {
      select.append(" WHERE ").append(String.join(" AND ", conditions));
    }
    return select.toString();
  }

  private static String list(List<Long> values) {
    StringJoiner list = new StringJoiner(", ", "(", ")");
    for (long value : values) {
      list.add(Long.toString(value));
    }
    return list.toString();
  }

  /** DuckDB's name for an Iceberg primitive type. */
  static String duckDbType(Type type) {
    return switch (type.typeId()) {
      case BOOLEAN -> "BOOLEAN";
      case INTEGER -> "INTEGER";
      case LONG -> "BIGINT";
      case FLOAT -> "FLOAT";
      case DOUBLE -> "DOUBLE";
      case STRING -> "VARCHAR";
      case DATE -> "DATE";
      case TIMESTAMP ->
          ((Types.TimestampType) type).shouldAdjustToUTC() ? "TIMESTAMPTZ" : "TIMESTAMP";
      case DECIMAL -> {
        Types.DecimalType decimal = (Types.DecimalType) type;
        yield "DECIMAL(" + decimal.precision() + "," + decimal.scale() + ")";
      }
      default ->
          throw new IllegalArgumentException(
              "Cannot name Iceberg type %s in DuckDB: the scenario supports primitive columns only"
                  .formatted(type));
    };
  }

  private static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  @Override
  public String toString() {
    return "ScenarioState[%s: snapshot %s, %d files, %d live rows]"
        .formatted(
            step,
            snapshotId.isPresent() ? Long.toString(snapshotId.getAsLong()) : "none",
            files.size(),
            liveRowCount());
  }
}
