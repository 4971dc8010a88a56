package io.shelfmark.testing.iceberg;

import static java.util.Objects.requireNonNull;
import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.UpdatePartitionSpec;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * A small Iceberg table with a scripted history, for tests that must give the same answers as the
 * table's snapshots: appends, overwrites, position deletes (format v2), deletion vectors (format
 * v3), equality deletes, schema evolution (added, renamed, dropped columns) and partition
 * evolution, each followed by whatever appends the test wants. After every step {@link #state()}
 * says what a reader needs: the live data files with their local copies, deleted positions, rows
 * removed by equality deletes, and the column name each file uses for each field id (see {@link
 * ScenarioState#duckDbSelect()} for how DuckDB reads them).
 *
 * <pre>{@code
 * IcebergScenario scenario = IcebergScenario.create(catalog, TableIdentifier.of("t", "s"),
 *     IcebergScenario.SCHEMA, IcebergScenario.spec(IcebergScenario.SCHEMA), 2,
 *     IcebergScenario.localFiles(), 42);
 * scenario.append(40);
 * scenario.deleteRows(2, 3);                 // 3 rows in each of 2 files
 * scenario.renameColumn("amount", "total");
 * scenario.append(20);
 * ScenarioState state = scenario.state();    // what Iceberg's snapshot holds
 * }</pre>
 *
 * <p>The fixture writes every file itself (Iceberg's generic Parquet writer, position-delete,
 * equality-delete and deletion-vector writers through the table's FileIO) and keeps each file's
 * rows, so what it reports is its own record of what it did, independent of any reader under test.
 * Rows come from {@link ScenarioRows}: the first column is a unique row id.
 *
 * <p>Not thread safe; one scenario per table.
 */
public final class IcebergScenario {
  /** The default schema: a row id and one column of each common type, all but the id nullable. */
  public static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "category", Types.StringType.get()),
          optional(3, "amount", Types.DoubleType.get()),
          optional(4, "quantity", Types.IntegerType.get()),
          optional(5, "event_time", Types.TimestampType.withoutZone()),
          optional(6, "event_day", Types.DateType.get()),
          optional(7, "flag", Types.BooleanType.get()),
          optional(8, "price", Types.DecimalType.of(9, 2)));

  private final Table table;
  private final int formatVersion;
  private final Function<String, Path> localPath;
  private final ScenarioRows rows;
  private final Random random;
  // Per live data file: the DataFile, its rows as written (write-time schema), its state.
  private final Map<String, DataFile> dataFiles = new TreeMap<>();
  private final Map<String, List<Record>> fileRows = new HashMap<>();
  private final Map<String, Map<Integer, String>> fileColumns = new HashMap<>();
  private final Map<String, TreeSet<Long>> deletedPositions = new HashMap<>();
  private final Map<String, TreeSet<Long>> deletedIds = new HashMap<>();
  private final Map<String, DeleteFile> deletionVectors = new HashMap<>();
  private final List<ScenarioState> history = new ArrayList<>();
  private int fileCounter;

  private IcebergScenario(
      Table table,
      int formatVersion,
      Function<String, Path> localPath,
      long seed,
      String createdStep) {
    this.table = table;
    this.formatVersion = formatVersion;
    this.localPath = localPath;
    this.rows = new ScenarioRows(seed);
    this.random = new Random(seed ^ 0x5DEECE66DL);
    history.add(snapshotState(createdStep));
  }

  /**
   * Creates the table (it must not exist) with no snapshot yet.
   *
   * @param schema a flat schema of primitive columns whose first column is a required LONG row id
   * @param formatVersion 2 (position-delete files) or 3 (deletion vectors)
   * @param localPath maps a file location to the local path of the same bytes ({@link
   *     #localFiles()} for a {@code file:} warehouse, {@link #s3Files(Path)} for the embedded S3
   *     server)
   * @param seed makes rows and the choice of deleted rows reproducible
   */
  public static IcebergScenario create(
      Catalog catalog,
      TableIdentifier id,
      Schema schema,
      PartitionSpec spec,
      int formatVersion,
      Function<String, Path> localPath,
      long seed) {
    return create(catalog, id, schema, spec, formatVersion, localPath, seed, Map.of());
  }

  /**
   * As {@link #create(Catalog, TableIdentifier, Schema, PartitionSpec, int, Function, long)}, with
   * extra table properties (for example small row groups: {@code
   * write.parquet.row-group-size-bytes} applies to data and delete files).
   */
  public static IcebergScenario create(
      Catalog catalog,
      TableIdentifier id,
      Schema schema,
      PartitionSpec spec,
      int formatVersion,
      Function<String, Path> localPath,
      long seed,
      Map<String, String> properties) {
    requireNonNull(catalog, "catalog is null");
    requireNonNull(properties, "properties is null");
    requireNonNull(localPath, "localPath is null");
    if (formatVersion != 2 && formatVersion != 3) {
      throw new IllegalArgumentException(
          "Cannot create scenario table %s with format version %d (use 2 or 3)"
              .formatted(id, formatVersion));
    }
    Table table = catalog.createTable(id, schema, spec, tableProperties(formatVersion, properties));
    return new IcebergScenario(
        table,
        formatVersion,
        localPath,
        seed,
        "create (format v%d, %s)".formatted(formatVersion, spec));
  }

  private static Map<String, String> tableProperties(
      int formatVersion, Map<String, String> properties) {
    Map<String, String> all = new LinkedHashMap<>();
    all.put(TableProperties.PARQUET_COMPRESSION, "zstd");
    all.putAll(properties);
    all.put(TableProperties.FORMAT_VERSION, Integer.toString(formatVersion));
    return all;
  }

  /** The default spec for {@link #SCHEMA}: identity on {@code category}. */
  public static PartitionSpec spec(Schema schema) {
    return PartitionSpec.builderFor(schema).identity("category").build();
  }

  /** Locations of a {@code file:} warehouse are local paths already. */
  public static Function<String, Path> localFiles() {
    return location ->
        location.startsWith("file:") ? Path.of(URI.create(location)) : Path.of(location);
  }

  /**
   * Locations {@code s3://bucket/key} of a server that keeps objects as plain files at {@code
   * baseDirectory/bucket/key}, as the embedded S3 server does.
   */
  public static Function<String, Path> s3Files(Path baseDirectory) {
    requireNonNull(baseDirectory, "baseDirectory is null");
    return location -> {
      if (!location.startsWith("s3://")) {
        throw new IllegalArgumentException(
            "Cannot find a local copy of %s: not an s3:// location".formatted(location));
      }
      return baseDirectory.resolve(location.substring("s3://".length()));
    };
  }

  public Table table() {
    return table;
  }

  /** The table as of the last step. */
  public ScenarioState state() {
    return history.getLast();
  }

  /** The state after each step, the table's creation first. */
  public List<ScenarioState> history() {
    return List.copyOf(history);
  }

  /** Appends {@code count} new rows, one data file per partition they fall in. */
  public ScenarioState append(int count) {
    List<DataFile> written = writeRows(rows.next(table.schema(), count));
    var append = table.newAppend();
    written.forEach(append::appendFile);
    append.commit();
    return record("append %d rows in %d files".formatted(count, written.size()));
  }

  /**
   * Replaces {@code count} live data files (chosen at random) by files holding their live rows,
   * same ids, other columns drawn anew and in the current schema and spec: an UPDATE of those rows
   * through an overwrite commit. The replaced files' deletes no longer apply to anything.
   */
  public ScenarioState overwrite(int count) {
    List<String> chosen = choose(count);
    List<Long> ids = new ArrayList<>();
    for (String location : chosen) {
      ids.addAll(liveIds(location));
    }
    List<DataFile> written = writeRows(rows.replace(table.schema(), ids));
    var overwrite = table.newOverwrite();
    for (String location : chosen) {
      overwrite.deleteFile(dataFiles.get(location));
    }
    written.forEach(overwrite::addFile);
    overwrite.commit();
    for (String location : chosen) {
      forget(location);
    }
    return record("overwrite %d files with %d rows".formatted(chosen.size(), ids.size()));
  }

  /**
   * Deletes {@code rowsPerFile} live rows (at random) of each of {@code fileCount} live files: one
   * position-delete file per partition in a format v2 table (so a delete file may name several data
   * files, sorted by path and position), a deletion vector per data file in a format v3 table
   * (merged with the file's earlier vector, which the commit replaces).
   */
  public ScenarioState deleteRows(int fileCount, int rowsPerFile) {
    Map<String, List<Long>> targets = new TreeMap<>();
    for (String location : choose(fileCount)) {
      targets.put(location, choosePositions(location, rowsPerFile));
    }
    try {
      if (formatVersion() >= 3) {
        ScenarioDeletes.commitDeletionVectors(this, targets);
      } else {
        ScenarioDeletes.commitPositionDeletes(this, targets);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot write position deletes for " + targets.keySet() + ": " + e.getMessage(), e);
    }
    for (Map.Entry<String, List<Long>> target : targets.entrySet()) {
      deletedPositions.get(target.getKey()).addAll(target.getValue());
    }
    return record(
        "delete %d rows in each of %d files (%s)"
            .formatted(
                rowsPerFile,
                targets.size(),
                formatVersion() >= 3 ? "deletion vectors" : "position deletes"));
  }

  /**
   * Deletes {@code rowsPerFile} live rows (at random) of each of {@code fileCount} live files by
   * equality on the row id: one equality-delete file per partition, in that partition and spec.
   */
  public ScenarioState deleteIds(int fileCount, int rowsPerFile) {
    Map<String, List<Long>> targets = new TreeMap<>();
    for (String location : choose(fileCount)) {
      List<Long> ids = new ArrayList<>();
      List<Record> written = fileRows.get(location);
      for (long position : choosePositions(location, rowsPerFile)) {
        ids.add((Long) written.get((int) position).get(0));
      }
      targets.put(location, ids);
    }
    try {
      ScenarioDeletes.commitEqualityDeletes(this, targets);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot write equality deletes for " + targets.keySet() + ": " + e.getMessage(), e);
    }
    for (Map.Entry<String, List<Long>> target : targets.entrySet()) {
      deletedIds.get(target.getKey()).addAll(target.getValue());
    }
    return record(
        "delete %d ids in each of %d files (equality deletes)"
            .formatted(rowsPerFile, targets.size()));
  }

  /** Adds an optional column (rows appended later get values; earlier files read NULL). */
  public ScenarioState addColumn(String name, Type type) {
    return updateSchema("add column %s %s".formatted(name, type), s -> s.addColumn(name, type));
  }

  public ScenarioState renameColumn(String name, String newName) {
    return updateSchema(
        "rename column %s to %s".formatted(name, newName), s -> s.renameColumn(name, newName));
  }

  /** Drops a column; live files keep its data, which readers must no longer return. */
  public ScenarioState dropColumn(String name) {
    return updateSchema("drop column " + name, s -> s.deleteColumn(name));
  }

  /** Any schema change; the first column must stay the required LONG row id. */
  public ScenarioState updateSchema(String description, Consumer<UpdateSchema> change) {
    UpdateSchema update = table.updateSchema();
    change.accept(update);
    update.commit();
    return record(description);
  }

  /** Any partition spec change; files written later use the new spec. */
  public ScenarioState updateSpec(String description, Consumer<UpdatePartitionSpec> change) {
    UpdatePartitionSpec update = table.updateSpec();
    change.accept(update);
    update.commit();
    return record(description);
  }

  int formatVersion() {
    return formatVersion;
  }

  DataFile dataFile(String location) {
    return dataFiles.get(location);
  }

  /** The current deletion vector of a data file, if any. */
  DeleteFile deletionVector(String location) {
    return deletionVectors.get(location);
  }

  void deletionVector(String location, DeleteFile vector) {
    deletionVectors.put(location, vector);
  }

  /** Positions deleted so far in a data file. */
  TreeSet<Long> deletedPositions(String location) {
    return deletedPositions.get(location);
  }

  /** A new file name, unique in this scenario. */
  String newFileName(String kind, String extension) {
    return "%s-%05d.%s".formatted(kind, fileCounter++, extension);
  }

  private List<DataFile> writeRows(List<Record> records) {
    Schema schema = table.schema();
    PartitionSpec spec = table.spec();
    InternalRecordWrapper wrapper = new InternalRecordWrapper(schema.asStruct());
    Map<PartitionKey, List<Record>> partitions = new LinkedHashMap<>();
    for (Record record : records) {
      PartitionKey key = new PartitionKey(spec, schema);
      key.partition(wrapper.wrap(record));
      partitions.computeIfAbsent(key, k -> new ArrayList<>()).add(record);
    }
    Map<Integer, String> columns = new TreeMap<>();
    for (Types.NestedField column : schema.columns()) {
      columns.put(column.fieldId(), column.name());
    }
    List<DataFile> written = new ArrayList<>();
    for (Map.Entry<PartitionKey, List<Record>> partition : partitions.entrySet()) {
      DataFile file = writeDataFile(spec, partition.getKey(), partition.getValue());
      dataFiles.put(file.location(), file);
      fileRows.put(file.location(), List.copyOf(partition.getValue()));
      fileColumns.put(file.location(), columns);
      deletedPositions.put(file.location(), new TreeSet<>());
      deletedIds.put(file.location(), new TreeSet<>());
      written.add(file);
    }
    return written;
  }

  private DataFile writeDataFile(PartitionSpec spec, StructLike partition, List<Record> records) {
    OutputFile output =
        table
            .io()
            .newOutputFile(
                table
                    .locationProvider()
                    .newDataLocation(spec, partition, newFileName("data", "parquet")));
    try {
      DataWriter<Record> writer =
          Parquet.writeData(output)
              .forTable(table)
              .withSpec(spec)
              .withPartition(spec.isUnpartitioned() ? null : partition)
              .createWriterFunc(GenericParquetWriter::create)
              .overwrite()
              .build();
      try (writer) {
        for (Record record : records) {
          writer.write(record);
        }
      }
      return writer.toDataFile();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot write data file " + output.location() + ": " + e.getMessage(), e);
    }
  }

  private void forget(String location) {
    dataFiles.remove(location);
    fileRows.remove(location);
    fileColumns.remove(location);
    deletedPositions.remove(location);
    deletedIds.remove(location);
    deletionVectors.remove(location);
  }

  /** Up to {@code count} distinct live files with live rows, at random. */
  private List<String> choose(int count) {
    List<String> candidates = new ArrayList<>();
    for (String location : dataFiles.keySet()) {
      if (!liveIds(location).isEmpty()) {
        candidates.add(location);
      }
    }
    List<String> chosen = new ArrayList<>();
    while (chosen.size() < count && !candidates.isEmpty()) {
      chosen.add(candidates.remove(random.nextInt(candidates.size())));
    }
    chosen.sort(null);
    return chosen;
  }

  /** Up to {@code count} distinct positions of live rows of a file, at random, ascending. */
  private List<Long> choosePositions(String location, int count) {
    List<Long> live = new ArrayList<>();
    List<Record> written = fileRows.get(location);
    for (int position = 0; position < written.size(); position++) {
      if (isLive(location, position)) {
        live.add((long) position);
      }
    }
    List<Long> chosen = new ArrayList<>();
    while (chosen.size() < count && !live.isEmpty()) {
      chosen.add(live.remove(random.nextInt(live.size())));
    }
    chosen.sort(null);
    return chosen;
  }

  private List<Long> liveIds(String location) {
    List<Long> ids = new ArrayList<>();
    List<Record> written = fileRows.get(location);
    for (int position = 0; position < written.size(); position++) {
      if (isLive(location, position)) {
        ids.add((Long) written.get(position).get(0));
      }
    }
    return ids;
  }

  private boolean isLive(String location, int position) {
    return !deletedPositions.get(location).contains((long) position)
        && !deletedIds.get(location).contains((Long) fileRows.get(location).get(position).get(0));
  }

  /** The positions in a file of the rows with these ids, ascending. */
  private List<Long> positionsOf(String location, TreeSet<Long> ids) {
    List<Long> positions = new ArrayList<>();
    List<Record> written = fileRows.get(location);
    for (int position = 0; position < written.size(); position++) {
      if (ids.contains((Long) written.get(position).get(0))) {
        positions.add((long) position);
      }
    }
    return positions;
  }

  private ScenarioState record(String step) {
    ScenarioState state = snapshotState(step);
    history.add(state);
    return state;
  }

  private ScenarioState snapshotState(String step) {
    table.refresh();
    Snapshot snapshot = table.currentSnapshot();
    List<ScenarioFile> files = new ArrayList<>();
    for (Map.Entry<String, DataFile> entry : dataFiles.entrySet()) {
      String location = entry.getKey();
      DataFile file = entry.getValue();
      files.add(
          new ScenarioFile(
              location,
              localPath.apply(location),
              file.recordCount(),
              file.specId(),
              fileColumns.get(location),
              List.copyOf(deletedPositions.get(location)),
              List.copyOf(deletedIds.get(location)),
              positionsOf(location, deletedIds.get(location))));
    }
    return new ScenarioState(
        step,
        snapshot == null ? OptionalLong.empty() : OptionalLong.of(snapshot.snapshotId()),
        formatVersion(),
        table.schema(),
        files);
  }

  @Override
  public String toString() {
    return "IcebergScenario[%s, %s]".formatted(table.name(), state());
  }
}
