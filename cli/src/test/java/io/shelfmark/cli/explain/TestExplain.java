package io.shelfmark.cli.explain;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.client.ResultTablePrinter;
import io.shelfmark.cli.quickstart.Quickstart;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.query.Column;
import io.shelfmark.testing.query.ColumnKind;
import io.shelfmark.testing.query.GeneratedQuery;
import io.shelfmark.testing.query.RandomQueryGenerator;
import io.shelfmark.testing.query.TableDescription;
import io.shelfmark.testing.query.ValueDomain;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * EXPLAIN and EXPLAIN ANALYZE through real HTTP on the quickstart's all-in-one node: what EXPLAIN
 * plans (pruning, the index per term, the columns, the pages and their bytes) is what ANALYZE then
 * does, and ANALYZE's counts equal the response's statistics and a plain run's, for Q1–Q4 and
 * random queries (seed logged, {@code -Dshelfmark.test.seed}).
 */
class TestExplain {
  private static final Logger log = LoggerFactory.getLogger(TestExplain.class);
  private static final long SEED = Long.getLong("shelfmark.test.seed", System.nanoTime());
  private static final int RANDOM_QUERIES = Integer.getInteger("shelfmark.test.queries", 60);

  private static Path directory;
  private static Quickstart quickstart;
  private static BrokerClient broker;

  @BeforeAll
  static void start() throws Exception {
    directory = Files.createTempDirectory("shelfmark-explain-test");
    quickstart =
        Quickstart.start(
            new Quickstart.Options(20_000, 7, directory, 0, true)
                .withTableConfig(io.shelfmark.cli.quickstart.DenseStarTreeConfig.load()),
            new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
    broker = new BrokerClient(quickstart.url());
  }

  @AfterAll
  static void stop() throws Exception {
    if (quickstart != null) {
      quickstart.close();
    }
  }

  @Test
  void benchmarkQueriesPlanWhatTheyRun() {
    for (Map.Entry<String, String> query : Quickstart.BENCHMARK_QUERIES.entrySet()) {
      assertThat(checkAgreement(query.getKey(), query.getValue())).as(query.getKey()).isTrue();
    }
  }

  @Test
  void randomQueriesPlanWhatTheyRun() throws Exception {
    TableDescription table =
        new TableDescription(
            "obs.metrics",
            List.of(
                Column.of("org_id", ColumnKind.LONG),
                Column.of("metric", ColumnKind.STRING),
                Column.of("resolution", ColumnKind.INT),
                Column.epochMillis("logical_timestamp"),
                Column.of("sum_rollup", ColumnKind.DOUBLE),
                Column.of("latest_rollup", ColumnKind.DOUBLE),
                Column.map("dimensions", List.of("service", "region", "node"))));
    log.info("Random EXPLAIN queries: seed {} (-Dshelfmark.test.seed={})", SEED, SEED);
    try (DuckDbOracle duckDb = DuckDbOracle.open()) {
      List<Path> files = new ArrayList<>();
      for (DataFileInfo file : quickstart.table().snapshot().dataFiles()) {
        files.add(quickstart.lakeDirectory().resolve(file.path().substring("s3://".length())));
      }
      duckDb.registerTable("obs.metrics", files);
      RandomQueryGenerator generator =
          new RandomQueryGenerator(table, ValueDomain.sample(duckDb, table, 12), SEED);
      int answered = 0;
      for (int q = 0; q < RANDOM_QUERIES; q++) {
        GeneratedQuery query = generator.next();
        answered += checkAgreement("seed " + SEED + " #" + q, query.shelfmarkSql()) ? 1 : 0;
      }
      // The generator's queries are answerable; a few may hit a limit (and are compared refused).
      assertThat(answered)
          .as("seed %s: queries answered", SEED)
          .isGreaterThan(RANDOM_QUERIES * 9 / 10);
    }
  }

  /** Each term's index as the table config gives them; an arithmetic term is checked on values. */
  @Test
  void namesTheIndexOfEachTerm() {
    JsonNode analyzed =
        query(
            "EXPLAIN ANALYZE SELECT COUNT(*) FROM obs.metrics WHERE metric = 'tk_cache'"
                + " AND sum_rollup * 2 > 1");
    JsonNode group = null;
    for (JsonNode candidate : analyzed.path("explain").path("fileGroups")) {
      if (candidate.path("answer").asText().equals("PARQUET_PAGES")) {
        group = candidate;
      }
    }
    assertThat(group).as(analyzed.toString()).isNotNull();
    assertThat(group.path("segment").asBoolean()).isTrue();
    assertThat(group.path("filter")).hasSize(2);
    JsonNode metric = group.path("filter").path(0);
    assertThat(metric.path("term").asText()).isEqualTo("(metric = 'tk_cache')");
    assertThat(metric.path("indexes").toString()).contains("[metric]");
    assertThat(metric.path("check").asText()).isEqualTo("NONE");
    JsonNode arithmetic = group.path("filter").path(1);
    assertThat(arithmetic.path("indexes")).isEmpty();
    assertThat(arithmetic.path("check").asText()).isEqualTo("ROWS");
    assertThat(group.path("columnsRead").toString()).contains("sum_rollup");
    assertThat(group.path("pages").path("planned").asLong()).isPositive();
    assertThat(group.path("read").path("pages").asLong()).isPositive();
    // The read's two parts, apart: pages were decoded, so decoding took time.
    assertThat(group.path("timeMicros").path("fetch").isNumber()).as(group.toString()).isTrue();
    assertThat(group.path("timeMicros").path("fetch").asLong()).isNotNegative();
    assertThat(group.path("timeMicros").path("decode").asLong()).isPositive();
    assertThat(analyzed.path("explain").path("timeMicros").path("decode").asLong()).isPositive();
    assertThat(text(analyzed)).contains("(fetch ").contains(", decode ").contains("(memory ");
    // The whole-chunk choice and its figures (the cost model's, at the default 1 MiB a request).
    JsonNode chunks = group.path("chunkReads");
    assertThat(chunks.isObject()).as(group.toString()).isTrue();
    assertThat(chunks.path("mode").asText()).isEqualTo("COST");
    assertThat(chunks.path("requestCost").asLong()).isEqualTo(1 << 20);
    assertThat(chunks.path("chunksReadWhole").asLong())
        .isBetween(0L, chunks.path("chunks").asLong());
    assertThat(chunks.path("pagesCost").asLong())
        .isEqualTo(
            chunks.path("pageRequests").asLong() * (1 << 20) + chunks.path("pageBytes").asLong());
    JsonNode forced =
        query(
            "EXPLAIN ANALYZE SELECT COUNT(*) FROM obs.metrics WHERE metric = 'tk_cache'"
                + " AND sum_rollup * 2 > 1 OPTION(chunkReads=pages)");
    for (JsonNode candidate : forced.path("explain").path("fileGroups")) {
      if (candidate.path("answer").asText().equals("PARQUET_PAGES")) {
        assertThat(candidate.path("chunkReads").path("mode").asText()).isEqualTo("PAGES");
        assertThat(candidate.path("chunkReads").path("chunksReadWhole").asLong()).isZero();
      }
    }
    JsonNode planned =
        query(
            "EXPLAIN SELECT COUNT(*) FROM obs.metrics WHERE metric = 'tk_cache'"
                + " AND sum_rollup * 2 > 1");
    for (JsonNode candidate : planned.path("explain").path("fileGroups")) {
      assertThat(candidate.path("chunkReads").isObject()).as("EXPLAIN runs no read").isFalse();
    }
    String q4 = Quickstart.BENCHMARK_QUERIES.get("Q4");
    for (String sql : List.of("EXPLAIN ANALYZE " + q4, "EXPLAIN " + q4)) {
      StringBuilder text = new StringBuilder(sql).append('\n');
      query(sql)
          .path("resultTable")
          .path("rows")
          .forEach(row -> text.append(row.path(0).asText()).append('\n'));
      log.info("{}", text);
    }
  }

  @Test
  void badExplainsAreRefusedWithTheirPosition() {
    JsonNode twice =
        broker.query("EXPLAIN EXPLAIN SELECT COUNT(*) FROM obs.metrics", Optional.empty());
    assertThat(twice.path("exceptions").path(0).path("errorCode").asInt()).isEqualTo(150);
    assertThat(twice.path("exceptions").path(0).path("message").asText())
        .isEqualTo(
            "Cannot explain EXPLAIN at line 1, column 9: an EXPLAIN cannot be explained (write EXPLAIN once, before the query)");
    JsonNode insert = broker.query("EXPLAIN\nINSERT INTO obs.metrics VALUES (1)", Optional.empty());
    assertThat(insert.path("exceptions").path(0).path("message").asText())
        .isEqualTo(
            "Cannot explain INSERT at line 2, column 1: only a SELECT query can be explained (write EXPLAIN SELECT ...)");
    // The query's own errors point into the text as written, EXPLAIN included.
    JsonNode column =
        broker.query("EXPLAIN ANALYZE SELECT nope FROM obs.metrics", Optional.empty());
    assertThat(column.path("exceptions").path(0).path("message").asText())
        .contains("'nope'")
        .contains("line 1, column 24");
  }

  @Test
  void theCliPrintsTheTree() {
    JsonNode response = query("EXPLAIN SELECT COUNT(*) FROM obs.metrics WHERE resolution = 15000");
    StringWriter text = new StringWriter();
    assertThat(new ResultTablePrinter(10).print(response, new PrintWriter(text))).isTrue();
    assertThat(text.toString())
        .startsWith("EXPLAIN obs.metrics (snapshot ")
        .contains("├─ files: ")
        .contains("where (resolution = 15000): ")
        .doesNotContain("+---");
  }

  /**
   * A file the star-tree answers is explained as such, with trees on: the tree's dimensions and
   * records visited under EXPLAIN and ANALYZE alike, no page read by the tree, and the time edges
   * the tree cannot split (Q2 ends on a bucket's first millisecond) read from rows.
   */
  @Test
  void starTreeAnswersAreExplained() {
    String q2 = Quickstart.BENCHMARK_QUERIES.get("Q2");
    JsonNode plain = query(q2);
    assertThat(plain.path("numSegmentsStarTree").asInt()).isPositive();
    JsonNode analyzed = query("EXPLAIN ANALYZE " + q2);
    JsonNode tree = starTreeGroup(analyzed);
    assertThat(tree.path("starTree").path("dimensions").toString())
        .contains("metric")
        .contains("dateTrunc('second', logical_timestamp)");
    assertThat(tree.path("starTree").path("recordsVisited").asLong()).isPositive();
    assertThat(tree.path("filter").path(0).path("indexes").toString()).contains("star-tree");
    JsonNode edges = tree.path("starTree").path("edges");
    assertThat(edges).as(analyzed.toString()).isNotEmpty();
    assertThat(edges.path(0).path("filter").toString()).contains("BETWEEN");
    assertThat(analyzed.path("explain").path("totals").path("filesFromStarTree").asInt())
        .isEqualTo(analyzed.path("numSegmentsStarTree").asInt())
        .isEqualTo(plain.path("numSegmentsStarTree").asInt());
    assertThat(text(analyzed))
        .contains("star-tree (org_id, metric, resolution")
        .contains("records visited for")
        .contains("time edges the tree cannot split, from rows:");

    // Aligned to whole seconds: no edge, so nothing is read at all.
    String aligned =
        "SELECT SUM(sum_rollup), COUNT(*) FROM obs.metrics WHERE metric = 'tk_cache'"
            + " AND org_id = 184833768 AND resolution = 15000"
            + " AND logical_timestamp >= 1754226000000 AND logical_timestamp < 1754229600000";
    JsonNode whole = query("EXPLAIN ANALYZE " + aligned);
    JsonNode wholeTree = starTreeGroup(whole);
    assertThat(wholeTree.path("starTree").path("edges")).isEmpty();
    assertThat(wholeTree.path("read").path("pages").asLong()).isZero();
    assertThat(wholeTree.path("read").path("bytes").asLong()).isZero();
    assertThat(whole.path("storageBytesRead").asLong()).isZero();
    assertThat(whole.path("explain").path("totals").path("filesWithoutParquet").asInt())
        .isEqualTo(whole.path("numSegmentsIndexOnly").asInt())
        .isPositive();
    assertThat(checkAgreement("aligned", aligned)).isTrue();
    log.info("{}", text(analyzed));
  }

  private static JsonNode starTreeGroup(JsonNode response) {
    for (JsonNode group : response.path("explain").path("fileGroups")) {
      if (group.path("answer").asText().equals("STAR_TREE")) {
        return group;
      }
    }
    throw new AssertionError("No file answered from a star-tree: " + response);
  }

  private static String text(JsonNode response) {
    StringBuilder text = new StringBuilder();
    response
        .path("resultTable")
        .path("rows")
        .forEach(row -> text.append(row.path(0).asText()).append('\n'));
    return text.toString();
  }

  private static JsonNode query(String sql) {
    JsonNode response = broker.query(sql, Optional.empty());
    assertThat(response.path("exceptions")).as(sql).isEmpty();
    return response;
  }

  /**
   * EXPLAIN VERBOSE and EXPLAIN ANALYZE VERBOSE of {@code sql}, and {@code sql} itself: the same
   * pruning, the same files answered the same way with the same pages planned, and ANALYZE's totals
   * equal to the statistics of its own response and of the plain run.
   *
   * @return whether the query was answered (false: refused alike with and without ANALYZE)
   */
  private static boolean checkAgreement(String name, String sql) {
    // Under EXPLAIN profiles MIN/MAX are not taken from page statistics (the row path runs, as
    // docs/query-execution.md says): the plain run compared with ANALYZE runs without them too, or
    // a file answered from them counts index-only where ANALYZE shows its pages read (seed
    // 54881983331892, #56: SELECT MIN(latest_rollup)).
    JsonNode plain = broker.query("SET usePageStatistics = false; " + sql, Optional.empty());
    if (!plain.path("exceptions").isEmpty()) {
      // A query refused (a limit, an overflow) is refused the same way under ANALYZE.
      JsonNode analyzed = broker.query("EXPLAIN ANALYZE " + sql, Optional.empty());
      assertThat(analyzed.path("exceptions").path(0).path("errorCode"))
          .as(name)
          .isEqualTo(plain.path("exceptions").path(0).path("errorCode"));
      return false;
    }
    String as = name + ": " + sql;
    JsonNode planned = query("EXPLAIN VERBOSE " + sql);
    if (!planned.has("explain")) {
      // A SELECT without FROM: answered from the plan, nothing to explain but that.
      assertThat(planned.path("resultTable").path("rows").toString())
          .as(as)
          .contains("a SELECT without FROM is answered from the plan");
      return true;
    }
    JsonNode analyzed = query("EXPLAIN ANALYZE VERBOSE " + sql);
    JsonNode plan = planned.path("explain");
    JsonNode run = analyzed.path("explain");
    assertThat(planned.path("resultTable").path("dataSchema").path("columnNames").toString())
        .isEqualTo("[\"PLAN\"]");
    assertThat(planned.path("resultTable").path("rows").size()).as(as).isGreaterThan(3);
    assertThat(plan.path("mode").asText()).isEqualTo("PLAN");
    assertThat(run.path("mode").asText()).isEqualTo("ANALYZE");
    assertThat(run.path("pruning")).as(as).isEqualTo(plan.path("pruning"));

    JsonNode totals = run.path("totals");
    JsonNode pruning = run.path("pruning");
    for (JsonNode response : List.of(analyzed, plain)) {
      assertThat(pruning.path("afterStatistics").asLong())
          .as(as)
          .isEqualTo(response.path("numSegmentsQueried").asLong());
      assertThat(pruning.path("files").asLong() - pruning.path("afterStatistics").asLong())
          .as(as)
          .isEqualTo(response.path("numSegmentsPrunedByBroker").asLong());
      assertThat(totals.path("matchedRows").asLong())
          .as(as)
          .isEqualTo(response.path("numDocsScanned").asLong());
      assertThat(totals.path("filesRun").asLong())
          .as(as)
          .isEqualTo(response.path("numSegmentsProcessed").asLong());
      assertThat(totals.path("filesMatched").asLong())
          .as(as)
          .isEqualTo(response.path("numSegmentsMatched").asLong());
      assertThat(totals.path("filesWithoutParquet").asLong())
          .as(as)
          .isEqualTo(response.path("numSegmentsIndexOnly").asLong());
      assertThat(totals.path("filesFromStarTree").asLong())
          .as(as)
          .isEqualTo(response.path("numSegmentsStarTree").asLong());
    }
    long groupsMatched = 0;
    for (JsonNode group : run.path("fileGroups")) {
      groupsMatched += group.path("rows").path("matched").asLong();
    }
    assertThat(groupsMatched).as(as).isEqualTo(totals.path("matchedRows").asLong());
    long cacheRequests =
        run.path("cache").path("pageCacheHits").asLong()
            + run.path("cache").path("decompressedPages").asLong();
    assertThat(cacheRequests).as(as).isEqualTo(analyzed.path("cacheHits").asLong());
    assertThat(run.path("cache").path("storageBytes").asLong())
        .as(as)
        .isEqualTo(analyzed.path("storageBytesRead").asLong());
    // The page cache's hits, per tier: memory and disk add up to them.
    assertThat(
            run.path("cache").path("memoryHits").asLong()
                + run.path("cache").path("diskHits").asLong())
        .as(as)
        .isEqualTo(run.path("cache").path("pageCacheHits").asLong());

    // Every file ran (no LIMIT stopped early): EXPLAIN planned exactly what ANALYZE did.
    if (totals.path("filesRun").asLong() == plan.path("totals").path("files").asLong()) {
      assertSameGroups(as, plan.path("fileGroups"), run.path("fileGroups"));
    }
    return true;
  }

  /** The groups EXPLAIN planned are those ANALYZE ran, star-tree edges included. */
  private static void assertSameGroups(String as, JsonNode expectedGroups, JsonNode actualGroups) {
    assertThat(actualGroups.size()).as(as).isEqualTo(expectedGroups.size());
    for (int g = 0; g < expectedGroups.size(); g++) {
      JsonNode expected = expectedGroups.path(g);
      JsonNode actual = actualGroups.path(g);
      for (String field :
          List.of(
              "files",
              "segment",
              "answer",
              "filter",
              "columnsFromSegment",
              "columnsRead",
              "pages",
              "paths")) {
        assertThat(actual.path(field))
            .as(as + " group " + g + " " + field)
            .isEqualTo(expected.path(field));
      }
      for (String field : List.of("live", "definite", "candidates")) {
        assertThat(actual.path("rows").path(field))
            .as(as + " group " + g + " rows " + field)
            .isEqualTo(expected.path("rows").path(field));
      }
      JsonNode tree = expected.path("starTree");
      assertThat(actual.path("starTree").isObject()).as(as).isEqualTo(tree.isObject());
      if (tree.isObject()) {
        for (String field : List.of("dimensions", "recordsVisited", "rows")) {
          assertThat(actual.path("starTree").path(field))
              .as(as + " group " + g + " starTree " + field)
              .isEqualTo(tree.path(field));
        }
        assertSameGroups(
            as + " group " + g + " edges",
            tree.path("edges"),
            actual.path("starTree").path("edges"));
      }
    }
  }
}
