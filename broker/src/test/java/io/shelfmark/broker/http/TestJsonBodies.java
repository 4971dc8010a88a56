package io.shelfmark.broker.http;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.broker.query.QueryErrorCode;
import io.shelfmark.broker.query.QueryResponse;
import io.shelfmark.broker.query.QueryStatistics;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The query response body: Pinot's shape, every rendered value type, written in a fixed order. */
class TestJsonBodies {
  private static final QueryStatistics STATS =
      new QueryStatistics(99_647, 20_000_000, 1, 1, 1, 149, 3_000_000, 2, 5, 7, 42);

  @Test
  void resultBodyIsPinotsShapeWithEveryValueTypeInFieldOrder() {
    QueryResponse response =
        new QueryResponse(
            Optional.of(
                new QueryResponse.ResultTable(
                    List.of("k", "d", "s", "b", "m"),
                    List.of("LONG", "DOUBLE", "STRING", "BOOLEAN", "BIG_DECIMAL"),
                    List.of(
                        Arrays.asList(
                            1754229600000L, 0.1, "a \"q\"\n\u00e9", true, new BigDecimal("12.50")),
                        Arrays.asList(null, Double.NaN, "", false, null)))),
            List.of(),
            STATS);

    String body = new String(JsonBodies.queryBody(response, 17, 12, "Broker_h_8099"), UTF_8);

    assertThat(body)
        .isEqualTo(
            "{\"resultTable\":{\"dataSchema\":{\"columnNames\":[\"k\",\"d\",\"s\",\"b\",\"m\"],"
                + "\"columnDataTypes\":[\"LONG\",\"DOUBLE\",\"STRING\",\"BOOLEAN\",\"BIG_DECIMAL\"]},"
                + "\"rows\":[[1754229600000,0.1,\"a \\\"q\\\"\\n\u00e9\",true,12.50],"
                + "[null,\"NaN\",\"\",false,null]]},"
                + "\"exceptions\":[],"
                + "\"numServersQueried\":1,\"numServersResponded\":1,"
                + "\"numDocsScanned\":99647,\"totalDocs\":20000000,\"numSegmentsQueried\":1,"
                + "\"numSegmentsProcessed\":1,\"numSegmentsMatched\":1,"
                + "\"numSegmentsPrunedByBroker\":149,\"numSegmentsIndexOnly\":0,\"numSegmentsStarTree\":0,\"numPagesFromStatistics\":0,\"numChunksReadWhole\":0,"
                + "\"numGroupsLimitReached\":false,"
                + "\"partialResult\":false,\"timeUsedMs\":17,\"requestId\":\"12\","
                + "\"brokerId\":\"Broker_h_8099\","
                + "\"storageBytesRead\":3000000,\"storageRequests\":2,\"storageRetries\":0,\"cacheHits\":5,"
                + "\"cacheMisses\":7,\"snapshotId\":42}");
  }

  @Test
  void failureBodyHasItsExceptionAndNoResultTable() {
    String body =
        new String(
            JsonBodies.queryBody(
                QueryResponse.failed(QueryErrorCode.SQL_PARSING, "Cannot parse SQL at line 1"),
                0,
                7,
                "Broker_h_1"),
            UTF_8);

    assertThat(body)
        .isEqualTo(
            "{\"exceptions\":[{\"errorCode\":150,\"errorType\":\"SQL_PARSING\","
                + "\"message\":\"Cannot parse SQL at line 1\"}],"
                + "\"numServersQueried\":0,\"numServersResponded\":0,"
                + "\"numDocsScanned\":0,\"totalDocs\":0,\"numSegmentsQueried\":0,"
                + "\"numSegmentsProcessed\":0,\"numSegmentsMatched\":0,"
                + "\"numSegmentsPrunedByBroker\":0,\"numSegmentsIndexOnly\":0,\"numSegmentsStarTree\":0,\"numPagesFromStatistics\":0,\"numChunksReadWhole\":0,"
                + "\"numGroupsLimitReached\":false,"
                + "\"partialResult\":false,\"timeUsedMs\":0,\"requestId\":\"7\","
                + "\"brokerId\":\"Broker_h_1\",\"storageBytesRead\":0,"
                + "\"storageRequests\":0,\"storageRetries\":0,\"cacheHits\":0,\"cacheMisses\":0,\"snapshotId\":-1}");
  }

  @Test
  void thousandsOfGroupsReadBackAsWritten() throws Exception {
    SplittableRandom random = new SplittableRandom(3600);
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < 3600; i++) {
      double value =
          switch (random.nextInt(4)) {
            case 0 -> -0.0;
            case 1 -> random.nextDouble(-1e12, 1e12);
            case 2 -> random.nextDouble() * 1e-9;
            default -> Double.longBitsToDouble(random.nextLong() & 0x7fefffffffffffffL);
          };
      rows.add(Arrays.asList(1754226000000L + i * 1000L, value, random.nextLong()));
    }
    QueryResponse response =
        new QueryResponse(
            Optional.of(
                new QueryResponse.ResultTable(
                    List.of("time_bucket", "avg", "x"), List.of("LONG", "DOUBLE", "LONG"), rows)),
            List.of(),
            STATS);

    byte[] body = JsonBodies.queryBody(response, 3, 1, "Broker_h_1");

    // Each value in the text Java itself gives it (doubles: Double.toString's shortest digits).
    StringBuilder expectedRows = new StringBuilder("\"rows\":[");
    for (List<Object> row : rows) {
      expectedRows.append(expectedRows.charAt(expectedRows.length() - 1) == '[' ? "[" : ",[");
      expectedRows.append(row.get(0)).append(',').append(row.get(1)).append(',');
      expectedRows.append(row.get(2)).append(']');
    }
    assertThat(new String(body, UTF_8)).contains(expectedRows.append("]}"));
    JsonNode read = JsonBodies.MAPPER.readTree(body);

    JsonNode readRows = read.path("resultTable").path("rows");
    assertThat(readRows.size()).isEqualTo(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      JsonNode row = readRows.get(i);
      assertThat(row.get(0).asLong()).as("row %d", i).isEqualTo(rows.get(i).get(0));
      // Exactly the double written: the shortest decimal that reads back to it.
      assertThat(Double.doubleToRawLongBits(row.get(1).asDouble()))
          .as("row %d", i)
          .isEqualTo(Double.doubleToRawLongBits((Double) rows.get(i).get(1)));
      assertThat(row.get(2).asLong()).as("row %d", i).isEqualTo(rows.get(i).get(2));
    }
    assertThat(read.path("timeUsedMs").asLong()).isEqualTo(3);
  }
}
