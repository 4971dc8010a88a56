package io.shelfmark.cli.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.controller.table.ServedTable;
import io.shelfmark.exchange.fragment.QueryLimits;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.QueryResult;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Selections streamed over Arrow Flight SQL as the engine reads them, on a node over a
 * 10,000,000-row table (ten Parquet files DuckDB wrote, 1,000,000 rows each in row groups of
 * 100,000): the whole table arrives through {@code FlightSqlClient} with the node's heap growing by
 * less than 64 MiB, far beyond {@code query.max-rows} (which still refuses the same query over
 * HTTP); a stopped reader past the deadline and a row that fails mid-stream both end in a gRPC
 * status, never in a short result that looks whole; OFFSET and LIMIT across a file boundary answer
 * as HTTP and DuckDB.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestFlightSqlStreaming {
  private static final int FILES = 10;
  private static final long ROWS_PER_FILE = 1_000_000;
  private static final long ROWS = FILES * ROWS_PER_FILE;
  private static final long HEAP_BOUND = 64L << 20;
  private static final String TABLE = "big.events";
  private static final String TYPED = "big.typed";

  @TempDir static Path directory;
  private LocalLake lake;
  private AllInOne node;
  private DuckDbOracle duckDb;
  private BufferAllocator allocator;
  private FlightSqlClient client;

  @BeforeAll
  void start() throws Exception {
    lake = LocalLake.start(directory.resolve("lake"), 0);
    duckDb = DuckDbOracle.open();
    if (lake.catalog() instanceof SupportsNamespaces namespaces) {
      namespaces.createNamespace(Namespace.of("big"));
    }
    Schema schema =
        new Schema(
            Types.NestedField.optional(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "label", Types.StringType.get()));
    Table table =
        lake.catalog()
            .createTable(
                TableIdentifier.of("big", "events"),
                schema,
                PartitionSpec.unpartitioned(),
                Map.of(
                    "format-version",
                    "2",
                    TableProperties.DEFAULT_NAME_MAPPING,
                    NameMappingParser.toJson(MappingUtil.create(schema))));
    List<Path> files = new ArrayList<>();
    var append = table.newAppend();
    for (int part = 0; part < FILES; part++) {
      String key = "warehouse/big/events/data/duckdb-" + part + ".parquet";
      Path local = lake.s3().baseDirectory().resolve(LocalLake.BUCKET).resolve(key);
      Files.createDirectories(local.getParent());
      long first = part * ROWS_PER_FILE;
      duckDb.execute(
          "COPY (SELECT (r + %d)::BIGINT AS id, 'row-' || (r + %d)::VARCHAR AS label FROM range(0, %d) t(r)) TO '%s' (FORMAT parquet, ROW_GROUP_SIZE 100000)"
              .formatted(first, first, ROWS_PER_FILE, local));
      files.add(local);
      append.appendFile(
          DataFiles.builder(PartitionSpec.unpartitioned())
              .withPath("s3://" + LocalLake.BUCKET + "/" + key)
              .withFormat(FileFormat.PARQUET)
              .withFileSizeInBytes(Files.size(local))
              .withRecordCount(ROWS_PER_FILE)
              .build());
    }
    append.commit();
    duckDb.registerTable(TABLE, files);
    typedTable();
    node = TestingNodes.start(lake, TestingNodes.config(lake, directory.resolve("node")).build());
    node.registry()
        .onboard(
            TableConfig.builder(new TableIdentity(LocalLake.CATALOG_NAME, "big", "events"))
                .column("id", ColumnConfig.of(IndexKind.RANGE))
                .build());
    node.registry()
        .onboard(
            TableConfig.builder(new TableIdentity(LocalLake.CATALOG_NAME, "big", "typed"))
                .column("grp", ColumnConfig.of(IndexKind.INVERTED))
                .build());
    await()
        .atMost(Duration.ofMinutes(5))
        .until(
            () ->
                node.registry().table(TABLE).orElseThrow().segmentsPending() == 0
                    && node.registry().table(TYPED).orElseThrow().segmentsPending() == 0);
    ServedTable served = node.registry().table(TABLE).orElseThrow();
    assertThat(served.segmentsFailed()).as(served.failures().toString()).isZero();
    allocator = new RootAllocator();
    client =
        new FlightSqlClient(
            FlightClient.builder(
                    allocator, Location.forGrpcInsecure("127.0.0.1", node.flightPort()))
                .build());
  }

  @AfterAll
  void stop() throws Exception {
    for (AutoCloseable resource : new AutoCloseable[] {client, allocator, node, duckDb, lake}) {
      if (resource != null) {
        resource.close();
      }
    }
  }

  /** 1,000 rows of each type a JDBC program binds: BIGINT, INT, DOUBLE, TIMESTAMP, VARCHAR. */
  private void typedTable() throws Exception {
    Schema schema =
        new Schema(
            Types.NestedField.optional(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "grp", Types.IntegerType.get()),
            Types.NestedField.optional(3, "amount", Types.DoubleType.get()),
            Types.NestedField.optional(4, "ts", Types.TimestampType.withoutZone()),
            Types.NestedField.optional(5, "label", Types.StringType.get()));
    Table table =
        lake.catalog()
            .createTable(
                TableIdentifier.of("big", "typed"),
                schema,
                PartitionSpec.unpartitioned(),
                Map.of(
                    "format-version",
                    "2",
                    TableProperties.DEFAULT_NAME_MAPPING,
                    NameMappingParser.toJson(MappingUtil.create(schema))));
    String key = "warehouse/big/typed/data/duckdb-0.parquet";
    Path local = lake.s3().baseDirectory().resolve(LocalLake.BUCKET).resolve(key);
    Files.createDirectories(local.getParent());
    duckDb.execute(
        "COPY (SELECT r::BIGINT AS id, (r % 7)::INTEGER AS grp, (r * 0.5)::DOUBLE AS amount,"
            + " TIMESTAMP '2025-01-01 00:00:00' + to_seconds(r) AS ts,"
            + " 'row-' || r::VARCHAR AS label FROM range(0, 1000) t(r)) TO '"
            + local
            + "' (FORMAT parquet)");
    table
        .newAppend()
        .appendFile(
            DataFiles.builder(PartitionSpec.unpartitioned())
                .withPath("s3://" + LocalLake.BUCKET + "/" + key)
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(Files.size(local))
                .withRecordCount(1000)
                .build())
        .commit();
    duckDb.registerTable(TYPED, List.of(local));
  }

  @Test
  void jdbcBindsTypedParametersThroughDriverManager() throws Exception {
    String sql =
        "SELECT COUNT(*) FROM big.typed WHERE grp = ? AND id >= ? AND amount < ? AND ts >= ?"
            + " AND label <> ?";
    QueryResult expected =
        duckDb.query(
            "SELECT COUNT(*) FROM big.typed WHERE grp = 3 AND id >= 100 AND amount < 400.25"
                + " AND ts >= TIMESTAMP '2025-01-01 00:05:00' AND label <> 'row-500'");
    try (Connection connection =
            DriverManager.getConnection(
                "jdbc:arrow-flight-sql://127.0.0.1:"
                    + node.flightPort()
                    + "/?useEncryption=false");
        PreparedStatement statement = connection.prepareStatement(sql)) {
      ParameterMetaData parameters = statement.getParameterMetaData();
      assertThat(
              List.of(
                  parameters.getParameterType(1),
                  parameters.getParameterType(2),
                  parameters.getParameterType(3),
                  parameters.getParameterType(4),
                  parameters.getParameterType(5)))
          .containsExactly(
              java.sql.Types.INTEGER,
              java.sql.Types.BIGINT,
              java.sql.Types.DOUBLE,
              java.sql.Types.TIMESTAMP,
              java.sql.Types.VARCHAR);
      statement.setInt(1, 3);
      statement.setLong(2, 100L);
      statement.setDouble(3, 400.25);
      statement.setTimestamp(4, Timestamp.from(Instant.parse("2025-01-01T00:05:00Z")));
      statement.setString(5, "row-500");
      try (ResultSet rows = statement.executeQuery()) {
        assertThat(rows.next()).isTrue();
        long count = rows.getLong(1);
        assertThat(count)
            .isEqualTo(((Number) expected.rows().get(0).get(0)).longValue())
            .isPositive();
      }
    }
  }

  @Test
  void tenMillionRowsStreamWithHeapGrowthUnder64MiB() throws Exception {
    QueryResult expected = duckDb.query("SELECT COUNT(*), SUM(id) FROM " + TABLE);
    long[] rows = new long[1];
    long[] sum = new long[1];
    long growth =
        liveHeapGrowth(
            () -> {
              FlightInfo info =
                  client.execute(
                      "SET timeoutMs=600000; SELECT id, label FROM " + TABLE + " LIMIT " + ROWS);
              try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
                while (stream.next()) {
                  BigIntVector ids = (BigIntVector) stream.getRoot().getVector("id");
                  VarCharVector labels = (VarCharVector) stream.getRoot().getVector("label");
                  int count = stream.getRoot().getRowCount();
                  for (int i = 0; i < count; i++) {
                    long id = ids.get(i);
                    sum[0] += id;
                    if (id % 999_983 == 0) {
                      assertThat(labels.getObject(i).toString()).isEqualTo("row-" + id);
                    }
                  }
                  rows[0] += count;
                }
              }
            });
    System.out.printf(
        "MEASURE TestFlightSqlStreaming: %d rows over Flight SQL, live heap growth %.1f MiB%n",
        rows[0], growth / 1048576.0);
    assertThat(rows[0])
        .isEqualTo(ROWS)
        .isEqualTo(((Number) expected.rows().get(0).get(0)).longValue());
    assertThat(sum[0]).isEqualTo(((Number) expected.rows().get(0).get(1)).longValue());
    assertThat(rows[0]).isGreaterThan(QueryLimits.DEFAULT_MAX_ROWS);
    assertThat(growth).as("live heap growth in bytes").isLessThan(HEAP_BOUND);
  }

  @Test
  void httpStillKeepsTheSelectionAndRefusesItPastMaxRows() {
    JsonNode response =
        new BrokerClient(node.url())
            .query(
                "SELECT id, label FROM " + TABLE + " LIMIT " + ROWS,
                Optional.of(Duration.ofSeconds(60)));
    assertThat(response.path("exceptions").toString())
        .contains("Cannot select more than " + QueryLimits.DEFAULT_MAX_ROWS + " rows")
        .contains(QueryLimits.MAX_ROWS_KEY);
  }

  @Test
  void offsetAndLimitAnswerAsHttpAndDuckDb() throws Exception {
    // Within query.max-rows (OFFSET + LIMIT), so that HTTP answers it too.
    String sql = "SELECT id, label FROM " + TABLE + " LIMIT 50000 OFFSET 40000";
    JsonNode http = new BrokerClient(node.url()).query(sql, Optional.of(Duration.ofSeconds(60)));
    assertThat(http.path("exceptions")).isEmpty();
    List<Long> overHttp = new ArrayList<>();
    for (JsonNode row : http.path("resultTable").path("rows")) {
      overHttp.add(row.get(0).asLong());
    }
    assertThat(flightIds(sql))
        .hasSize(50_000)
        .isEqualTo(overHttp)
        .isEqualTo(duckDbIds(40_000, 90_000));
  }

  @Test
  void offsetAndLimitAcrossAFileBoundaryAnswerAsDuckDb() throws Exception {
    // Past query.max-rows, which a streamed selection does not keep: only Flight SQL answers it.
    String sql = "SELECT id, label FROM " + TABLE + " LIMIT 20000 OFFSET 1990000";
    assertThat(flightIds(sql)).hasSize(20_000).isEqualTo(duckDbIds(1_990_000, 2_010_000));
  }

  private List<Long> flightIds(String sql) throws Exception {
    List<Long> ids = new ArrayList<>();
    FlightInfo info = client.execute(sql);
    try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
      while (stream.next()) {
        BigIntVector vector = (BigIntVector) stream.getRoot().getVector("id");
        for (int i = 0; i < stream.getRoot().getRowCount(); i++) {
          ids.add(vector.get(i));
        }
      }
    }
    return ids;
  }

  /**
   * The ids a LIMIT without ORDER BY keeps between {@code from} and {@code to}: file order is id
   * order here (files in the order they were appended, rows in file order).
   */
  private List<Long> duckDbIds(long from, long to) {
    QueryResult expected =
        duckDb.query(
            "SELECT id FROM %s WHERE id >= %d AND id < %d ORDER BY id".formatted(TABLE, from, to));
    return expected.rows().stream().map(row -> ((Number) row.get(0)).longValue()).toList();
  }

  @Test
  void aRowFailingMidStreamEndsTheStreamWithItsStatus() throws Exception {
    // id + this overflows a BIGINT from id 5,000,001 on: the sixth file fails, the first five left.
    long rows = 0;
    FlightInfo info =
        client.execute(
            "SET timeoutMs=600000; SELECT id + 9223372036849775807 AS near_max FROM "
                + TABLE
                + " LIMIT "
                + ROWS);
    FlightRuntimeException failure = null;
    try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
      while (stream.next()) {
        rows += stream.getRoot().getRowCount();
      }
    } catch (FlightRuntimeException e) {
      failure = e;
    }
    assertThat(failure).as("the stream must end with an error, not look whole").isNotNull();
    assertThat(failure.status().code()).isEqualTo(CallStatus.INVALID_ARGUMENT.code());
    assertThat(failure.getMessage()).contains("overflows");
    assertThat(rows).isGreaterThan(0).isLessThanOrEqualTo(5_000_001);
  }

  @Test
  void aStoppedReaderPastTheDeadlineEndsWithTimedOut() throws Exception {
    FlightInfo info =
        client.execute("SET timeoutMs=3000; SELECT id, label FROM " + TABLE + " LIMIT " + ROWS);
    long rows = 0;
    try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
      assertThat(stream.next()).isTrue();
      rows += stream.getRoot().getRowCount();
      // The reader stops: the server's wait for it ends at the deadline, which the node counts.
      await().atMost(Duration.ofSeconds(60)).until(() -> timedOutQueries() > 0);
      FlightRuntimeException failure = null;
      try {
        while (stream.next()) {
          rows += stream.getRoot().getRowCount();
        }
      } catch (FlightRuntimeException e) {
        failure = e;
      }
      assertThat(failure).as("the stream must end with an error, not look whole").isNotNull();
      assertThat(failure.status().code()).isEqualTo(CallStatus.TIMED_OUT.code());
      assertThat(failure.getMessage()).contains("deadline");
    }
    // What gRPC's flow control let through before production stalled, not the table.
    assertThat(rows).isLessThan(ROWS / 10);
  }

  /** Queries the node's metrics count as timed out (its Prometheus endpoint). */
  private long timedOutQueries() throws Exception {
    String metrics =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(node.url() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    return metrics
        .lines()
        .filter(line -> line.startsWith("shelfmark_queries_total{"))
        .filter(line -> line.contains("outcome=\"timeout\"") && line.contains("big.events"))
        .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
        .sum();
  }

  interface Work {
    void run() throws Exception;
  }

  /**
   * The largest growth of the heap's live objects over the heap before {@code work}, sampled after
   * a full collection every 250 ms while it runs: garbage a collection would free does not count,
   * rows kept do.
   */
  private static long liveHeapGrowth(Work work) throws Exception {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    System.gc();
    long base = memory.getHeapMemoryUsage().getUsed();
    AtomicLong max = new AtomicLong();
    AtomicBoolean done = new AtomicBoolean();
    Thread sampler =
        Thread.ofPlatform()
            .start(
                () -> {
                  while (!done.get()) {
                    System.gc();
                    max.accumulateAndGet(memory.getHeapMemoryUsage().getUsed() - base, Math::max);
                    try {
                      Thread.sleep(250);
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
    return max.get();
  }
}
