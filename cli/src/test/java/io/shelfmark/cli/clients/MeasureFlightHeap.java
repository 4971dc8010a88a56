package io.shelfmark.cli.clients;

import io.shelfmark.cli.quickstart.Quickstart;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/**
 * A measurement, not a test (surefire's default includes skip it): the peak heap growth of a node
 * answering a 100,000-row selection ({@code query.max-rows}' default) over Flight SQL and over
 * HTTP, on the quickstart's 1,000,000-row table. Heap sampled every 2 ms after a GC, so the peak
 * counts garbage not yet collected as well as live objects. Run with {@code ./mvnw -q -pl cli -am
 * test -Dtest=MeasureFlightHeap -Dsurefire.failIfNoSpecifiedTests=false}; figures in
 * docs/performance.md.
 */
class MeasureFlightHeap {
  @Test
  void measure() throws Exception {
    Path dir = Files.createTempDirectory("flight-heap");
    try (Quickstart node =
        Quickstart.start(
            new Quickstart.Options(1_000_000, 42, dir, 0, true),
            new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8))) {
      String sql = "SELECT * FROM obs.metrics LIMIT 100000";
      try (RootAllocator allocator = new RootAllocator();
          FlightSqlClient client =
              new FlightSqlClient(
                  FlightClient.builder(
                          allocator,
                          Location.forGrpcInsecure("127.0.0.1", node.node().flightPort()))
                      .build())) {
        for (int round = 0; round < 3; round++) {
          long[] rows = new long[1];
          long flight =
              peak(
                  () -> {
                    FlightInfo info = client.execute(sql);
                    try (FlightStream stream =
                        client.getStream(info.getEndpoints().get(0).getTicket())) {
                      while (stream.next()) {
                        rows[0] += stream.getRoot().getRowCount();
                      }
                    }
                  });
          long http =
              peak(
                  () -> {
                    HttpClient.newHttpClient()
                        .send(
                            HttpRequest.newBuilder(URI.create(node.url() + "/query/sql"))
                                .header("Content-Type", "application/json")
                                .POST(
                                    HttpRequest.BodyPublishers.ofString(
                                        "{\"sql\": \"" + sql + "\"}"))
                                .build(),
                            HttpResponse.BodyHandlers.discarding());
                  });
          System.out.printf(
              "MEASURE round %d: %d rows; peak heap growth flight %.1f MiB, http %.1f MiB (client in the same JVM)%n",
              round, rows[0], flight / 1048576.0, http / 1048576.0);
        }
      }
    }
  }

  interface Work {
    void run() throws Exception;
  }

  private static long peak(Work work) throws Exception {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    System.gc();
    Thread.sleep(200);
    long base = memory.getHeapMemoryUsage().getUsed();
    AtomicLong max = new AtomicLong(base);
    AtomicBoolean done = new AtomicBoolean();
    Thread sampler =
        Thread.ofPlatform()
            .start(
                () -> {
                  while (!done.get()) {
                    max.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                    try {
                      Thread.sleep(2);
                    } catch (InterruptedException e) {
                      return;
                    }
                  }
                });
    try {
      work.run();
    } finally {
      done.set(true);
      sampler.join();
    }
    return max.get() - base;
  }
}
