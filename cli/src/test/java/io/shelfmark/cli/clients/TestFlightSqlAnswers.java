package io.shelfmark.cli.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.testing.query.Column;
import io.shelfmark.testing.query.ColumnKind;
import io.shelfmark.testing.query.GeneratedQuery;
import io.shelfmark.testing.query.RandomQueryGenerator;
import io.shelfmark.testing.query.TableDescription;
import io.shelfmark.testing.query.ValueDomain;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.util.JsonStringArrayList;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Arrow's own Flight SQL client against a real node: every answer of the randomized query set
 * equals the node's HTTP answer, column names, types and values; cancelling a statement stops it.
 */
@ExtendWith(SharedClientNode.class)
class TestFlightSqlAnswers {
  private static final long SEED = Long.getLong("shelfmark.test.seed", System.nanoTime());
  private static final int QUERIES = Integer.getInteger("shelfmark.test.flightQueries", 200);
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ClientNode node;
  private static BufferAllocator allocator;
  private static FlightSqlClient client;

  @BeforeAll
  static void connect(ClientNode shared) {
    node = shared;
    allocator = new RootAllocator();
    client =
        new FlightSqlClient(
            FlightClient.builder(
                    allocator, Location.forGrpcInsecure("127.0.0.1", node.flightPort()))
                .build());
  }

  @AfterAll
  static void disconnect() throws Exception {
    if (client != null) {
      client.close();
    }
    if (allocator != null) {
      allocator.close();
    }
  }

  @Test
  void randomQueriesEqualHttpAnswersTypesIncluded() {
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
    RandomQueryGenerator generator = new RandomQueryGenerator(table, domain(table), SEED);
    List<String> failures = new ArrayList<>();
    int answered = 0;
    for (GeneratedQuery query : generator.next(QUERIES)) {
      String sql = query.shelfmarkSql();
      JsonNode http = node.query(sql, Optional.empty());
      try {
        if (!http.path("exceptions").isEmpty()) {
          String message = http.path("exceptions").get(0).path("message").asText();
          assertThatThrownBy(() -> read(sql))
              .isInstanceOf(FlightRuntimeException.class)
              .hasMessageContaining(message);
          continue;
        }
        Answer flight = read(sql);
        JsonNode schema = http.path("resultTable").path("dataSchema");
        assertThat(flight.names()).isEqualTo(texts(schema.path("columnNames")));
        assertThat(flight.pinotTypes()).isEqualTo(texts(schema.path("columnDataTypes")));
        List<List<String>> expected = httpRows(http);
        if (query.ordered()) {
          assertThat(flight.rows()).isEqualTo(expected);
        } else {
          assertThat(flight.rows()).containsExactlyInAnyOrderElementsOf(expected);
        }
        answered++;
      } catch (AssertionError e) {
        failures.add(sql + "\n  " + e.getMessage().replace("\n", "\n  "));
      }
    }
    assertThat(failures).as("seed " + SEED).isEmpty();
    assertThat(answered).as("answered queries (seed " + SEED + ")").isGreaterThan(QUERIES / 2);
  }

  @Test
  void cancelledStatementStopsWithCancelled() {
    FlightInfo info =
        client.execute("SELECT metric, SUM(sum_rollup) FROM obs.metrics GROUP BY metric");
    assertThat(client.cancelFlightInfo(new CancelFlightInfoRequest(info)).getStatus())
        .isEqualTo(CancelStatus.CANCELLED);
    assertThatThrownBy(
            () -> {
              try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
                while (stream.next()) {
                  // drain
                }
              }
            })
        .isInstanceOfSatisfying(
            FlightRuntimeException.class,
            e -> assertThat(e.status().code()).isEqualTo(CallStatus.CANCELLED.code()))
        .hasMessageContaining("cancelled");
  }

  @Test
  void unknownTableIsNotFoundWithShelfmarksCode() {
    assertThatThrownBy(() -> client.execute("SELECT COUNT(*) FROM obs.nope"))
        .isInstanceOfSatisfying(
            FlightRuntimeException.class,
            e -> {
              assertThat(e.status().code()).isEqualTo(CallStatus.NOT_FOUND.code());
              assertThat(e.status().metadata().get("shelfmark-error-code")).isEqualTo("190");
            })
        .hasMessageContaining("obs.nope")
        .hasMessageContaining("190 UNKNOWN_TABLE");
  }

  /**
   * Values of each term sampled from the node over HTTP: the ones the generator's predicates use.
   */
  private static ValueDomain domain(TableDescription table) {
    ValueDomain.Builder domain = ValueDomain.builder();
    for (Column column : table.columns()) {
      if (column.kind() == ColumnKind.MAP) {
        for (String key : column.mapKeys()) {
          sample(
              domain,
              column.name() + "['" + key + "']",
              column.name() + "['" + key + "']",
              ColumnKind.STRING);
        }
      } else {
        sample(domain, column.name(), column.name(), column.kind());
      }
    }
    return domain.build();
  }

  private static void sample(
      ValueDomain.Builder domain, String term, String expression, ColumnKind kind) {
    JsonNode answer =
        node.query(
            "SELECT "
                + expression
                + ", COUNT(*) FROM obs.metrics GROUP BY "
                + expression
                + " ORDER BY COUNT(*) DESC LIMIT 13",
            Optional.empty());
    assertThat(answer.path("exceptions")).as(answer.toString()).isEmpty();
    List<Object> values = new ArrayList<>();
    for (JsonNode row : answer.path("resultTable").path("rows")) {
      JsonNode value = row.get(0);
      if (value.isNull()) {
        domain.nullable(term);
      } else if (values.size() < 12) {
        values.add(
            switch (kind) {
              case LONG, INT -> value.asLong();
              case DOUBLE -> value.asDouble();
              default -> value.asText();
            });
      }
    }
    domain.values(term, values);
  }

  private record Answer(List<String> names, List<String> pinotTypes, List<List<String>> rows) {}

  private static Answer read(String sql) {
    FlightInfo info = client.execute(sql);
    List<String> names = new ArrayList<>();
    List<String> types = new ArrayList<>();
    for (Field field : info.getSchema().getFields()) {
      names.add(field.getName());
      types.add(pinotType(field.getType()));
    }
    List<List<String>> rows = new ArrayList<>();
    try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
      assertThat(stream.getSchema()).isEqualTo(info.getSchema());
      while (stream.next()) {
        VectorSchemaRoot root = stream.getRoot();
        for (int r = 0; r < root.getRowCount(); r++) {
          List<String> row = new ArrayList<>();
          for (FieldVector vector : root.getFieldVectors()) {
            row.add(text(vector, r));
          }
          rows.add(row);
        }
      }
    } catch (Exception e) {
      if (e instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(e);
    }
    return new Answer(names, types, rows);
  }

  /** The Pinot type name the HTTP answer gives a column of this Arrow type. */
  private static String pinotType(ArrowType type) {
    return switch (type) {
      case ArrowType.Int integer -> integer.getBitWidth() == 32 ? "INT" : "LONG";
      case ArrowType.FloatingPoint floating ->
          floating.getPrecision() == FloatingPointPrecision.SINGLE ? "FLOAT" : "DOUBLE";
      case ArrowType.Decimal decimal -> "BIG_DECIMAL";
      case ArrowType.Utf8 utf8 -> "STRING";
      case ArrowType.Date date -> "STRING";
      case ArrowType.Timestamp timestamp -> "TIMESTAMP";
      case ArrowType.Bool bool -> "BOOLEAN";
      case ArrowType.Binary binary -> "BYTES";
      case ArrowType.Map map -> "MAP";
      default -> "unexpected " + type;
    };
  }

  /** An Arrow value as the HTTP answer's JSON shows it (numbers by value). */
  private static String text(FieldVector vector, int row) {
    if (vector.isNull(row)) {
      return null;
    }
    ArrowType type = vector.getField().getType();
    Object value = vector.getObject(row);
    return switch (type) {
      case ArrowType.Int integer -> Long.toString(((Number) value).longValue());
      case ArrowType.FloatingPoint floating -> Double.toString(((Number) value).doubleValue());
      case ArrowType.Decimal decimal -> Double.toString(((BigDecimal) value).doubleValue());
      case ArrowType.Date date -> LocalDate.ofEpochDay(((Number) value).longValue()).toString();
      case ArrowType.Timestamp timestamp ->
          io.shelfmark.exchange.result.ResultRendering.render(
                  timestamp.getTimezone() == null
                      ? io.shelfmark.sql.type.PrimitiveType.TIMESTAMP
                      : io.shelfmark.sql.type.PrimitiveType.TIMESTAMP_TZ,
                  micros(vector, row))
              .toString();
      case ArrowType.Map map -> mapJson((JsonStringArrayList<?>) value);
      default -> value instanceof Text text ? text.toString() : value.toString();
    };
  }

  private static long micros(FieldVector vector, int row) {
    return ((org.apache.arrow.vector.TimeStampVector) vector).get(row);
  }

  private static String mapJson(JsonStringArrayList<?> entries) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (Object entry : entries) {
      Map<?, ?> pair = (Map<?, ?>) entry;
      Object value = pair.get("value");
      map.put(pair.get("key").toString(), value instanceof Text text ? text.toString() : value);
    }
    try {
      return JSON.writeValueAsString(map);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<List<String>> httpRows(JsonNode answer) {
    List<List<String>> rows = new ArrayList<>();
    for (JsonNode row : answer.path("resultTable").path("rows")) {
      List<String> values = new ArrayList<>();
      for (JsonNode value : row) {
        values.add(
            value.isNull()
                ? null
                : value.isIntegralNumber()
                    ? Long.toString(value.asLong())
                    : value.isNumber()
                        ? Double.toString(value.asDouble())
                        : value.isObject() ? value.toString() : value.asText());
      }
      rows.add(values);
    }
    return rows;
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(value -> texts.add(value.asText()));
    return texts;
  }
}
