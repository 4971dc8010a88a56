package io.shelfmark.cli.clients;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The requests the StarTree Grafana Pinot data source (v1.0.14) sends, in its order and shapes, to
 * a real node, with a data source configured as the docs say: controller and broker URL both the
 * node's, database {@code obs}. The plugin is Go and not runnable here, so this test replays what
 * its source sends; each step names the plugin file (under {@code pkg/}) the request comes from.
 * Its SQL (SELECT 1, DATETIMECONVERT buckets, SELECT DISTINCT) is answered like any query.
 */
@ExtendWith(SharedClientNode.class)
class TestGrafanaRequests {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DATABASE = "obs";

  /** The dashboard's time range: the hour the benchmark queries read. */
  private static final long FROM = 1754229600000L - 3_600_000L;

  private static final long TO = 1754229600000L + 1;

  private static ClientNode node;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start(ClientNode shared) throws Exception {
    node = shared;
  }

  @Test
  void healthCheckListsTablesThenQueriesTheBroker() throws Exception {
    // pinot/controller.go listTablesEndpoint: HEAD /mytables, and /tables when that is a 404.
    HttpResponse<String> mytables = controller("HEAD", "/mytables");
    assertThat(mytables.statusCode()).isEqualTo(404);
    // pinot/controller.go ListTables: GET /tables, then the database prefix trimmed.
    assertThat(listTables()).containsExactly("metrics");
    // plugin/datasource.go newCheckHealthHandler, through pinot/broker.go ExecuteSqlQuery.
    JsonNode one = broker("SELECT 1");
    assertThat(one.get("exceptions")).isEmpty();
    assertThat(one.get("resultTable").get("rows")).hasSize(1);
  }

  @Test
  void tableSchemaConfigAndMetadataAsTheQueryEditorReadsThem() throws Exception {
    // pinot/controller.go GetTableSchema: the time column's format drives every time expression.
    JsonNode schema = json(controller("GET", "/tables/metrics/schema"));
    JsonNode time = schema.get("dateTimeFieldSpecs").get(0);
    assertThat(time.get("name").asText()).isEqualTo("logical_timestamp");
    assertThat(time.get("format").asText()).isEqualTo("1:MILLISECONDS:EPOCH");
    assertThat(time.get("granularity").asText()).isEqualTo("1:MILLISECONDS");
    List<String> metrics = new ArrayList<>();
    schema.get("metricFieldSpecs").forEach(spec -> metrics.add(spec.get("name").asText()));
    assertThat(metrics).contains("sum_rollup", "latest_rollup");
    List<String> dimensions = new ArrayList<>();
    schema.get("dimensionFieldSpecs").forEach(spec -> dimensions.add(spec.get("name").asText()));
    assertThat(dimensions).contains("metric", "dimensions");

    // pinot/controller.go ListTableConfigs: a map from table type to config.
    JsonNode configs = json(controller("GET", "/tables/metrics"));
    assertThat(configs.get("OFFLINE").get("tableType").asText()).isEqualTo("OFFLINE");
    assertThat(configs.get("OFFLINE").get("query").get("expressionOverrideMap")).isEmpty();
    assertThat(configs.get("OFFLINE").get("ingestionConfig").get("transformConfigs")).isEmpty();

    // pinot/controller.go GetTableMetadata.
    JsonNode metadata = json(controller("GET", "/tables/metrics/metadata"));
    assertThat(metadata.get("numRows").asLong()).isEqualTo(ClientNode.ROWS);

    // pinot/controller.go ListDatabases (the data source's settings page).
    assertThat(json(controller("GET", "/databases")).get(0).asText()).isEqualTo(DATABASE);
  }

  @Test
  void rawTimeSeriesQueryWithoutAggregation() throws Exception {
    // pinot/sql_templates.go singleMetricSqlTemplate, with pinot/sql_expressions.go
    // TimeFilterExpr on epoch milliseconds: the builder's query when aggregation is "none".
    String sql =
        "\nSELECT\n    \"sum_rollup\" AS \"__metric\",\n    \"logical_timestamp\" AS \"__time\"\n"
            + "FROM\n    \"metrics\"\nWHERE\n    \"sum_rollup\" IS NOT NULL\n"
            + "    AND \"logical_timestamp\" >= "
            + FROM
            + " AND \"logical_timestamp\" < "
            + TO
            + "\nORDER BY \"__time\" DESC\nLIMIT 100000;\n";
    JsonNode answer = broker(sql);
    assertThat(answer.get("exceptions")).as(answer.toString()).isEmpty();
    long count =
        node.query(
                "SELECT COUNT(*) FROM obs.metrics WHERE sum_rollup IS NOT NULL"
                    + " AND logical_timestamp >= "
                    + FROM
                    + " AND logical_timestamp < "
                    + TO,
                Optional.empty())
            .get("resultTable")
            .get("rows")
            .get(0)
            .get(0)
            .asLong();
    assertThat(count).isPositive();
    assertThat(answer.get("resultTable").get("rows")).hasSize((int) count);
  }

  @Test
  void aggregatedTimeSeriesBucketsWithDatetimeconvert() throws Exception {
    // pinot/sql_templates.go timeSeriesSqlTemplate, the bucket from pinot/sql_expressions.go
    // TimeGroupExpr (DATETIMECONVERT with the schema's format and a 1-minute granularity) and the
    // filter from TimeFilterBucketAlignedExpr.
    String sql =
        "\nSELECT\n    DATETIMECONVERT(\"logical_timestamp\", '1:MILLISECONDS:EPOCH',"
            + " '1:MILLISECONDS:EPOCH', '1:MINUTES') AS \"__time\",\n"
            + "    SUM(\"sum_rollup\") AS \"__metric\"\nFROM\n    \"metrics\"\nWHERE\n"
            + "    \"logical_timestamp\" >= "
            + FROM
            + " AND \"logical_timestamp\" < "
            + (TO - TO % 60_000 + 60_000)
            + "\nGROUP BY\n    \"__time\"\nORDER BY\n    \"__time\" DESC\nLIMIT 100000;\n";
    JsonNode answer = broker(sql);
    assertThat(answer.get("exceptions")).as(answer.toString()).isEmpty();
    assertThat(answer.get("resultTable").get("rows")).isNotEmpty();
    double total = 0;
    for (JsonNode row : answer.get("resultTable").get("rows")) {
      assertThat(row.get(0).asLong() % 60_000).isZero();
      total += row.get(1).asDouble();
    }
    double expected =
        node.query(
                "SELECT SUM(sum_rollup) FROM obs.metrics WHERE logical_timestamp >= "
                    + FROM
                    + " AND logical_timestamp < "
                    + (TO - TO % 60_000 + 60_000),
                Optional.empty())
            .get("resultTable")
            .get("rows")
            .get(0)
            .get(0)
            .asDouble();
    assertThat(total).isCloseTo(expected, org.assertj.core.data.Percentage.withPercentage(1e-9));
  }

  @Test
  void variableQueryListsDistinctValues() throws Exception {
    // pinot/sql_templates.go distinctValuesSqlTemplate (pinot/time_series.go, variable queries).
    String sql =
        "\nSELECT DISTINCT \"metric\"\nFROM \"metrics\"\nWHERE \"metric\" IS NOT NULL\n"
            + "    AND \"logical_timestamp\" >= "
            + FROM
            + " AND \"logical_timestamp\" < "
            + TO
            + "\nORDER BY \"metric\" ASC\nLIMIT 100;\n";
    JsonNode answer = broker(sql);
    assertThat(answer.get("exceptions")).as(answer.toString()).isEmpty();
    JsonNode grouped =
        node.query(
            "SELECT metric FROM obs.metrics WHERE metric IS NOT NULL AND logical_timestamp >= "
                + FROM
                + " AND logical_timestamp < "
                + TO
                + " GROUP BY metric ORDER BY metric LIMIT 100",
            Optional.empty());
    assertThat(ClientNode.rows(answer)).isNotEmpty().isEqualTo(ClientNode.rows(grouped));
  }

  /** pinot/controller.go ListTables, prefix trimmed as the plugin does. */
  private List<String> listTables() throws Exception {
    List<String> tables = new ArrayList<>();
    for (JsonNode table : json(controller("GET", "/tables")).get("tables")) {
      String name = table.asText();
      tables.add(name.startsWith(DATABASE + ".") ? name.substring(DATABASE.length() + 1) : name);
    }
    return tables;
  }

  /**
   * A controller request as pinot/controller.go builds it: Accept on GETs, and the Database header
   * pinot/client.go NewPinotClient adds for a database other than "default".
   */
  private HttpResponse<String> controller(String method, String path) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(node.url() + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .header("Database", DATABASE);
    if (method.equals("GET")) {
      request.header("Accept", "application/json");
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** pinot/broker.go ExecuteSqlQuery: POST /query/sql with {"sql": ...}, the Database header. */
  private JsonNode broker(String sql) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(node.url() + "/query/sql"))
            .header("Content-Type", "application/json")
            .header("Database", DATABASE)
            .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("sql", sql))))
            .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private static JsonNode json(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }
}
