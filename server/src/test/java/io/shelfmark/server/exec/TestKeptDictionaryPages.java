package io.shelfmark.server.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.config.cluster.StaticCredentials;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.cluster.StorageType;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.exchange.result.PartialResult;
import io.shelfmark.lake.EmbeddedS3Server;
import io.shelfmark.parquet.read.ReaderOptions;
import io.shelfmark.server.exec.TestingEngine.Mode;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.storage.spi.StorageStats;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * Pinned segments keep their files' dictionary pages: a query over them fetches data pages only.
 * The same query over the same segments read remotely (which leave the kept pages unused) fetches
 * the dictionary pages too; both answer the same.
 */
class TestKeptDictionaryPages {
  @Test
  void pinnedSegmentsFetchNoDictionaryPage() throws Exception {
    TestingLakeTables lake = TestingLakeTables.shared();
    ExecutorService fileWork = Executors.newFixedThreadPool(4);
    try (TestingEngine pinned = new TestingEngine(lake, lake.metrics, Mode.PINNED);
        TestingEngine remote = new TestingEngine(lake, lake.metrics, Mode.REMOTE);
        ObjectStore data =
            ObjectStores.open(
                StorageConfig.builder()
                    .type(StorageType.S3)
                    .endpoint(lake.server.endpoint())
                    .region(EmbeddedS3Server.REGION)
                    .pathStyleAccess(true)
                    .credentials(
                        new StaticCredentials(lake.server.accessKey(), lake.server.secretKey()))
                    .build())) {
      long kept = 0;
      for (FileTask task : segmented(pinned)) {
        kept += task.segment().orElseThrow().dictionaryPages(0).size();
      }
      assertThat(kept).as("dictionary pages kept by the pinned segments").isPositive();
      ExecutionContext context =
          new ExecutionContext(
              data,
              fileWork,
              lake.io,
              lake.metrics.schema(),
              Instant.now().plus(Duration.ofMinutes(2)),
              () -> false,
              Clock.systemUTC(),
              // These test files are small: any merge distance would make a GET span the kept
              // pages as gaps between fetched pages (the coalescer's call, not a fetch of them).
              // Without merging, a kept page between two adjacent pages splits their GET in two:
              // requests are not compared.
              ReaderOptions.builder().maxMergeDistance(DataSize.ofBytes(0)).build());
      QueryExecutor executor = new QueryExecutor();
      // The generator writes the rollups PLAIN (no dictionary page to keep): the benchmark's
      // queries must not read more; a map key the segments do not extract is checked on the map's
      // dictionary-encoded key and value pages, and must read fewer bytes.
      String unextractedKey =
          "SELECT COUNT(*) FROM obs.metrics WHERE resolution = 15000 AND dimensions['zone'] IS NULL";
      for (String sql :
          List.of(
              TestBenchmarkQueries.Q2,
              TestBenchmarkQueries.Q3,
              TestBenchmarkQueries.Q4,
              unextractedKey)) {
        long[] pinnedRead = new long[2];
        PartialResult fromPinned = run(executor, pinned, sql, context, data, pinnedRead);
        long[] remoteRead = new long[2];
        PartialResult fromRemote = run(executor, remote, sql, context, data, remoteRead);
        assertThat(fromPinned.groups()).as(sql).isEqualTo(fromRemote.groups());
        assertThat(remoteRead[0]).as(sql).isPositive();
        assertThat(pinnedRead[0])
            .as("%s: data bytes with kept dictionary pages, and without", sql)
            .isLessThanOrEqualTo(remoteRead[0]);
        if (sql.equals(unextractedKey)) {
          assertThat(pinnedRead[0]).as(sql).isLessThan(remoteRead[0]);
        }
      }
    } finally {
      fileWork.shutdownNow();
    }
  }

  private static List<FileTask> segmented(TestingEngine engine) {
    List<FileTask> tasks = new ArrayList<>();
    for (FileTask task : engine.tasks()) {
      if (task.segment().isPresent()) {
        tasks.add(task);
      }
    }
    return tasks;
  }

  /** Runs {@code sql} once to warm, then again; {@code read} gets the second run's bytes, GETs. */
  private static PartialResult run(
      QueryExecutor executor,
      TestingEngine engine,
      String sql,
      ExecutionContext context,
      ObjectStore data,
      long[] read) {
    executor.execute(engine.plan(sql), segmented(engine), context);
    StorageStats.Snapshot before = data.stats().snapshot();
    PartialResult result = executor.execute(engine.plan(sql), segmented(engine), context);
    StorageStats.Snapshot after = data.stats().snapshot();
    read[0] = after.bytesRead() - before.bytesRead();
    read[1] = after.getRequests() - before.getRequests();
    return result;
  }
}
