package io.shelfmark.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.generator.distribution.MetricsDistribution;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generates 1,000,000 rows and checks, with DuckDB reading the Parquet data files directly, that
 * the benchmark's four WHERE clauses select what BENCHMARK.md promises (within ±20% relative) and
 * that the columns have the documented distributions.
 */
class TestGeneratedSelectivity {
  private static final long ROWS = 1_000_000;
  private static final String HOUR_WINDOW =
      "logical_timestamp >= 1754229600000 - 3600000 AND logical_timestamp <= 1754229600000";
  private static final String Q2_WHERE =
      "metric = 'tk_cache' AND org_id = 184833768 AND resolution = 15000 AND " + HOUR_WINDOW;
  private static final String Q4_WHERE =
      "metric = 'tk_cache' AND org_id = 184833768 AND resolution = 15000"
          + " AND dimensions['node'] = 'xyz'"
          + " AND logical_timestamp >= 1754229600000 - 360000 AND logical_timestamp <= 1754229600000";

  @TempDir static Path directory;
  private static Connection duckdb;

  @BeforeAll
  static void generateAndOpen() throws IOException, SQLException {
    List<String> paths = new ArrayList<>();
    try (JdbcCatalog catalog = TestingCatalogs.sqlite(directory)) {
      TableIdentifier id = TableIdentifier.of("obs", "metrics");
      GenerateReport report =
          MetricsTableGenerator.generate(
              catalog,
              id,
              GeneratorOptions.builder().rows(ROWS).seed(42).parallelism(2).build(),
              ProgressListener.none());
      assertThat(report.rows()).isEqualTo(ROWS);
      for (DataFile file : TestMetricsTableGenerator.dataFiles(catalog.loadTable(id))) {
        paths.add("'" + Path.of(URI.create(file.location())) + "'");
      }
    }
    Properties properties = new Properties();
    // Offline: never try to download an extension (Parquet support is built in).
    properties.setProperty("autoinstall_known_extensions", "false");
    properties.setProperty("autoload_known_extensions", "false");
    duckdb = DriverManager.getConnection("jdbc:duckdb:", properties);
    try (Statement statement = duckdb.createStatement()) {
      statement.execute(
          "CREATE VIEW metrics AS SELECT * FROM read_parquet(["
              + String.join(", ", paths)
              + "], hive_partitioning = false)");
    }
  }

  @AfterAll
  static void close() throws SQLException {
    if (duckdb != null) {
      duckdb.close();
    }
  }

  @Test
  void tableHoldsExactlyTheRequestedRows() throws SQLException {
    assertThat(count("true")).isEqualTo(ROWS);
  }

  @Test
  void q1FilteredCountSelectsAboutFivePercent() throws SQLException {
    double share = count("resolution = 15000 AND " + HOUR_WINDOW) / (double) ROWS;
    assertThat(share).isBetween(0.05 * 0.8, 0.05 * 1.2);
    assertThat(count(HOUR_WINDOW) / (double) ROWS).isBetween(0.0829 * 0.95, 0.0829 * 1.05);
  }

  @Test
  void q2AndQ3SelectAboutHalfAPercent() throws SQLException {
    long q2 = count(Q2_WHERE);
    assertThat(q2 / (double) ROWS).isBetween(0.005 * 0.8, 0.005 * 1.2);
    // Q3 groups the same rows by second: every bucket is inside the hour, and they add up.
    try (ResultSet buckets =
        query(
            "SELECT count(*) AS buckets, sum(n) AS n, min(second), max(second) FROM ("
                + " SELECT logical_timestamp // 1000 AS second, count(*) AS n FROM metrics"
                + " WHERE "
                + Q2_WHERE
                + " GROUP BY 1)")) {
      assertThat(buckets.getLong(1)).isGreaterThan(1000);
      assertThat(buckets.getLong(2)).isEqualTo(q2);
      assertThat(buckets.getLong(3)).isGreaterThanOrEqualTo((1754229600000L - 3600000) / 1000);
      assertThat(buckets.getLong(4)).isLessThanOrEqualTo(1754229600000L / 1000);
    }
  }

  @Test
  void q4MatchesThirtyNeedleRowsAcrossSeveralServices() throws SQLException {
    assertThat(count(Q4_WHERE)).isEqualTo(30);
    assertThat(count("dimensions['node'] = 'xyz'")).isEqualTo(40);
    try (ResultSet services =
        query("SELECT count(DISTINCT dimensions['service']) FROM metrics WHERE " + Q4_WHERE)) {
      assertThat(services.getLong(1)).isGreaterThanOrEqualTo(5);
    }
  }

  @Test
  void orgsFollowTheDocumentedShares() throws SQLException {
    assertThat(count("org_id = 184833768") / (double) ROWS).isBetween(0.2499, 0.2501);
    try (ResultSet orgs =
        query(
            "SELECT count(DISTINCT org_id), min(org_id), max(org_id),"
                + " min(logical_timestamp), max(logical_timestamp) FROM metrics")) {
      assertThat(orgs.getLong(1)).isEqualTo(50);
      assertThat(orgs.getLong(2)).isGreaterThanOrEqualTo(100_000_000L);
      assertThat(orgs.getLong(3)).isLessThanOrEqualTo(999_999_999L);
      assertThat(orgs.getLong(4)).isGreaterThanOrEqualTo(MetricsDistribution.START_MILLIS);
      assertThat(orgs.getLong(5)).isLessThan(MetricsDistribution.dayStartMillis(3));
    }
  }

  @Test
  void columnsFollowTheDocumentedDistributions() throws SQLException {
    assertThat(count("resolution = 15000") / (double) ROWS).isBetween(0.59, 0.61);
    assertThat(count("resolution = 60000") / (double) ROWS).isBetween(0.29, 0.31);
    assertThat(count("resolution NOT IN (15000, 60000, 300000)")).isZero();
    double tkCacheInLargestOrg =
        count("metric = 'tk_cache' AND org_id = 184833768") / (ROWS * 0.25);
    assertThat(tkCacheInLargestOrg).isBetween(0.39, 0.41);
    assertThat(count("metric = 'tk_cache' AND org_id <> 184833768") / (ROWS * 0.75))
        .isLessThan(0.002);
    assertThat(count("dimensions['node'] IS NOT NULL") / (double) ROWS).isBetween(0.94, 0.96);
    assertThat(count("cardinality(dimensions) NOT BETWEEN 3 AND 8")).isZero();
    assertThat(count("dimensions['service'] IS NULL OR dimensions['region'] IS NULL")).isZero();
    assertThat(count("isnan(sum_rollup) OR isnan(latest_rollup)")).isZero();
    assertThat(count("sum_rollup IS NULL OR latest_rollup IS NULL OR sum_rollup < 0")).isZero();
    try (ResultSet distinct =
        query(
            "SELECT count(DISTINCT metric), count(DISTINCT dimensions['service']),"
                + " count(DISTINCT dimensions['region']), count(DISTINCT dimensions['node'])"
                + " FROM metrics")) {
      assertThat(distinct.getLong(1)).isBetween(450L, 500L);
      assertThat(distinct.getLong(2)).isEqualTo(50);
      assertThat(distinct.getLong(3)).isEqualTo(10);
      assertThat(distinct.getLong(4)).isBetween(99_000L, 100_001L);
    }
  }

  private static long count(String where) throws SQLException {
    try (ResultSet result = query("SELECT count(*) FROM metrics WHERE " + where)) {
      return result.getLong(1);
    }
  }

  /** Runs a query and positions the result on its first row; closing it closes the statement. */
  private static ResultSet query(String sql) throws SQLException {
    Statement statement = duckdb.createStatement();
    statement.closeOnCompletion();
    ResultSet result = statement.executeQuery(sql);
    assertThat(result.next()).as("a row from %s", sql).isTrue();
    return result;
  }
}
