package io.shelfmark.server.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.config.cluster.StaticCredentials;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.cluster.StorageType;
import io.shelfmark.lake.EmbeddedS3Server;
import io.shelfmark.parquet.read.ReaderOptions;
import io.shelfmark.server.exec.TestingEngine.Mode;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.testing.latency.LatencyInjectingProxy;
import io.shelfmark.testing.latency.RequestLog;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * With segments pinned, Q2, Q3 and Q4 cost one sequential round of S3 requests: footers and page
 * locations come from the segments, and each file's pages (residual and value columns together) are
 * fetched in one parallel wave. Measured through the latency-injecting proxy's request log.
 */
class TestRequestRounds {
  @Test
  void benchmarkQueriesCostOneRoundWithPinnedSegments() throws Exception {
    TestingLakeTables lake = TestingLakeTables.shared();
    ExecutorService fileWork = Executors.newFixedThreadPool(8);
    try (LatencyInjectingProxy proxy =
            LatencyInjectingProxy.builder()
                .backend(lake.server.endpoint())
                .latency(Duration.ofMillis(200))
                .build();
        TestingEngine engine = new TestingEngine(lake, lake.metrics, Mode.PINNED)) {
      proxy.start();
      try (ObjectStore viaProxy =
          ObjectStores.open(
              StorageConfig.builder()
                  .type(StorageType.S3)
                  .endpoint(proxy.endpoint())
                  .region(EmbeddedS3Server.REGION)
                  .pathStyleAccess(true)
                  .credentials(
                      new StaticCredentials(lake.server.accessKey(), lake.server.secretKey()))
                  .build())) {
        ExecutionContext context =
            new ExecutionContext(
                viaProxy,
                fileWork,
                lake.io,
                lake.metrics.schema(),
                Instant.now().plus(Duration.ofMinutes(2)),
                () -> false,
                Clock.systemUTC(),
                ReaderOptions.defaults());
        List<FileTask> segmented =
            engine.tasks().stream().filter(task -> task.segment().isPresent()).toList();
        QueryExecutor executor = new QueryExecutor();
        for (String sql :
            List.of(TestBenchmarkQueries.Q2, TestBenchmarkQueries.Q3, TestBenchmarkQueries.Q4)) {
          executor.execute(engine.plan(sql), segmented, context); // warms segment parts
          proxy.reset();
          executor.execute(engine.plan(sql), segmented, context);
          RequestLog gets = proxy.requestLog().withMethod("GET");
          assertThat(gets.size()).as(sql).isGreaterThan(0);
          assertThat(proxy.requestLog().size()).as(sql).isEqualTo(gets.size());
          assertThat(gets.sequentialRounds()).as(sql + "\n" + gets).isEqualTo(1);
        }
      }
    } finally {
      fileWork.shutdownNow();
    }
  }
}
