package io.shelfmark.catalog;

import static org.apache.iceberg.types.Types.NestedField.required;

import java.io.IOException;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;

/**
 * A small metrics table (a slice of the benchmark's {@code obs.metrics}) and writers for its data
 * and position-delete files, through the table's own FileIO and Iceberg's generic Parquet writer.
 */
public final class TestingTables {
  public static final Schema SCHEMA =
      new Schema(
          required(1, "org_id", Types.LongType.get()),
          required(2, "metric", Types.StringType.get()),
          required(3, "logical_timestamp", Types.LongType.get()),
          required(4, "sum_rollup", Types.DoubleType.get()));

  /** Partitioned by {@code org_id} (identity), as the benchmark table is. */
  public static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).identity("org_id").build();

  private TestingTables() {}

  /**
   * Writes one Parquet data file of {@code rows} rows for {@code orgId} (metric {@code m<i>},
   * timestamp {@code 1000 + i}, sum {@code i}) and returns it, not yet committed.
   */
  public static DataFile writeDataFile(Table table, long orgId, int rows) throws IOException {
    PartitionKey partition = partition(table, orgId);
    OutputFile file = table.io().newOutputFile(newLocation(table, partition, "data"));
    DataWriter<Record> writer =
        Parquet.writeData(file)
            .forTable(table)
            .withPartition(partition)
            .createWriterFunc(GenericParquetWriter::create)
            .build();
    try (writer) {
      GenericRecord record = GenericRecord.create(table.schema());
      for (int i = 0; i < rows; i++) {
        GenericRecord row = record.copy();
        row.setField("org_id", orgId);
        row.setField("metric", "m" + i);
        row.setField("logical_timestamp", 1000L + i);
        row.setField("sum_rollup", (double) i);
        writer.write(row);
      }
    }
    return writer.toDataFile();
  }

  /**
   * Writes a position-delete file deleting {@code positions} of {@code dataFile}, not committed.
   */
  public static DeleteFile writePositionDeletes(
      Table table, DataFile dataFile, List<Long> positions) throws IOException {
    PartitionKey partition = partition(table, (Long) dataFile.partition().get(0, Long.class));
    OutputFile file = table.io().newOutputFile(newLocation(table, partition, "deletes"));
    PositionDeleteWriter<Record> writer =
        // Not forTable(table): it sets a row schema, which position deletes no longer carry.
        Parquet.writeDeletes(file)
            .withSpec(table.spec())
            .setAll(table.properties())
            .withPartition(partition)
            .overwrite()
            .buildPositionWriter();
    try (writer) {
      PositionDelete<Record> delete = PositionDelete.create();
      for (long position : positions) {
        writer.write(delete.set(dataFile.location(), position));
      }
    }
    return writer.toDeleteFile();
  }

  private static PartitionKey partition(Table table, long orgId) {
    PartitionKey key = new PartitionKey(table.spec(), table.schema());
    key.set(0, orgId);
    return key;
  }

  private static String newLocation(Table table, PartitionKey partition, String kind) {
    return table
        .locationProvider()
        .newDataLocation(table.spec(), partition, kind + "-" + UUID.randomUUID() + ".parquet");
  }
}
