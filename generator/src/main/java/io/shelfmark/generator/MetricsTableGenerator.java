package io.shelfmark.generator;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Ticker;
import io.shelfmark.generator.distribution.MetricsDistribution;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the benchmark table {@code obs.metrics} (see {@link MetricsTable} for its definition and
 * {@link MetricsDistribution} for its data) into any Iceberg catalog, as Parquet data files written
 * through iceberg-core, deterministically from a row count and a seed.
 *
 * <p>Streaming: the table is cut into data files of whole minutes of one (org, day) partition
 * ({@link FilePlanner}); {@code parallelism} threads each write one file at a time, generating its
 * rows minute by minute, so memory holds one row group per thread and never the table. All files
 * are appended in one commit, together with the {@link MetricsTable#ROWS_PROPERTY} and {@link
 * MetricsTable#SEED_PROPERTY} properties: a table either has all its rows and those properties, or
 * neither.
 *
 * <p>Usage:
 *
 * <pre>{@code
 * GenerateReport report = MetricsTableGenerator.generate(
 *     catalog, TableIdentifier.of("obs", "metrics"),
 *     GeneratorOptions.builder().rows(20_000_000).build(),
 *     (written, total) -> bar.update(written, total));
 * }</pre>
 *
 * <p>Thread safety: each call is independent; concurrent calls must target different tables.
 */
public final class MetricsTableGenerator {
  private static final Logger log = LoggerFactory.getLogger(MetricsTableGenerator.class);

  private final Catalog catalog;
  private final TableIdentifier id;
  private final GeneratorOptions options;
  private final ProgressListener progress;
  private final Ticker ticker;

  private MetricsTableGenerator(
      Catalog catalog,
      TableIdentifier id,
      GeneratorOptions options,
      ProgressListener progress,
      Ticker ticker) {
    this.catalog = requireNonNull(catalog, "catalog is null");
    this.id = requireNonNull(id, "id is null");
    this.options = requireNonNull(options, "options is null");
    this.progress = requireNonNull(progress, "progress is null");
    this.ticker = requireNonNull(ticker, "ticker is null");
  }

  /**
   * Generates (or, per {@link GeneratorOptions#existingTable}, reuses) table {@code id} in {@code
   * catalog}.
   *
   * @throws IOException if a data file cannot be written; files this run wrote are deleted
   * @throws IllegalStateException if the table exists, was not written by the generator, and the
   *     policy is {@link ExistingTablePolicy#REUSE}
   */
  public static GenerateReport generate(
      Catalog catalog, TableIdentifier id, GeneratorOptions options, ProgressListener progress)
      throws IOException {
    return generate(catalog, id, options, progress, Ticker.systemTicker());
  }

  /**
   * As {@link #generate(Catalog, TableIdentifier, GeneratorOptions, ProgressListener)}, timed by
   * {@code ticker}.
   */
  public static GenerateReport generate(
      Catalog catalog,
      TableIdentifier id,
      GeneratorOptions options,
      ProgressListener progress,
      Ticker ticker)
      throws IOException {
    return new MetricsTableGenerator(catalog, id, options, progress, ticker).run();
  }

  private GenerateReport run() throws IOException {
    long start = ticker.read();
    if (catalog.tableExists(id)) {
      Table existing = catalog.loadTable(id);
      if (options.existingTable() == ExistingTablePolicy.REUSE && holdsRequestedData(existing)) {
        log.info(
            "Reusing table {}: it holds {} rows from seed {}", id, options.rows(), options.seed());
        return GenerateReport.reused(id, existing, elapsedSince(start));
      }
      log.info(
          "Dropping table {} to generate it anew with rows={} seed={} (policy {}; it held rows={}"
              + " seed={} version={})",
          id,
          options.rows(),
          options.seed(),
          options.existingTable(),
          existing.properties().get(MetricsTable.ROWS_PROPERTY),
          existing.properties().get(MetricsTable.SEED_PROPERTY),
          existing.properties().get(MetricsTable.VERSION_PROPERTY));
      catalog.dropTable(id, true);
    }
    Table table = createTable();
    MetricsDistribution distribution = MetricsDistribution.of(options.rows(), options.seed());
    List<FileTask> tasks = FilePlanner.plan(distribution, options.maxRowsPerFile());
    List<DataFile> files = writeAll(table, distribution, tasks);
    commit(table, files);
    long bytes = 0;
    for (DataFile file : files) {
      bytes += file.fileSizeInBytes();
    }
    GenerateReport report =
        new GenerateReport(id, false, options.rows(), files.size(), bytes, elapsedSince(start));
    log.info("{}", report.summary());
    return report;
  }

  /**
   * True when the generator wrote this table with the requested rows and seed. Refuses (rather than
   * drops) a table the generator did not write, since REUSE promises never to destroy such data.
   */
  private boolean holdsRequestedData(Table table) {
    Map<String, String> properties = table.properties();
    String version = properties.get(MetricsTable.VERSION_PROPERTY);
    if (version == null) {
      throw new IllegalStateException(
          "Cannot reuse table "
              + id
              + ": it exists but was not written by the Shelfmark generator (no "
              + MetricsTable.VERSION_PROPERTY
              + " property; drop it, choose another table name, or use the REPLACE policy)");
    }
    return version.equals(MetricsTable.VERSION)
        && Long.toString(options.rows()).equals(properties.get(MetricsTable.ROWS_PROPERTY))
        && Long.toString(options.seed()).equals(properties.get(MetricsTable.SEED_PROPERTY));
  }

  private Table createTable() {
    if (catalog instanceof SupportsNamespaces namespaces
        && !id.namespace().isEmpty()
        && !namespaces.namespaceExists(id.namespace())) {
      try {
        namespaces.createNamespace(id.namespace());
      } catch (AlreadyExistsException e) {
        // Created concurrently by someone else between the check and the call: what we wanted.
        log.debug("Namespace {} appeared concurrently", id.namespace(), e);
      }
    }
    return catalog
        .buildTable(id, MetricsTable.SCHEMA)
        .withPartitionSpec(MetricsTable.SPEC)
        .withSortOrder(MetricsTable.SORT_ORDER)
        .withProperties(MetricsTable.properties(options))
        .create();
  }

  private List<DataFile> writeAll(
      Table table, MetricsDistribution distribution, List<FileTask> tasks) throws IOException {
    ProgressTracker tracker = new ProgressTracker(progress, options.rows());
    Queue<String> written = new ConcurrentLinkedQueue<>();
    ThreadLocal<DataFileWriter> writers =
        ThreadLocal.withInitial(() -> new DataFileWriter(table, distribution, tracker));
    ExecutorService executor = newExecutor(Math.min(options.parallelism(), tasks.size()));
    List<Future<DataFile>> futures = new ArrayList<>(Collections.nCopies(tasks.size(), null));
    try {
      // Largest files first, so the last file to finish is a small one (better load balance).
      Integer[] schedule = new Integer[tasks.size()];
      Arrays.setAll(schedule, i -> i);
      Arrays.sort(
          schedule, Comparator.comparingLong((Integer i) -> tasks.get(i).rows()).reversed());
      for (int index : schedule) {
        FileTask task = tasks.get(index);
        futures.set(
            index,
            executor.submit(
                () -> {
                  DataFile file = writers.get().write(task);
                  written.add(file.location());
                  return file;
                }));
      }
      // Collected in plan order (org, day, file): the commit's manifests are deterministic too.
      List<DataFile> files = new ArrayList<>(tasks.size());
      for (Future<DataFile> future : futures) {
        files.add(future.get());
      }
      return files;
    } catch (ExecutionException | InterruptedException | RuntimeException e) {
      executor.shutdownNow();
      awaitWriters(executor, e);
      deleteFiles(table, written, e);
      throw asIOException(e);
    } finally {
      executor.shutdownNow();
    }
  }

  private static ExecutorService newExecutor(int threads) {
    AtomicInteger number = new AtomicInteger();
    return Executors.newFixedThreadPool(
        threads,
        runnable -> {
          Thread thread = new Thread(runnable, "shelfmark-generator-" + number.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
  }

  /** Waits for interrupted writers to stop, so no file appears after the clean-up below. */
  private void awaitWriters(ExecutorService executor, Exception failure) {
    try {
      if (!executor.awaitTermination(1, TimeUnit.MINUTES)) {
        failure.addSuppressed(
            new IllegalStateException(
                "Cannot stop the writers of table "
                    + id
                    + " within a minute: files they still"
                    + " write are left behind"));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure.addSuppressed(e);
    }
  }

  private static void deleteFiles(Table table, Collection<String> locations, Exception failure) {
    for (String location : locations) {
      try {
        table.io().deleteFile(location);
      } catch (RuntimeException e) {
        failure.addSuppressed(e);
      }
    }
  }

  private IOException asIOException(Exception e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
      return new InterruptedIOException("Cannot generate table " + id + ": interrupted");
    }
    Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
    if (cause instanceof IOException io) {
      return io;
    }
    if (cause instanceof UncheckedIOException unchecked) {
      return unchecked.getCause();
    }
    if (cause instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    return new IOException("Cannot generate table " + id + ": " + cause, cause);
  }

  private void commit(Table table, List<DataFile> files) {
    try {
      appendWithProperties(table, files);
    } catch (RuntimeException e) {
      List<String> locations = new ArrayList<>(files.size());
      for (DataFile file : files) {
        locations.add(file.location());
      }
      deleteFiles(table, locations, e);
      throw e;
    }
  }

  private void appendWithProperties(Table table, List<DataFile> files) {
    Transaction transaction = table.newTransaction();
    AppendFiles append = transaction.newAppend();
    for (DataFile file : files) {
      append.appendFile(file);
    }
    append.commit();
    transaction
        .updateProperties()
        .set(MetricsTable.ROWS_PROPERTY, Long.toString(options.rows()))
        .set(MetricsTable.SEED_PROPERTY, Long.toString(options.seed()))
        .commit();
    transaction.commitTransaction();
  }

  private Duration elapsedSince(long start) {
    return Duration.ofNanos(ticker.read() - start);
  }
}
