package io.shelfmark.cli.bench.run;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.shelfmark.cli.bench.BenchWriter;
import io.shelfmark.cli.bench.lake.ProxiedLake;
import io.shelfmark.cli.bench.lake.PyarrowPython;
import io.shelfmark.generator.ExistingTablePolicy;
import io.shelfmark.generator.GenerateReport;
import io.shelfmark.generator.GeneratorOptions;
import io.shelfmark.generator.MetricsTable;
import io.shelfmark.generator.MetricsTableGenerator;
import io.shelfmark.generator.ProgressListener;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.ParquetUtil;

/**
 * The benchmark table with its data files written by pyarrow ({@code bench --writer pyarrow}) or by
 * pyiceberg ({@code bench --writer pyiceberg}).
 *
 * <p>How: the generator writes the rows once with iceberg-core into a source table beside it,
 * {@code obs.metrics_java} (kept, so a later run with the same rows and seed reuses it); a Python
 * step ({@code pyarrow_writer.py}, run by a {@link PyarrowPython}) reads each source file and
 * writes it again with {@code pyarrow.parquet.write_table} and no options, into a staging directory
 * (or, for pyiceberg, {@code pyiceberg_writer.py} appends its rows to a pyiceberg table in a SQLite
 * catalog there with {@code Table.append} and the table's default write properties, and stages the
 * files pyiceberg wrote: one per source, or more when a source passes pyiceberg's target file
 * size); then each staged file is uploaded to the table's location in the lake and appended to
 * {@code obs.metrics} with iceberg-core, with its metrics read from its own footer (what Iceberg's
 * {@code add_files} does), in the partition of the file it was rewritten from. Rewriting files
 * keeps the rows exactly the generator's (same rows, same order, same field ids), so the same
 * queries match the same rows under both writers; only the layout is pyarrow's.
 *
 * <p>The table records {@value #WRITER_PROPERTY}{@code =<writer id>} and, committed with its files,
 * the generator's rows and seed properties: a later run reuses it when all three match.
 */
final class PyarrowTable {
  static final String WRITER_PROPERTY = "shelfmark.bench.writer";
  private static final ObjectMapper JSON = new ObjectMapper();

  private PyarrowTable() {}

  /**
   * Writes (or reuses) {@code id} in the lake's catalog with pyarrow's layout.
   *
   * @param staging a directory this call may empty and fill with the files pyarrow writes
   * @param generating told of rows the generator writes into the source table
   * @param rewriting told of rows pyarrow has rewritten
   */
  static GenerateReport prepare(
      ProxiedLake lake,
      TableIdentifier id,
      BenchWriter writer,
      long rows,
      long seed,
      PyarrowPython python,
      Path staging,
      ProgressListener generating,
      ProgressListener rewriting)
      throws IOException {
    long start = System.nanoTime();
    Catalog catalog = lake.lake().catalog();
    if (catalog.tableExists(id)) {
      Table existing = catalog.loadTable(id);
      if (holds(existing, writer, rows, seed)) {
        return GenerateReport.reused(id, existing, Duration.ofNanos(System.nanoTime() - start));
      }
      catalog.dropTable(id, true);
    }
    TableIdentifier sourceId = TableIdentifier.of(id.namespace(), id.name() + "_java");
    MetricsTableGenerator.generate(
        catalog,
        sourceId,
        GeneratorOptions.builder()
            .rows(rows)
            .seed(seed)
            .existingTable(ExistingTablePolicy.REUSE)
            .build(),
        generating);
    Table source = catalog.loadTable(sourceId);
    List<DataFile> sourceFiles = dataFiles(source);
    List<List<Path>> staged = rewrite(lake, writer, python, sourceFiles, staging, rows, rewriting);
    Table table = create(catalog, id, writer, source);
    List<DataFile> files = upload(table, writer, sourceFiles, staged);
    commit(table, files, rows, seed);
    BenchNodes.deleteTree(staging);
    long bytes = 0;
    for (DataFile file : files) {
      bytes += file.fileSizeInBytes();
    }
    return new GenerateReport(
        id, false, rows, files.size(), bytes, Duration.ofNanos(System.nanoTime() - start));
  }

  private static boolean holds(Table table, BenchWriter writer, long rows, long seed) {
    Map<String, String> properties = table.properties();
    return writer.id().equals(properties.get(WRITER_PROPERTY))
        && MetricsTable.VERSION.equals(properties.get(MetricsTable.VERSION_PROPERTY))
        && Long.toString(rows).equals(properties.get(MetricsTable.ROWS_PROPERTY))
        && Long.toString(seed).equals(properties.get(MetricsTable.SEED_PROPERTY));
  }

  private static List<DataFile> dataFiles(Table table) throws IOException {
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        files.add(task.file());
      }
    }
    // Plan order is the manifests'; sorted by location, the staged names are stable across runs.
    files.sort((a, b) -> a.location().compareTo(b.location()));
    return files;
  }

  /** The Python script that rewrites the files for {@code writer}, a resource beside this class. */
  static String script(BenchWriter writer) {
    return writer.id() + "_writer.py";
  }

  /**
   * Runs the Python step over every source file; returns, in source order, the files staged for
   * each source.
   */
  private static List<List<Path>> rewrite(
      ProxiedLake lake,
      BenchWriter writer,
      PyarrowPython python,
      List<DataFile> sources,
      Path staging,
      long rows,
      ProgressListener progress)
      throws IOException {
    BenchNodes.deleteTree(staging);
    Files.createDirectories(staging);
    String name = script(writer);
    Path script = staging.resolve(name);
    try (InputStream in =
        PyarrowTable.class.getResourceAsStream("/io/shelfmark/cli/bench/lake/" + name)) {
      if (in == null) {
        throw new IOException(
            "Cannot find " + name + " on the class path (rebuild the cli module)");
      }
      Files.copy(in, script);
    }
    ArrayNode pairs = JSON.createArrayNode();
    Map<String, Integer> sourceIndex = new HashMap<>();
    List<List<Path>> staged = new ArrayList<>();
    for (int i = 0; i < sources.size(); i++) {
      Path target = staging.resolve("%05d.parquet".formatted(i));
      staged.add(new ArrayList<>());
      sourceIndex.put(target.toString(), i);
      pairs
          .addObject()
          .put("source", BenchTable.localPath(lake, sources.get(i).location()).toString())
          .put("target", target.toString());
    }
    Path list = staging.resolve("files.json");
    JSON.writeValue(list.toFile(), pairs);
    Path log = staging.resolve(writer.id() + "_writer.log");
    Process process =
        new ProcessBuilder(python.executable().toString(), script.toString(), list.toString())
            .redirectError(log.toFile())
            .start();
    process.getOutputStream().close();
    long written = 0;
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        JsonNode file = JSON.readTree(line);
        // pyarrow_writer.py writes one file, "target"; pyiceberg_writer.py those it staged,
        // "targets", the first of which is the target it was given.
        JsonNode targets = file.has("targets") ? file.path("targets") : file.path("target");
        String first = targets.isArray() ? targets.path(0).asText() : targets.asText();
        Integer index = sourceIndex.get(first);
        if (index == null) {
          throw new IOException(
              "Cannot read "
                  + name
                  + "'s output: it names target "
                  + first
                  + " (line "
                  + line
                  + "), none of those asked for in "
                  + list);
        }
        for (JsonNode target : targets.isArray() ? targets : List.of(targets)) {
          staged.get(index).add(Path.of(target.asText()));
        }
        written += file.path("rows").asLong();
        progress.rowsWritten(written, rows);
      }
    }
    int status = waitFor(process, writer);
    if (status != 0 || written != rows) {
      throw new IOException(
          "Cannot write the benchmark table with "
              + writer
              + ": "
              + python.executable()
              + " "
              + name
              + (status != 0 ? " exited with status " + status : " exited 0")
              + " after writing "
              + written
              + " of "
              + rows
              + " rows: "
              + lastLines(log)
              + " (its whole output is in "
              + log
              + ")");
    }
    return staged;
  }

  private static int waitFor(Process process, BenchWriter writer) throws InterruptedIOException {
    try {
      return process.waitFor();
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new InterruptedIOException(
          "Cannot write the benchmark table with " + writer + ": interrupted");
    }
  }

  private static String lastLines(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, UTF_8);
      return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /**
   * The table, created as the source's (schema, partition spec, sort order, properties) without the
   * Iceberg writer's Parquet settings, which describe none of the Python writer's files.
   */
  private static Table create(
      Catalog catalog, TableIdentifier id, BenchWriter writer, Table source) {
    Map<String, String> properties = new HashMap<>();
    source
        .properties()
        .forEach(
            (key, value) -> {
              if (!key.startsWith("write.parquet.")
                  && !key.equals(MetricsTable.ROWS_PROPERTY)
                  && !key.equals(MetricsTable.SEED_PROPERTY)) {
                properties.put(key, value);
              }
            });
    properties.put(WRITER_PROPERTY, writer.id());
    Table table =
        catalog
            .buildTable(id, source.schema())
            .withPartitionSpec(source.spec())
            .withSortOrder(source.sortOrder())
            .withProperties(properties)
            .create();
    // The files carry the source's field ids: the new table must have assigned the same ones.
    if (!table.schema().asStruct().equals(source.schema().asStruct())) {
      throw new IllegalStateException(
          "Cannot append "
              + writer
              + "'s files to "
              + id
              + ": its schema "
              + table.schema()
              + " has other field ids than the files' "
              + source.schema());
    }
    return table;
  }

  private static List<DataFile> upload(
      Table table, BenchWriter writer, List<DataFile> sources, List<List<Path>> staged)
      throws IOException {
    MetricsConfig metricsConfig = MetricsConfig.forTable(table);
    List<DataFile> files = new ArrayList<>(staged.size());
    for (int i = 0; i < staged.size(); i++) {
      DataFile source = sources.get(i);
      String sourceName = source.location().substring(source.location().lastIndexOf('/') + 1);
      long rows = 0;
      List<Path> locals = staged.get(i);
      for (int part = 0; part < locals.size(); part++) {
        Path local = locals.get(part);
        String name =
            sourceName.replace(
                ".parquet", "-" + writer.id() + (part == 0 ? "" : "-" + part) + ".parquet");
        String location =
            table.locationProvider().newDataLocation(table.spec(), source.partition(), name);
        try (OutputStream out = table.io().newOutputFile(location).createOrOverwrite()) {
          Files.copy(local, out);
        }
        Metrics metrics =
            ParquetUtil.fileMetrics(
                org.apache.iceberg.Files.localInput(local.toFile()), metricsConfig);
        rows += metrics.recordCount();
        files.add(
            DataFiles.builder(table.spec())
                .withPath(location)
                .withFormat(FileFormat.PARQUET)
                .withPartition(source.partition())
                .withFileSizeInBytes(Files.size(local))
                .withMetrics(metrics)
                .build());
      }
      if (rows != source.recordCount()) {
        throw new IllegalStateException(
            "Cannot append the rewrite of "
                + source.location()
                + ": "
                + writer
                + " wrote "
                + rows
                + " rows in "
                + locals.size()
                + " files but the source has "
                + source.recordCount());
      }
    }
    return files;
  }

  private static void commit(Table table, List<DataFile> files, long rows, long seed) {
    Transaction transaction = table.newTransaction();
    AppendFiles append = transaction.newAppend();
    files.forEach(append::appendFile);
    append.commit();
    transaction
        .updateProperties()
        .set(MetricsTable.ROWS_PROPERTY, Long.toString(rows))
        .set(MetricsTable.SEED_PROPERTY, Long.toString(seed))
        .commit();
    transaction.commitTransaction();
  }
}
