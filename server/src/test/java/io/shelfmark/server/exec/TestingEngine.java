package io.shelfmark.server.exec;

import com.github.benmanes.caffeine.cache.Ticker;
import io.shelfmark.cache.CachePolicy;
import io.shelfmark.cache.CachingObjectStore;
import io.shelfmark.cache.IdentityResolver;
import io.shelfmark.cache.TieredCache;
import io.shelfmark.cache.disk.DiskTier;
import io.shelfmark.cache.memory.MemoryTier;
import io.shelfmark.cache.spi.CacheTier;
import io.shelfmark.cache.stats.StatsCounter;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.exchange.result.FinalResult;
import io.shelfmark.exchange.result.PartialResult;
import io.shelfmark.exchange.result.ResultFinisher;
import io.shelfmark.exchange.result.ResultRendering;
import io.shelfmark.parquet.decode.MemoryDecompressedPages;
import io.shelfmark.parquet.read.ReaderOptions;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.segment.read.BitmapCache;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.source.MappedSegmentSource;
import io.shelfmark.segment.source.ObjectStoreSegmentSource;
import io.shelfmark.server.exec.TestingLakeTables.TableFile;
import io.shelfmark.server.exec.TestingLakeTables.TestingTable;
import io.shelfmark.sql.PlannedStatement;
import io.shelfmark.sql.SqlPlanner;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.schema.TableSchemaProvider;
import io.shelfmark.sql.type.SqlType;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.testing.oracle.QueryResult;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * Runs SQL on one test table through the whole server path (plan, execute, serialise the partial
 * and read it back, finish) in one of the three storage modes the benchmark compares.
 */
final class TestingEngine implements Closeable {
  enum Mode {
    /** Segments read remotely through a memory-only cache; Parquet pages from S3. */
    REMOTE,
    /** Segments memory-mapped from local files; Parquet pages from S3. */
    PINNED,
    /** Segments memory-mapped; Parquet pages through a memory + disk cache. */
    PINNED_PAGES
  }

  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss[.SSSSSS]", Locale.ROOT);

  private final TestingLakeTables lake;
  private final TestingTable table;
  private final SqlPlanner planner;
  private final List<Segment> segments = new ArrayList<>();
  private final List<TieredCache> caches = new ArrayList<>();
  private final List<FileTask> tasks = new ArrayList<>();
  private final ObjectStore dataStore;
  private ReaderOptions readerOptions = ReaderOptions.defaults();
  private boolean useStarTrees = true;
  private boolean usePageStatistics = true;
  private final QueryExecutor executor;
  // Shared by the engine's segments like a server's, and small enough to evict: the oracle
  // comparisons then also cover cached and re-decoded posting lists.
  private final BitmapCache bitmaps = BitmapCache.bounded(1L << 20);

  TestingEngine(TestingLakeTables lake, TestingTable table, Mode mode) throws IOException {
    this.lake = lake;
    this.table = table;
    this.planner = new SqlPlanner(TableSchemaProvider.of(table.bound()));
    Path directory =
        Files.createTempDirectory(lake.directory, mode.name().toLowerCase(Locale.ROOT));
    // As a server with a page cache: data pages also kept decompressed (kept v1 pages are then
    // decoded without being fetched), bounded small enough to evict, so the oracle comparisons
    // cover pages found kept, fetched again and evicted.
    this.executor =
        mode == Mode.PINNED_PAGES
            ? new QueryExecutor(
                Runtime.getRuntime().availableProcessors(),
                new MemoryDecompressedPages(DataSize.ofBytes(4L << 20)))
            : new QueryExecutor();
    Executor executor = lake.io;
    ObjectStore segmentStore = lake.store;
    if (mode == Mode.REMOTE) {
      TieredCache memory =
          new TieredCache(
              new MemoryTier(64L << 20, executor, StatsCounter.concurrent()),
              CacheTier.disabled("disk"),
              executor,
              Ticker.systemTicker(),
              StatsCounter.concurrent());
      caches.add(memory);
      segmentStore =
          new CachingObjectStore(
              lake.store,
              memory,
              CachePolicy.MEMORY_ONLY,
              IdentityResolver.versionedByStat(lake.store));
    }
    if (mode == Mode.PINNED_PAGES) {
      TieredCache pages =
          new TieredCache(
              new MemoryTier(32L << 20, executor, StatsCounter.concurrent()),
              DiskTier.open(
                  directory.resolve("cache"), 256L << 20, executor, StatsCounter.concurrent()),
              executor,
              Ticker.systemTicker(),
              StatsCounter.concurrent());
      caches.add(pages);
      Map<Location, Long> sizes = new HashMap<>();
      for (TableFile file : table.files()) {
        sizes.put(Location.parse(file.info().path()), file.info().fileSizeInBytes());
      }
      dataStore =
          new CachingObjectStore(
              lake.store, pages, CachePolicy.MEMORY_AND_DISK, IdentityResolver.immutable(sizes));
    } else {
      dataStore = lake.store;
    }
    int n = 0;
    for (TableFile file : table.files()) {
      Optional<Segment> segment = Optional.empty();
      if (file.segment() != null) {
        String name = table.name().replace('.', '-') + "-" + n++ + ".shfm";
        if (mode == Mode.REMOTE) {
          Location location = Location.parse("s3://lake/_shelfmark/" + mode + "/" + name);
          lake.store.write(location, file.segment());
          segment =
              Optional.of(
                  Segment.open(
                      new ObjectStoreSegmentSource(segmentStore, location, file.segment().length),
                      IndexService.installed(),
                      bitmaps));
        } else {
          Path local = directory.resolve(name);
          Files.write(local, file.segment());
          segment =
              Optional.of(
                  Segment.open(MappedSegmentSource.open(local), IndexService.installed(), bitmaps));
        }
        segments.add(segment.get());
      }
      tasks.add(new FileTask(file.info(), segment, file.deleted()));
    }
  }

  /** Whether files may be answered from star-trees (the query option useStarTree). */
  TestingEngine useStarTrees(boolean use) {
    this.useStarTrees = use;
    return this;
  }

  /** Whether MIN/MAX may come from page statistics (the query option usePageStatistics). */
  TestingEngine usePageStatistics(boolean use) {
    this.usePageStatistics = use;
    return this;
  }

  TestingEngine readerOptions(ReaderOptions options) {
    this.readerOptions = options;
    return this;
  }

  List<FileTask> tasks() {
    return tasks;
  }

  ObjectStore dataStore() {
    return dataStore;
  }

  QueryPlan plan(String sql) {
    return planner.plan(sql);
  }

  ExecutionContext context() {
    return context(lake.files);
  }

  /** With {@code fileExecutor} running files, decode-ahead and row-group helpers. */
  ExecutionContext context(Executor fileExecutor) {
    return new ExecutionContext(
            dataStore,
            fileExecutor,
            lake.io,
            table.schema(),
            Instant.now().plus(Duration.ofMinutes(2)),
            () -> false,
            Clock.systemUTC(),
            readerOptions)
        .withStarTrees(useStarTrees)
        .withPageStatistics(usePageStatistics);
  }

  PartialResult partial(String sql) {
    return partial(sql, tasks);
  }

  PartialResult partial(String sql, List<FileTask> files) {
    return partial(sql, files, lake.files);
  }

  PartialResult partial(String sql, List<FileTask> files, Executor fileExecutor) {
    QueryPlan plan = plan(sql);
    PartialResult partial = executor.execute(plan, files, context(fileExecutor));
    // What the broker receives: the partial after a trip through its wire form.
    return PartialResult.deserialize(partial.serialize());
  }

  FinalResult finalResult(String sql) {
    return ResultFinisher.finish(plan(sql), partial(sql));
  }

  /** The result as the DuckDB oracle's values look, for {@code ResultComparison}. */
  QueryResult query(String sql) {
    if (planner.planStatement(sql) instanceof PlannedStatement.Constant constant) {
      return constant(constant);
    }
    QueryPlan plan = plan(sql);
    FinalResult result = ResultFinisher.finish(plan, partial(sql));
    List<List<Object>> rows = new ArrayList<>();
    for (List<Object> row : result.rows()) {
      List<Object> values = new ArrayList<>();
      for (int c = 0; c < row.size(); c++) {
        values.add(comparable(plan.outputs().get(c).type().displayName(), row.get(c)));
      }
      rows.add(values);
    }
    return QueryResult.normalized(result.columnNames(), rows);
  }

  /** A SELECT without FROM, rendered as the broker renders it. */
  private static QueryResult constant(PlannedStatement.Constant constant) {
    List<String> names = new ArrayList<>();
    List<List<Object>> rows = new ArrayList<>();
    for (var output : constant.query().outputs()) {
      names.add(output.name());
    }
    for (List<Object> row : constant.rows()) {
      List<Object> values = new ArrayList<>();
      for (int c = 0; c < row.size(); c++) {
        SqlType type = constant.query().outputs().get(c).type();
        values.add(comparable(type.displayName(), ResultRendering.render(type, row.get(c))));
      }
      rows.add(values);
    }
    return QueryResult.normalized(names, rows);
  }

  private static Object comparable(String type, Object value) {
    if (value == null) {
      return null;
    }
    return switch (type) {
      case "DATE" -> LocalDate.parse((String) value);
      case "TIMESTAMP" -> LocalDateTime.parse((String) value, TIMESTAMP);
      case "TIMESTAMP_TZ" ->
          LocalDateTime.parse(((String) value).replace("Z", ""), TIMESTAMP)
              .toInstant(java.time.ZoneOffset.UTC);
      case "BINARY" -> "0x" + value;
      default -> value;
    };
  }

  @Override
  public void close() throws IOException {
    for (Segment segment : segments) {
      segment.close();
    }
    for (TieredCache cache : caches) {
      cache.close();
    }
  }
}
