package io.shelfmark.cli.bench.run;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cli.bench.BenchOptions;
import io.shelfmark.cli.bench.BenchWriter;
import io.shelfmark.cli.bench.lake.ProxiedLake;
import io.shelfmark.cli.bench.lake.PyarrowPython;
import io.shelfmark.cli.bench.report.TableFigures;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.cli.progress.ProgressLine;
import io.shelfmark.generator.ExistingTablePolicy;
import io.shelfmark.generator.GenerateReport;
import io.shelfmark.generator.GeneratorOptions;
import io.shelfmark.generator.MetricsTableGenerator;
import io.shelfmark.generator.ProgressListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;

/**
 * The benchmark table {@code obs.metrics} in the bench lake: generated once for a (rows, seed) and
 * reused by later runs, and its data files as local paths (the embedded S3 server keeps objects as
 * plain files), which DuckDB and the lower-bound calculator read directly.
 */
public final class BenchTable {
  public static final TableIdentifier ID = TableIdentifier.of("obs", "metrics");

  private final TableFigures figures;
  private final List<Path> files;

  private BenchTable(TableFigures figures, List<Path> files) {
    this.figures = figures;
    this.files = files;
  }

  /**
   * Generates (or reuses) the table with the options' writer, talking to S3 directly (not through
   * the proxy).
   */
  public static BenchTable prepare(ProxiedLake lake, BenchOptions options, boolean quiet)
      throws IOException {
    requireNonNull(lake, "lake is null");
    requireNonNull(options, "options is null");
    LocalLake local = lake.lake();
    if (local.catalog() instanceof SupportsNamespaces namespaces
        && !namespaces.namespaceExists(Namespace.of(ID.namespace().levels()))) {
      namespaces.createNamespace(Namespace.of(ID.namespace().levels()));
    }
    BenchWriter writer = options.writer();
    ProgressLine progress =
        quiet
            ? null
            : ProgressLine.onStandardError("generating " + ID + " (" + writer + ")", "rows");
    ProgressListener listener = listener(progress);
    GenerateReport report;
    if (writer.python()) {
      PyarrowPython.Module module =
          writer == BenchWriter.PYICEBERG
              ? PyarrowPython.Module.PYICEBERG
              : PyarrowPython.Module.PYARROW;
      PyarrowPython python = PyarrowPython.find(options.python(), System.getenv(), module);
      // A line of its own: the generator's line has reached 100% when the rewrite starts.
      ProgressLine rewriting =
          quiet
              ? null
              : ProgressLine.onStandardError(
                  "rewriting with " + module.name() + " " + python.moduleVersion(), "rows");
      report =
          PyarrowTable.prepare(
              lake,
              ID,
              writer,
              options.rows(),
              options.seed(),
              python,
              options.stagingDir(),
              listener,
              listener(rewriting));
    } else {
      report =
          MetricsTableGenerator.generate(
              local.catalog(),
              ID,
              GeneratorOptions.builder()
                  .rows(options.rows())
                  .seed(options.seed())
                  .existingTable(ExistingTablePolicy.REUSE)
                  .build(),
              listener);
    }
    if (progress != null) {
      progress.finish(report.summary());
    }
    List<Path> files = localFiles(lake, local.catalog().loadTable(ID));
    String createdBy = files.isEmpty() ? "" : createdBy(files.get(0));
    TableFigures figures =
        new TableFigures(
            ID.toString(),
            report.rows(),
            report.files(),
            report.bytes(),
            report.reused(),
            report.reused() ? null : report.seconds(),
            writer.id(),
            createdBy);
    return new BenchTable(figures, files);
  }

  private static ProgressListener listener(ProgressLine line) {
    return (written, total) -> {
      if (line != null) {
        line.update(written, total);
      }
    };
  }

  /** The footer's {@code created_by} of a data file: which library wrote it. */
  static String createdBy(Path file) throws IOException {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
      String createdBy = reader.getFileMetaData().getCreatedBy();
      return createdBy == null ? "" : createdBy;
    }
  }

  /** The local path of an object of the lake's S3 server, from its {@code s3://bucket/key}. */
  static Path localPath(ProxiedLake lake, String location) {
    if (!location.startsWith("s3://")) {
      throw new IllegalStateException(
          "Cannot map data file " + location + " to a local path (expected s3://bucket/key)");
    }
    return lake.objectDirectory().resolve(location.substring("s3://".length()));
  }

  /** The current snapshot's data files as paths under the S3 server's directory. */
  static List<Path> localFiles(ProxiedLake lake, Table table) {
    List<Path> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        files.add(localPath(lake, task.file().location()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the data files of " + ID + ": " + e, e);
    }
    files.sort(null);
    return List.copyOf(files);
  }

  public TableFigures figures() {
    return figures;
  }

  /** The data files as local paths, sorted. */
  public List<Path> files() {
    return files;
  }
}
