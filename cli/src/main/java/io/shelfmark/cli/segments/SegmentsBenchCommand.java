package io.shelfmark.cli.segments;

import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.cli.progress.ProgressLine;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.generator.ExistingTablePolicy;
import io.shelfmark.generator.GenerateReport;
import io.shelfmark.generator.GeneratorOptions;
import io.shelfmark.generator.MetricsTableGenerator;
import io.shelfmark.indexbuilder.build.BuildOptions;
import io.shelfmark.indexbuilder.build.IndexingReport;
import io.shelfmark.indexbuilder.build.SegmentFileBuilder;
import io.shelfmark.indexbuilder.build.SnapshotIndexer;
import io.shelfmark.indexbuilder.spec.SegmentSpec;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectInfo;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code shelfmark segments bench}: generates (or reuses) the benchmark table in the local lake,
 * builds every segment of its current snapshot with the bundled benchmark table config into a fresh
 * segment prefix, and prints the figures the index builder is held to: segment bytes against
 * Parquet bytes, and rows built per second.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Build every segment of the benchmark table obs.metrics and print what it cost.",
      "",
      "Generates the table in the local lake of --data-dir (or reuses it when it holds the same"
          + " rows and seed), then builds the segments of its current snapshot with the bundled"
          + " benchmark table config (inverted on metric, org_id, resolution; range on"
          + " logical_timestamp; map keys node and service of dimensions) into the fresh prefix"
          + " s3://lake/_shelfmark/bench-segments/, deleting what an earlier run left there.",
      "",
      "With --passes 2 (the default) the segments are built twice in this process: the first"
          + " pass pays for compiling the code (the JIT's CPU), the second measures the steady"
          + " state of a long-running index builder. One line per pass, then the full figures of"
          + " the last pass.",
      "",
      "Prints: data files, rows, Parquet bytes (dataBytes), segment bytes (indexBytes), their"
          + " ratio (target: at most 25%%), bytes per part kind, build wall time and rows/s"
          + " (target: at least 1,000,000 on a 2-core machine), the process's CPU time and rows"
          + " per CPU-second (what carries across runs on a shared machine), JIT compilation and GC"
          + " time, the load"
          + " average, time per build phase, threads and JVM heap. Exit status 1 when a file"
          + " failed to build.",
      ""
    })
public final class SegmentsBenchCommand implements Callable<Integer> {
  static final String PREFIX = "s3://" + LocalLake.BUCKET + "/_shelfmark/bench-segments/";

  @Option(
      names = "--rows",
      description = "Rows of the benchmark table (default: ${DEFAULT-VALUE}).")
  long rows = 20_000_000;

  @Option(names = "--seed", description = "Generator seed (default: ${DEFAULT-VALUE}).")
  long seed = GeneratorOptions.DEFAULT_SEED;

  @Option(
      names = "--data-dir",
      description = "The local lake's directory (default: ${DEFAULT-VALUE}).")
  Path dataDir = Path.of(System.getProperty("user.home"), ".shelfmark", "quickstart");

  @Option(
      names = "--threads",
      description =
          "Data files built at once (default: one more than the processor count, ${DEFAULT-VALUE}).")
  int threads = SnapshotIndexer.defaultParallelism();

  @Option(
      names = "--no-star-trees",
      description =
          "Leave the bundled config's star-trees out, to compare sizes and build rates with them.")
  boolean noStarTrees;

  @Option(
      names = "--table-config",
      description =
          "A table config file for obs.metrics to build instead of the bundled one (to compare"
              + " star-tree settings, say); --no-star-trees then leaves its star-trees out.")
  Path tableConfig;

  @Option(
      names = "--read-from",
      description =
          "s3: read data files and write segments through the embedded S3 server over HTTP, as a"
              + " deployment would; files: through the server's directory directly, leaving out"
              + " the S3 server's own CPU (default: ${DEFAULT-VALUE}).")
  ReadFrom readFrom = ReadFrom.S3;

  @Option(
      names = "--forward-max-cardinality",
      description =
          "Extracted keys and columns with more distinct values in a file get no forward index"
              + " (default: ${DEFAULT-VALUE}).")
  int forwardMaxCardinality = SegmentSpec.DEFAULT_FORWARD_MAX_CARDINALITY;

  @Option(
      names = "--passes",
      description =
          "Times every segment is built in this process; the figures are those of the last pass"
              + " (default: ${DEFAULT-VALUE}: a cold pass, then a warm one).")
  int passes = 2;

  @Option(
      names = "--alternate-star-trees",
      description =
          "Build each pass twice, with the config's star-trees and without them, alternating which"
              + " goes first, and end with what the trees cost: the warm passes' median rows per"
              + " CPU-second each way and the trees' own CPU per row (for a shared machine, where"
              + " two runs minutes apart differ by more than the trees cost).")
  boolean alternateStarTrees;

  @Option(names = "--quiet", description = "No progress lines on standard error.")
  boolean quiet;

  @CommandLine.Spec CommandLine.Model.CommandSpec commandSpec;

  /** Where data files are read from and segments written to. */
  enum ReadFrom {
    S3,
    FILES
  }

  @Override
  public Integer call() throws Exception {
    if (threads < 1) {
      throw new IllegalArgumentException("Cannot use --threads " + threads + " (need at least 1)");
    }
    if (passes < 1) {
      throw new IllegalArgumentException("Cannot use --passes " + passes + " (need at least 1)");
    }
    PrintWriter out = commandSpec.commandLine().getOut();
    TableConfig bundled =
        tableConfig != null
            ? ConfigLoader.loadTable(tableConfig)
            : ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE);
    TableConfig withoutTrees =
        new TableConfig(
            bundled.identity(),
            bundled.timeColumn(),
            bundled.columns(),
            bundled.mapKeys(),
            bundled.replication(),
            bundled.refreshInterval(),
            bundled.dictionaryPages());
    TableConfig config = !noStarTrees ? bundled : withoutTrees;
    if (alternateStarTrees && (noStarTrees || bundled.starTrees().isEmpty())) {
      throw new IllegalArgumentException(
          "Cannot use --alternate-star-trees: "
              + (noStarTrees ? "--no-star-trees is given" : "the table config has no star-trees")
              + " (give a table config with star-trees and leave --no-star-trees out)");
    }
    TableIdentifier id =
        TableIdentifier.of(config.identity().namespace(), config.identity().name());
    try (LocalLake lake = LocalLake.start(LocalLake.locate(dataDir, dataDir), 0)) {
      GenerateReport generated = generate(lake, id);
      out.println(generated.summary());
      out.flush();
      Table table = lake.catalog().loadTable(id);
      TableSnapshot snapshot = TableSnapshot.current(table);
      int formatVersion = ((HasTableOperations) table).operations().current().formatVersion();
      SegmentSpec spec =
          SegmentSpec.from(config, table.schema()).withForwardMaxCardinality(forwardMaxCardinality);
      SegmentSpec specWithout =
          SegmentSpec.from(withoutTrees, table.schema())
              .withForwardMaxCardinality(forwardMaxCardinality);
      ObjectStore store =
          readFrom == ReadFrom.S3
              ? lake.store()
              : ObjectStores.local(lake.directory().resolve("s3"));
      try {
        SegmentStore segments = new SegmentStore(store, Location.parse(PREFIX));
        IndexingReport report = null;
        MachineUse used = null;
        StarTreeCost cost = new StarTreeCost();
        for (int pass = 1; pass <= passes; pass++) {
          boolean treesFirst = pass % 2 == 1;
          for (int half = 0; half < (alternateStarTrees ? 2 : 1); half++) {
            boolean trees = !alternateStarTrees || treesFirst == (half == 0);
            clear(segments);
            MachineUse before = MachineUse.now();
            IndexingReport built =
                build(store, segments, trees ? spec : specWithout, snapshot, formatVersion);
            MachineUse usedNow = MachineUse.now().minus(before);
            String label = !alternateStarTrees ? "" : trees ? " with trees" : " without trees";
            BenchReport.printPass(out, pass, passes, label, built, usedNow);
            out.flush();
            if (pass > 1 || passes == 1) {
              cost.add(trees, built, usedNow);
            }
            if (trees) {
              report = built;
              used = usedNow;
            }
          }
        }
        if (alternateStarTrees) {
          cost.print(out);
        }
        new BenchReport(
                id.toString(),
                rows,
                seed,
                readFrom.name().toLowerCase(java.util.Locale.ROOT),
                passes,
                report,
                used,
                heapMaxBytes(),
                heapPeakBytes())
            .print(out);
        out.flush();
        return report.failed().isEmpty() ? 0 : 1;
      } finally {
        if (store != lake.store()) {
          store.close();
        }
      }
    }
  }

  private GenerateReport generate(LocalLake lake, TableIdentifier id) throws Exception {
    if (lake.catalog() instanceof SupportsNamespaces namespaces
        && !namespaces.namespaceExists(Namespace.of(id.namespace().levels()))) {
      namespaces.createNamespace(Namespace.of(id.namespace().levels()));
    }
    ProgressLine progress = quiet ? null : ProgressLine.onStandardError("generating " + id, "rows");
    return MetricsTableGenerator.generate(
        lake.catalog(),
        id,
        GeneratorOptions.builder()
            .rows(rows)
            .seed(seed)
            .parallelism(threads)
            .existingTable(ExistingTablePolicy.REUSE)
            .build(),
        (written, total) -> {
          if (progress != null) {
            progress.update(written, total);
          }
        });
  }

  /** Deletes what an earlier run left under the bench prefix, so every segment is built now. */
  private static void clear(SegmentStore segments) throws Exception {
    for (ObjectInfo object : segments.objectStore().list(segments.prefix())) {
      segments.objectStore().delete(object.location());
    }
  }

  private IndexingReport build(
      ObjectStore store,
      SegmentStore segments,
      SegmentSpec spec,
      TableSnapshot snapshot,
      int formatVersion)
      throws Exception {
    ExecutorService io = Executors.newVirtualThreadPerTaskExecutor();
    try {
      SegmentFileBuilder builder =
          new SegmentFileBuilder(
              store,
              io,
              IndexService.installed(),
              BuildOptions.builder().workDirectory(dataDir.resolve("tmp")).build());
      ProgressLine progress = quiet ? null : ProgressLine.onStandardError("building", "rows");
      resetHeapPeaks();
      return new SnapshotIndexer(builder, segments, threads)
          .index(
              spec,
              snapshot,
              formatVersion,
              (outcome, done) -> {
                if (progress != null) {
                  progress.update(done.rowsDone(), snapshot.recordCount());
                }
              });
    } finally {
      io.shutdownNow();
    }
  }

  private static long heapMaxBytes() {
    return Runtime.getRuntime().maxMemory();
  }

  private static void resetHeapPeaks() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
  }

  /** The sum of the heap pools' peak usage since the last reset (an upper bound of the peak). */
  private static long heapPeakBytes() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak;
  }
}
