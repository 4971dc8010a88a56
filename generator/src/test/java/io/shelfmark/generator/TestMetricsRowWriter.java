package io.shelfmark.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.generator.distribution.MetricsDistribution;
import io.shelfmark.generator.distribution.MetricsRow;
import io.shelfmark.generator.distribution.SliceGenerator;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.parquet.ParquetValueWriter;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential test: the fast row writer must produce exactly what Iceberg's generic {@code Record}
 * writer produces from the same rows, byte for byte, with the same data file metrics.
 */
class TestMetricsRowWriter {
  private static final Map<String, String> PROPERTIES =
      Map.of(
          "write.parquet.compression-codec", "zstd",
          "write.parquet.page-row-limit", "300",
          "write.parquet.row-group-size-bytes", "65536");

  @TempDir Path directory;

  @Test
  void writesTheSameFileAsIcebergsGenericWriter() throws IOException {
    DataFile fast = write("fast.parquet", MetricsRowWriter::new, row -> row);
    DataFile generic =
        write(
            "generic.parquet",
            type -> GenericParquetWriter.create(MetricsTable.SCHEMA, type),
            new RecordCopier());

    assertThat(fast.recordCount()).isEqualTo(generic.recordCount()).isGreaterThan(2_000);
    assertThat(Files.readAllBytes(directory.resolve("fast.parquet")))
        .isEqualTo(Files.readAllBytes(directory.resolve("generic.parquet")));
    assertThat(fast.columnSizes()).isEqualTo(generic.columnSizes());
    assertThat(fast.valueCounts()).isEqualTo(generic.valueCounts());
    assertThat(fast.nullValueCounts()).isEqualTo(generic.nullValueCounts());
    assertThat(fast.nanValueCounts()).isEqualTo(generic.nanValueCounts()).containsKeys(5, 6);
    assertThat(fast.lowerBounds()).isEqualTo(generic.lowerBounds());
    assertThat(fast.upperBounds()).isEqualTo(generic.upperBounds()).containsKeys(1, 2, 3, 4, 5, 6);
    assertThat(fast.splitOffsets()).isEqualTo(generic.splitOffsets()).hasSizeGreaterThan(1);
  }

  /**
   * Writes minutes 13:50 to 14:09 of the largest org on 2025-08-03 (the incident and Q4's needles)
   * with the given Parquet value writer.
   */
  private <T> DataFile write(
      String name,
      Function<MessageType, ParquetValueWriter<?>> writerFunction,
      Function<MetricsRow, T> convert)
      throws IOException {
    MetricsDistribution distribution = MetricsDistribution.of(1_000_000, 42);
    int day = MetricsDistribution.INCIDENT_DAY;
    GenericRecord partition = GenericRecord.create(MetricsTable.SPEC.partitionType());
    partition.set(0, distribution.orgId(0));
    partition.set(1, MetricsDistribution.dayStartMillis(day));
    DataWriter<T> writer =
        Parquet.writeData(org.apache.iceberg.Files.localOutput(new File(directory.toFile(), name)))
            .schema(MetricsTable.SCHEMA)
            .withSpec(MetricsTable.SPEC)
            .withPartition(partition)
            .setAll(PROPERTIES)
            .createWriterFunc(writerFunction)
            .build();
    try (writer) {
      SliceGenerator generator = new SliceGenerator(distribution);
      int[] slices = distribution.sliceRows(0, day);
      for (int slice = 13 * 60 + 50; slice < 14 * 60 + 10; slice++) {
        generator.generate(0, day, slice, slices[slice], row -> writer.write(convert.apply(row)));
      }
    }
    return writer.toDataFile();
  }

  /** Copies a row into a reused generic record, as a user of Iceberg's generic writer would. */
  private static final class RecordCopier implements Function<MetricsRow, Record> {
    private final GenericRecord record = GenericRecord.create(MetricsTable.SCHEMA);
    private final Map<String, String> dimensions = new LinkedHashMap<>();

    @Override
    public Record apply(MetricsRow row) {
      record.set(0, row.orgId());
      record.set(1, row.metric());
      record.set(2, row.resolution());
      record.set(3, row.logicalTimestamp());
      record.set(4, row.sumRollup());
      record.set(5, row.latestRollup());
      dimensions.clear();
      for (int i = 0; i < row.dimensionCount(); i++) {
        dimensions.put(row.dimensionKey(i), row.dimensionValue(i));
      }
      record.set(6, dimensions);
      return record;
    }
  }
}
