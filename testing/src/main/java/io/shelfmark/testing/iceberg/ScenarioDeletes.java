package io.shelfmark.testing.iceberg;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.Parquet;

/** The delete writers of {@link IcebergScenario}: each writes and commits one row delta. */
final class ScenarioDeletes {
  private ScenarioDeletes() {}

  /**
   * One Parquet position-delete file per (spec, partition) of the targets, rows sorted by data file
   * path then position as the spec requires.
   */
  static void commitPositionDeletes(IcebergScenario scenario, Map<String, List<Long>> targets)
      throws IOException {
    Table table = scenario.table();
    RowDelta delta = table.newRowDelta();
    for (List<String> group : byPartition(scenario, targets.keySet())) {
      DataFile first = scenario.dataFile(group.getFirst());
      PartitionSpec spec = table.specs().get(first.specId());
      OutputFile output = output(scenario, spec, first, "deletes");
      PositionDeleteWriter<Record> writer =
          // Not forTable(table): that sets a row schema, which position deletes no longer carry.
          Parquet.writeDeletes(output)
              .withSpec(spec)
              .setAll(table.properties())
              .withPartition(spec.isUnpartitioned() ? null : first.partition())
              .overwrite()
              .buildPositionWriter();
      try (writer) {
        PositionDelete<Record> delete = PositionDelete.create();
        for (String location : group) {
          for (long position : targets.get(location)) {
            writer.write(delete.set(location, position));
          }
        }
      }
      delta.addDeletes(writer.toDeleteFile());
    }
    delta.commit();
  }

  /**
   * One Puffin file holding a deletion vector per target data file: its earlier positions and the
   * new ones; the commit removes the file's earlier vector, as format v3 allows one per data file.
   */
  static void commitDeletionVectors(IcebergScenario scenario, Map<String, List<Long>> targets)
      throws IOException {
    Table table = scenario.table();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 1, scenario.history().size())
            .format(FileFormat.PUFFIN)
            .build();
    BaseDVFileWriter writer = new BaseDVFileWriter(files, path -> null);
    try (writer) {
      for (Map.Entry<String, List<Long>> target : targets.entrySet()) {
        DataFile file = scenario.dataFile(target.getKey());
        PartitionSpec spec = table.specs().get(file.specId());
        TreeSet<Long> positions = new TreeSet<>(scenario.deletedPositions(target.getKey()));
        positions.addAll(target.getValue());
        for (long position : positions) {
          writer.delete(target.getKey(), position, spec, file.partition());
        }
      }
    }
    DeleteWriteResult result = writer.result();
    // Conflict checks start at the snapshot the vectors were merged against, not at the table's
    // first snapshot (which would see the vectors this commit replaces as concurrent additions).
    RowDelta delta = table.newRowDelta().validateFromSnapshot(table.currentSnapshot().snapshotId());
    for (String location : targets.keySet()) {
      DeleteFile previous = scenario.deletionVector(location);
      if (previous != null) {
        delta.removeDeletes(previous);
      }
    }
    for (DeleteFile vector : result.deleteFiles()) {
      delta.addDeletes(vector);
      scenario.deletionVector(vector.referencedDataFile(), vector);
    }
    delta.commit();
  }

  /** One equality-delete file on the row id per (spec, partition) of the targets. */
  static void commitEqualityDeletes(IcebergScenario scenario, Map<String, List<Long>> targets)
      throws IOException {
    Table table = scenario.table();
    Schema schema = table.schema();
    int idField = schema.columns().getFirst().fieldId();
    Schema idSchema = schema.select(schema.columns().getFirst().name());
    RowDelta delta = table.newRowDelta();
    for (List<String> group : byPartition(scenario, targets.keySet())) {
      DataFile first = scenario.dataFile(group.getFirst());
      PartitionSpec spec = table.specs().get(first.specId());
      OutputFile output = output(scenario, spec, first, "eq-deletes");
      EqualityDeleteWriter<Record> writer =
          Parquet.writeDeletes(output)
              .forTable(table)
              .withSpec(spec)
              .withPartition(spec.isUnpartitioned() ? null : first.partition())
              .rowSchema(idSchema)
              .equalityFieldIds(idField)
              .createWriterFunc(GenericParquetWriter::create)
              .overwrite()
              .buildEqualityWriter();
      try (writer) {
        GenericRecord row = GenericRecord.create(idSchema);
        for (String location : group) {
          for (long id : targets.get(location)) {
            writer.write(row.copy(schema.columns().getFirst().name(), id));
          }
        }
      }
      delta.addDeletes(writer.toDeleteFile());
    }
    delta.commit();
  }

  /** Data file locations grouped by (spec, partition), each group sorted by location. */
  private static List<List<String>> byPartition(
      IcebergScenario scenario, Iterable<String> locations) {
    Map<String, List<String>> groups = new TreeMap<>();
    for (String location : locations) {
      DataFile file = scenario.dataFile(location);
      PartitionSpec spec = scenario.table().specs().get(file.specId());
      String key = file.specId() + "/" + spec.partitionToPath(file.partition());
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(location);
    }
    List<List<String>> sorted = new ArrayList<>();
    for (List<String> group : groups.values()) {
      group.sort(null);
      sorted.add(group);
    }
    return sorted;
  }

  private static OutputFile output(
      IcebergScenario scenario, PartitionSpec spec, DataFile partitionOf, String kind) {
    Table table = scenario.table();
    String location =
        table
            .locationProvider()
            .newDataLocation(spec, partitionOf.partition(), scenario.newFileName(kind, "parquet"));
    return table.io().newOutputFile(location);
  }
}
