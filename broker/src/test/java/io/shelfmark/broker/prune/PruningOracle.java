package io.shelfmark.broker.prune;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.sql.SqlPlanner;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.schema.IcebergSchemas;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.sql.schema.TableSchemaProvider;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.QueryResult;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.apache.iceberg.Table;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.Util;

/**
 * Checks pruning decisions against DuckDB over the same files: a file or row group pruned
 * (CANNOT_MATCH) must hold no row passing the filter, one said to ALL_MATCH must have every row
 * passing. DuckDB reads the files directly (no Hive partitions from the paths); row groups are
 * found from {@code parquet_metadata} and each row's {@code file_row_number}.
 */
final class PruningOracle {
  private final Table table;
  private final DuckDbOracle duckDb;
  private final SqlPlanner planner;
  private final String tableName;
  private final String run;
  private final List<DataFileInfo> files;
  private final Map<String, FileMetaData> footers = new HashMap<>();
  private final Map<String, String> localPaths = new HashMap<>();
  long filesPruned;
  long filesAllMatch;
  long rowGroupsPruned;
  long rowGroupsAllMatch;
  long rowGroups;
  long duckDbNanos;
  long pruneNanos;

  /**
   * @param run what reproduces this run (the seed), for failure messages
   */
  PruningOracle(Table table, DuckDbOracle duckDb, String tableName, String run) {
    this.table = table;
    this.run = run;
    this.duckDb = duckDb;
    this.tableName = tableName;
    this.planner =
        new SqlPlanner(
            TableSchemaProvider.of(
                IcebergSchemas.toBoundTable(TableName.parse(tableName), table.schema())));
    this.files = TableSnapshot.current(table).dataFiles();
    StringJoiner list = new StringJoiner(", ", "[", "]");
    for (DataFileInfo file : files) {
      String local = Path.of(URI.create(file.path())).toString();
      localPaths.put(file.path(), local);
      footers.put(file.path(), footer(Path.of(local)));
      list.add("'" + local.replace("'", "''") + "'");
    }
    duckDb.execute(
        "CREATE OR REPLACE TABLE row_groups AS SELECT file_name, row_group_id,"
            + " any_value(row_group_num_rows) AS num_rows FROM parquet_metadata("
            + list
            + ") GROUP BY file_name, row_group_id");
    duckDb.execute(
        "CREATE OR REPLACE TABLE row_group_ranges AS SELECT file_name, row_group_id, num_rows,"
            + " sum(num_rows) OVER (PARTITION BY file_name ORDER BY row_group_id) - num_rows AS"
            + " first_row FROM row_groups");
    // Read once into memory, each row tagged with its file and row group: the filters then run
    // over the values the files hold without reading them again.
    duckDb.execute(
        "CREATE OR REPLACE TABLE rows AS SELECT d.* EXCLUDE (file_row_number),"
            + " g.row_group_id AS row_group FROM read_parquet("
            + list
            + ", filename = true, file_row_number = true, hive_partitioning = false) d"
            + " JOIN row_group_ranges g ON d.filename = g.file_name"
            + " AND d.file_row_number >= g.first_row"
            + " AND d.file_row_number < g.first_row + g.num_rows");
  }

  List<DataFileInfo> files() {
    return files;
  }

  /** Prunes every file and row group for {@code where}; returns the files pruned. */
  long check(String where) {
    QueryPlan plan = planner.plan("SELECT COUNT(*) FROM " + tableName + " WHERE " + where);
    long start = System.nanoTime();
    Map<String, Map<Long, Long>> matches = matches(where);
    long queried = System.nanoTime();
    duckDbNanos += queried - start;
    FilePruner filePruner = FilePruner.of(plan, table.schema(), table.specs());
    RowGroupPruner rowGroupPruner = RowGroupPruner.of(plan, table.schema());
    long pruned = 0;
    for (DataFileInfo file : files) {
      String local = localPaths.get(file.path());
      Map<Long, Long> fileMatches = matches.getOrDefault(local, Map.of());
      long matched = fileMatches.values().stream().mapToLong(Long::longValue).sum();
      PruneResult result = filePruner.prune(file);
      String context =
          "%s over %s (%s; %s)".formatted(where, file.path(), file.partition().path(), run);
      switch (result) {
        case CANNOT_MATCH -> {
          assertThat(matched).as("Should not prune a file with matches: %s", context).isZero();
          pruned++;
        }
        case ALL_MATCH -> {
          assertThat(matched)
              .as("Every row should match: %s", context)
              .isEqualTo(file.recordCount());
          filesAllMatch++;
        }
        case MIGHT_MATCH -> {}
      }
      FileMetaData footer = footers.get(file.path());
      List<PruneResult> groups = rowGroupPruner.prune(footer);
      for (int group = 0; group < groups.size(); group++) {
        long rows = footer.getRow_groups().get(group).getNum_rows();
        long groupMatches = fileMatches.getOrDefault((long) group, 0L);
        rowGroups++;
        if (groups.get(group) == PruneResult.CANNOT_MATCH) {
          assertThat(groupMatches)
              .as("Should not prune row group %d with matches: %s", group, context)
              .isZero();
          rowGroupsPruned++;
        } else if (groups.get(group) == PruneResult.ALL_MATCH) {
          assertThat(groupMatches)
              .as("Every row of row group %d should match: %s", group, context)
              .isEqualTo(rows);
          rowGroupsAllMatch++;
        }
      }
    }
    assertThat(filePruner.errors().count()).as("pruning errors for %s", where).isZero();
    assertThat(rowGroupPruner.errors().count()).as("pruning errors for %s", where).isZero();
    filesPruned += pruned;
    pruneNanos += System.nanoTime() - queried;
    return pruned;
  }

  /** Rows passing {@code where}, by local file and row group. */
  private Map<String, Map<Long, Long>> matches(String where) {
    QueryResult result =
        duckDb.query(
            "SELECT filename, row_group, count(*) FROM rows WHERE (" + where + ") GROUP BY 1, 2");
    Map<String, Map<Long, Long>> matches = new HashMap<>();
    for (List<Object> row : result.rows()) {
      matches
          .computeIfAbsent((String) row.get(0), file -> new HashMap<>())
          .put((Long) row.get(1), (Long) row.get(2));
    }
    return matches;
  }

  /** Up to {@code count} distinct non-null values of an expression, the same every run. */
  List<Object> sample(String expression, int count) {
    QueryResult result =
        duckDb.query(
            "SELECT v FROM (SELECT DISTINCT "
                + expression
                + " AS v FROM rows WHERE "
                + expression
                + " IS NOT NULL) ORDER BY hash(v) LIMIT "
                + count);
    List<Object> values = new ArrayList<>();
    for (List<Object> row : result.rows()) {
      values.add(row.getFirst());
    }
    return values;
  }

  private static FileMetaData footer(Path file) {
    try {
      byte[] bytes = Files.readAllBytes(file);
      int length =
          ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
      return Util.readFileMetaData(
          new ByteArrayInputStream(bytes, bytes.length - 8 - length, length));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the footer of " + file, e);
    }
  }
}
