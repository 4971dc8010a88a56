package io.shelfmark.broker.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.broker.query.QueryError;
import io.shelfmark.broker.query.QueryResponse;
import io.shelfmark.broker.query.QueryStatistics;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;

/** JSON bodies of the HTTP API: the Pinot broker response shape and plain objects. */
final class JsonBodies {
  /**
   * Doubles written by Jackson's Schubfach writer: the same shortest text as {@link
   * Double#toString(double)}, in about half the time (3,600 averages took 0.7 ms through {@code
   * Double.toString} here).
   */
  static final ObjectMapper MAPPER =
      new ObjectMapper(
          JsonFactory.builder()
              .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
              // {"sql": "a", "sql": "b"} is ambiguous: refuse it rather than guess (last wins).
              .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
              .build());

  private JsonBodies() {}

  static byte[] write(Object body) {
    try {
      return MAPPER.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot serialise response body: " + body, e);
    }
  }

  /**
   * The response in Apache Pinot's broker shape: {@code resultTable} ({@code dataSchema} with
   * {@code columnNames} and {@code columnDataTypes}, then {@code rows}; omitted on failure), {@code
   * exceptions}, the server, document and segment counts, {@code numGroupsLimitReached}, {@code
   * partialResult}, {@code timeUsedMs}, {@code requestId} and {@code brokerId}, plus Shelfmark's
   * {@code storageBytesRead}, {@code storageRequests}, {@code storageRetries}, {@code cacheHits},
   * {@code cacheMisses} and {@code snapshotId}.
   *
   * <p>Pinot clients read the server counts to decide whether an answer is complete (pinotdb
   * refuses any response without them). Shelfmark answers a query whole or not at all, so an answer
   * reports one server queried and responded, and a refused query none: then the client goes on to
   * the exceptions and shows Shelfmark's message, not a "servers did not respond" one. Groups are
   * never cut at a limit; a result is partial only when the request allowed it and some files had
   * no replica that answered (the exceptions name them).
   *
   * <p>Written value by value with a streaming generator: through Jackson's object serializers, a
   * result of thousands of groups spent about as long in per-value serializer lookups as the server
   * spent finishing the groups.
   */
  static byte[] queryBody(
      QueryResponse response, long timeUsedMs, long requestId, String brokerId) {
    ByteArrayBuilder bytes = new ByteArrayBuilder(bodySizeHint(response));
    try (JsonGenerator json = MAPPER.getFactory().createGenerator(bytes)) {
      json.writeStartObject();
      if (response.result().isPresent()) {
        QueryResponse.ResultTable table = response.result().get();
        json.writeObjectFieldStart("resultTable");
        json.writeObjectFieldStart("dataSchema");
        writeStrings(json, "columnNames", table.columnNames());
        writeStrings(json, "columnDataTypes", table.columnDataTypes());
        json.writeEndObject();
        json.writeArrayFieldStart("rows");
        for (List<Object> row : table.rows()) {
          json.writeStartArray();
          for (Object value : row) {
            writeValue(json, value);
          }
          json.writeEndArray();
        }
        json.writeEndArray();
        json.writeEndObject();
      }
      json.writeArrayFieldStart("exceptions");
      for (QueryError error : response.errors()) {
        json.writeStartObject();
        json.writeNumberField("errorCode", error.code().code());
        json.writeStringField("errorType", error.code().name());
        json.writeStringField("message", error.message());
        json.writeEndObject();
      }
      json.writeEndArray();
      QueryStatistics stats = response.statistics();
      int servers = response.result().isPresent() ? 1 : 0;
      json.writeNumberField("numServersQueried", servers);
      json.writeNumberField("numServersResponded", servers);
      json.writeNumberField("numDocsScanned", stats.numDocsScanned());
      json.writeNumberField("totalDocs", stats.totalDocs());
      json.writeNumberField("numSegmentsQueried", stats.numSegmentsQueried());
      json.writeNumberField("numSegmentsProcessed", stats.numSegmentsProcessed());
      json.writeNumberField("numSegmentsMatched", stats.numSegmentsMatched());
      json.writeNumberField("numSegmentsPrunedByBroker", stats.numSegmentsPrunedByBroker());
      json.writeNumberField("numSegmentsIndexOnly", stats.numSegmentsIndexOnly());
      json.writeNumberField("numSegmentsStarTree", stats.numSegmentsStarTree());
      json.writeNumberField("numPagesFromStatistics", stats.numPagesFromStatistics());
      json.writeNumberField("numChunksReadWhole", stats.numChunksReadWhole());
      json.writeBooleanField("numGroupsLimitReached", false);
      json.writeBooleanField("partialResult", response.partialResult());
      json.writeNumberField("timeUsedMs", timeUsedMs);
      // Pinot writes the request id as a string: clients that read it as text get the same shape.
      json.writeStringField("requestId", Long.toString(requestId));
      json.writeStringField("brokerId", brokerId);
      json.writeNumberField("storageBytesRead", stats.storageBytesRead());
      json.writeNumberField("storageRequests", stats.storageRequests());
      json.writeNumberField("storageRetries", stats.storageRetries());
      json.writeNumberField("cacheHits", stats.cacheHits());
      json.writeNumberField("cacheMisses", stats.cacheMisses());
      json.writeNumberField("snapshotId", stats.snapshotId());
      if (response.explain().isPresent()) {
        // EXPLAIN's report beside the PLAN rows (docs/http-api.md#explain): records by Jackson.
        json.writeFieldName("explain");
        MAPPER.writeValue(json, response.explain().get());
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new IllegalStateException("Cannot serialise query response: " + response, e);
    }
    return bytes.toByteArray();
  }

  private static void writeStrings(JsonGenerator json, String field, List<String> values)
      throws IOException {
    json.writeArrayFieldStart(field);
    for (String value : values) {
      json.writeString(value);
    }
    json.writeEndArray();
  }

  /**
   * One rendered value (see ResultRendering): the types a result holds, anything else by Jackson.
   */
  private static void writeValue(JsonGenerator json, Object value) throws IOException {
    switch (value) {
      case null -> json.writeNull();
      case Long number -> json.writeNumber(number);
      case Double number -> json.writeNumber(number);
      case String text -> json.writeString(text);
      case Boolean flag -> json.writeBoolean(flag);
      case BigDecimal number -> json.writeNumber(number);
      default -> MAPPER.writeValue(json, value);
    }
  }

  /** About 24 bytes per value: enough that a large result rarely grows the buffer. */
  private static int bodySizeHint(QueryResponse response) {
    long values =
        response
            .result()
            .map(table -> (long) table.rows().size() * Math.max(1, table.columnNames().size()))
            .orElse(0L);
    return (int) Math.min(1 << 24, 512 + values * 24);
  }
}
