package io.shelfmark.testing.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.OracleException;
import io.shelfmark.testing.oracle.QueryResult;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Generated queries against a small Parquet file that DuckDB itself writes. */
class TestRandomQueryGenerator {
  private static final long SEED = 20250803;

  private static final TableDescription TABLE =
      new TableDescription(
          "obs.metrics",
          List.of(
              Column.of("id", ColumnKind.LONG),
              Column.of("org_id", ColumnKind.LONG),
              Column.of("resolution", ColumnKind.INT),
              Column.of("sum_rollup", ColumnKind.DOUBLE),
              Column.of("metric", ColumnKind.STRING),
              Column.of("healthy", ColumnKind.BOOLEAN),
              Column.of("day", ColumnKind.DATE),
              Column.of("event_time", ColumnKind.TIMESTAMP),
              Column.epochMillis("logical_timestamp"),
              Column.map("dimensions", List.of("service", "region", "node"))));

  @TempDir static Path directory;

  private static DuckDbOracle oracle;
  private static ValueDomain domain;

  @BeforeAll
  static void writeTable() {
    oracle = DuckDbOracle.open();
    Path file = directory.resolve("metrics.parquet");
    // 600 rows; resolution, sum_rollup and metric have nulls; a quarter of the rows lack the
    // region key.
    oracle.execute(
        "COPY (SELECT i::BIGINT AS id,"
            + " (184833768 + i % 5)::BIGINT AS org_id,"
            + " CASE WHEN i % 11 = 0 THEN NULL ELSE [15000, 60000, 300000][1 + i % 3] END::INTEGER"
            + " AS resolution,"
            + " CASE WHEN i % 17 = 0 THEN NULL ELSE (i % 50) * 0.25 - 3 END::DOUBLE AS sum_rollup,"
            + " CASE WHEN i % 13 = 0 THEN NULL ELSE 'metric_' || (i % 23) END AS metric,"
            + " i % 3 = 0 AS healthy,"
            + " DATE '2025-08-02' + (i % 4)::INTEGER AS day,"
            + " TIMESTAMP '2025-08-02 00:00:00' + INTERVAL (i * 397) SECOND AS event_time,"
            + " 1754092800000 + i * 432123 AS logical_timestamp,"
            + " CASE WHEN i % 4 = 0"
            + "   THEN MAP {'service': 'svc' || (i % 7), 'node': 'node-' || (i % 97)}"
            + "   ELSE MAP {'service': 'svc' || (i % 7), 'region': 'r' || (i % 3),"
            + "             'node': 'node-' || (i % 97)} END AS dimensions"
            + " FROM range(600) t(i)) TO '"
            + file
            + "' (FORMAT parquet)");
    oracle.registerTable(TABLE.name(), List.of(file));
    domain = ValueDomain.sample(oracle, TABLE, 20);
  }

  @AfterAll
  static void close() {
    oracle.close();
  }

  @Test
  void twoHundredQueriesRunOnDuckDb() {
    RandomQueryGenerator generator = new RandomQueryGenerator(TABLE, domain, SEED);
    List<String> failures = new ArrayList<>();
    int nonEmpty = 0;
    for (GeneratedQuery query : generator.next(200)) {
      try {
        QueryResult result = oracle.query(query.duckDbSql());
        if (result.rowCount() > 0 && !allNullOrZero(result)) {
          nonEmpty++;
        }
      } catch (OracleException e) {
        failures.add(query + "\n    " + e.getMessage());
      }
    }
    assertThat(failures).isEmpty();
    // Literals come from the data, so most queries select something.
    assertThat(nonEmpty).isGreaterThan(120);
  }

  @Test
  void thousandQueriesCoverEveryConstruct() {
    RandomQueryGenerator generator = new RandomQueryGenerator(TABLE, domain, SEED);
    Set<Construct> covered = EnumSet.noneOf(Construct.class);
    for (GeneratedQuery query : generator.next(1000)) {
      covered.addAll(query.constructs());
    }
    assertThat(covered).containsExactlyInAnyOrder(Construct.values());
  }

  @Test
  void limitOnlyWithATotalOrder() {
    RandomQueryGenerator generator = new RandomQueryGenerator(TABLE, domain, SEED + 1);
    for (GeneratedQuery query : generator.next(1000)) {
      if (query.constructs().contains(Construct.LIMIT)) {
        assertThat(query.ordered()).as(query.toString()).isTrue();
        assertThat(query.duckDbSql()).contains(" ORDER BY ");
      }
      if (query.constructs().contains(Construct.OFFSET)) {
        assertThat(query.constructs()).contains(Construct.LIMIT);
      }
      if (query.constructs().contains(Construct.PLAIN_SELECT)) {
        assertThat(query.constructs()).contains(Construct.LIMIT);
      }
    }
  }

  @Test
  void dialectsDifferOnlyWhereTheyMust() {
    RandomQueryGenerator generator = new RandomQueryGenerator(TABLE, domain, SEED + 2);
    int translated = 0;
    int approximate = 0;
    for (GeneratedQuery query : generator.next(500)) {
      boolean millisTrunc = query.shelfmarkSql().contains("dateTrunc(");
      if (query.approximate()) {
        approximate++;
        assertThat(query.shelfmarkSql()).contains("DISTINCTCOUNTHLL(");
        assertThat(query.duckDbSql()).doesNotContain("DISTINCTCOUNTHLL").contains("COUNT(DISTINCT");
        assertThat(query.approximateColumns()).containsValue(RandomQueryGenerator.HLL_TOLERANCE);
        assertThat(query.duckDbSql()).doesNotContain("HAVING DISTINCT");
      }
      if (millisTrunc) {
        translated++;
        assertThat(query.duckDbSql())
            .doesNotContain("dateTrunc(")
            .contains("epoch_ms(date_trunc('");
      }
      // Dashboard time buckets: DuckDB has no BIGINT-to-TIMESTAMP cast, DATETIMECONVERT or
      // Pinot's ROUND of times, so it gets integer division and make_timestamp instead.
      boolean dashboardBucket =
          query.shelfmarkSql().contains("DATETIMECONVERT(")
              || query.shelfmarkSql().contains("CAST(ROUND(")
              || query.duckDbSql().contains("make_timestamp(")
              || query.constructs().contains(Construct.DATE_TIME_TEXT)
              || query.constructs().contains(Construct.EPOCH_FUNCTION);
      if (dashboardBucket) {
        assertThat(query.constructs())
            .containsAnyOf(
                Construct.DATE_TIME_TEXT,
                Construct.EPOCH_FUNCTION,
                Construct.GROUP_BY_DATETIMECONVERT,
                Construct.GROUP_BY_SUPERSET_ROUND_GRAIN,
                Construct.GROUP_BY_SUPERSET_TIME_GRAIN,
                Construct.GROUP_BY_DATE_TRUNC);
      }
      if (!millisTrunc && !dashboardBucket && !query.approximate()) {
        assertThat(query.shelfmarkSql()).isEqualTo(query.duckDbSql());
      }
    }
    assertThat(translated).isPositive();
    assertThat(approximate).isPositive();
  }

  @Test
  void duckDbFormOfDateTruncMatchesPinotSemantics() {
    // Pinot: dateTrunc('minute', 1754229661234) = 1754229660000 (epoch millis in, millis out).
    QueryResult result =
        oracle.query(
            "SELECT epoch_ms(date_trunc('minute', make_timestamp(1754229661234 * 1000))),"
                + " epoch_ms(date_trunc('day', make_timestamp(1754229661234 * 1000)))");
    assertThat(result.rows()).containsExactly(List.of(1754229660000L, 1754179200000L));
  }

  @Test
  void sameSeedSameQueries() {
    List<GeneratedQuery> first = new RandomQueryGenerator(TABLE, domain, 7).next(50);
    List<GeneratedQuery> again = new RandomQueryGenerator(TABLE, domain, 7).next(50);
    List<GeneratedQuery> other = new RandomQueryGenerator(TABLE, domain, 8).next(50);
    assertThat(again).isEqualTo(first);
    assertThat(other).isNotEqualTo(first);
  }

  @Test
  void sampledDomainHoldsRealValuesAndKnowsNulls() {
    assertThat(domain.values("org_id"))
        .containsExactly(184833768L, 184833769L, 184833770L, 184833771L, 184833772L);
    assertThat(domain.values("day"))
        .containsExactly(
            LocalDate.of(2025, 8, 2),
            LocalDate.of(2025, 8, 3),
            LocalDate.of(2025, 8, 4),
            LocalDate.of(2025, 8, 5));
    assertThat(domain.values("dimensions['region']")).containsExactly("r0", "r1", "r2");
    assertThat(domain.values("id")).hasSize(20).isSorted();
    assertThat(domain.hasNulls("resolution")).isTrue();
    assertThat(domain.hasNulls("dimensions['region']")).isTrue();
    assertThat(domain.hasNulls("dimensions['service']")).isFalse();
    assertThat(domain.hasNulls("id")).isFalse();
  }

  @Test
  void descriptionsRefuseWhatCannotBeQueried() {
    assertThatThrownBy(() -> Column.map("dims", List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot describe map column dims: no keys (give the keys queries may use)");
    assertThatThrownBy(() -> new Column("ts", ColumnKind.INT, List.of(), true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot describe column ts: epoch millis must be LONG, not INT");
    assertThatThrownBy(
            () ->
                new TableDescription(
                    "t", List.of(Column.of("a", ColumnKind.LONG), Column.of("a", ColumnKind.INT))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot describe table t: column a appears twice");
    assertThatThrownBy(() -> TABLE.column("nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot find column nope in table obs.metrics (columns: [id,");
    assertThatThrownBy(() -> ValueDomain.builder().values("a", List.of(1L, "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot order values x and 1 of one term: types String and Long differ");
  }

  @Test
  void literalsReadTheSameInBothDialects() {
    assertThat(QuerySql.literal("it's")).isEqualTo("'it''s'");
    assertThat(QuerySql.literal(0.1)).isEqualTo("0.1");
    assertThat(QuerySql.literal(-3.0)).isEqualTo("-3.0");
    assertThat(QuerySql.literal(LocalDate.of(2025, 8, 2))).isEqualTo("DATE '2025-08-02'");
    assertThat(QuerySql.identifier("day")).isEqualTo("\"day\"");
    assertThat(QuerySql.identifier("org_id")).isEqualTo("org_id");
    assertThat(QuerySql.mapAccess("dimensions", "service")).isEqualTo("dimensions['service']");
    QueryResult result =
        oracle.query(
            "SELECT "
                + QuerySql.literal(1e-40)
                + " = 1e-40, "
                + QuerySql.literal(java.time.LocalDateTime.of(2025, 8, 2, 10, 0, 1, 500_000_000))
                + " = TIMESTAMP '2025-08-02 10:00:01.5'");
    assertThat(result.rows()).containsExactly(List.of(true, true));
  }

  private static boolean allNullOrZero(QueryResult result) {
    for (List<Object> row : result.rows()) {
      for (Object value : row) {
        if (value != null && !Long.valueOf(0).equals(value)) {
          return false;
        }
      }
    }
    return true;
  }
}
