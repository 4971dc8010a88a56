package io.shelfmark.broker.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.broker.query.QueryError;
import io.shelfmark.broker.query.QueryResponse;
import io.shelfmark.broker.query.QueryStatistics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** JSON bodies of the HTTP API: the Pinot broker response shape and plain objects. */
final class JsonBodies {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private JsonBodies() {}

  static byte[] write(Object body) {
    try {
      return MAPPER.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot serialise response body: " + body, e);
    }
  }

  /**
   * The response in Apache Pinot's broker shape: {@code resultTable} (omitted on failure), {@code
   * exceptions}, the document and segment counts, {@code timeUsedMs}, plus Shelfmark's {@code
   * storageBytesRead}, {@code storageRequests}, {@code cacheHits}, {@code cacheMisses} and {@code
   * snapshotId}.
   */
  static Map<String, Object> pinotShape(QueryResponse response, long timeUsedMs) {
    Map<String, Object> body = new LinkedHashMap<>();
    response
        .result()
        .ifPresent(
            table ->
                body.put(
                    "resultTable",
                    Map.of(
                        "dataSchema",
                        Map.of(
                            "columnNames", table.columnNames(),
                            "columnDataTypes", table.columnDataTypes()),
                        "rows",
                        table.rows())));
    List<Map<String, Object>> exceptions = new ArrayList<>();
    for (QueryError error : response.errors()) {
      exceptions.add(
          Map.of(
              "errorCode", error.code().code(),
              "errorType", error.code().name(),
              "message", error.message()));
    }
    body.put("exceptions", exceptions);
    QueryStatistics stats = response.statistics();
    body.put("numDocsScanned", stats.numDocsScanned());
    body.put("totalDocs", stats.totalDocs());
    body.put("numSegmentsQueried", stats.numSegmentsQueried());
    body.put("numSegmentsProcessed", stats.numSegmentsProcessed());
    body.put("numSegmentsMatched", stats.numSegmentsMatched());
    body.put("numSegmentsPrunedByBroker", stats.numSegmentsPrunedByBroker());
    body.put("timeUsedMs", timeUsedMs);
    body.put("storageBytesRead", stats.storageBytesRead());
    body.put("storageRequests", stats.storageRequests());
    body.put("cacheHits", stats.cacheHits());
    body.put("cacheMisses", stats.cacheMisses());
    body.put("snapshotId", stats.snapshotId());
    return body;
  }
}
