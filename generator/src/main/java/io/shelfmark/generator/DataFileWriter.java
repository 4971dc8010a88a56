package io.shelfmark.generator;

import static java.util.Objects.requireNonNull;

import io.shelfmark.generator.distribution.MetricsDistribution;
import io.shelfmark.generator.distribution.MetricsRow;
import io.shelfmark.generator.distribution.SliceGenerator;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one {@link FileTask} as a Parquet data file through Iceberg's generic Parquet writer, with
 * the table's properties (zstd, row-group and page sizes), partition and sort order.
 *
 * <p>File names are deterministic, {@code <org>-<yyyyMMdd>-<seq>.parquet} under the partition's
 * directory, so two runs with the same rows and seed produce the same paths as well as the same
 * bytes. A leftover file of that name (from a crashed run) is overwritten.
 *
 * <p>Not thread-safe: one writer per thread, reused for many tasks.
 */
final class DataFileWriter {
  private static final Logger log = LoggerFactory.getLogger(DataFileWriter.class);
  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ofPattern("yyyyMMdd", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final Table table;
  private final MetricsDistribution distribution;
  private final ProgressTracker progress;
  private final SliceGenerator generator;

  DataFileWriter(Table table, MetricsDistribution distribution, ProgressTracker progress) {
    this.table = requireNonNull(table, "table is null");
    this.distribution = requireNonNull(distribution, "distribution is null");
    this.progress = requireNonNull(progress, "progress is null");
    this.generator = new SliceGenerator(distribution);
  }

  /** Writes the task's file and returns its metadata; on failure deletes the partial file. */
  DataFile write(FileTask task) throws IOException {
    PartitionSpec spec = table.spec();
    long orgId = distribution.orgId(task.orgRank());
    long dayStart = MetricsDistribution.dayStartMillis(task.day());
    GenericRecord partition = GenericRecord.create(spec.partitionType());
    partition.set(0, orgId);
    partition.set(1, dayStart);
    String name =
        String.format(
            Locale.ROOT,
            "%d-%s-%03d.parquet",
            orgId,
            DAY.format(Instant.ofEpochMilli(dayStart)),
            task.sequence());
    String location = table.locationProvider().newDataLocation(spec, partition, name);
    OutputFile output = table.io().newOutputFile(location);
    DataWriter<MetricsRow> writer =
        Parquet.writeData(output)
            .forTable(table)
            .setAll(table.properties())
            .createWriterFunc(MetricsRowWriter::new)
            .withSpec(spec)
            .withPartition(partition)
            .withSortOrder(table.sortOrder())
            .overwrite()
            .build();
    try {
      writeRows(task, writer);
      writer.close();
    } catch (IOException | RuntimeException | Error e) {
      abandon(writer, location, e);
      throw e;
    }
    log.debug("Wrote {} ({} rows) to {}", task, task.rows(), location);
    return writer.toDataFile();
  }

  private void writeRows(FileTask task, DataWriter<MetricsRow> writer) throws IOException {
    SliceGenerator.RowSink sink = writer::write;
    int[] sliceRows = task.sliceRows();
    for (int i = 0; i < sliceRows.length; i++) {
      if (Thread.currentThread().isInterrupted()) {
        throw new InterruptedIOException("Cannot finish " + task + ": interrupted");
      }
      generator.generate(task.orgRank(), task.day(), task.firstSlice() + i, sliceRows[i], sink);
      progress.add(sliceRows[i]);
    }
  }

  private void abandon(DataWriter<MetricsRow> writer, String location, Throwable failure) {
    try {
      writer.close();
    } catch (IOException | RuntimeException e) {
      failure.addSuppressed(e);
    }
    try {
      table.io().deleteFile(location);
    } catch (RuntimeException e) {
      failure.addSuppressed(
          new UncheckedIOException(
              new IOException("Cannot delete partial data file " + location, e)));
    }
  }
}
