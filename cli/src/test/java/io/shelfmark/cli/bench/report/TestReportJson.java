package io.shelfmark.cli.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestReportJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void roundTripGivesAnEqualReport() throws IOException {
    BenchReport report = TestingReports.sample();
    String json = ReportJson.toJson(report);
    BenchReport back = ReportJson.fromJson(json);
    assertThat(back).isEqualTo(report);
    assertThat(ReportJson.toJson(back)).isEqualTo(json);
  }

  @Test
  void topLevelFieldsAreAllPresentInDeclarationOrder() throws IOException {
    JsonNode root = JSON.readTree(ReportJson.toJson(TestingReports.sample()));
    assertThat(fieldNames(root))
        .containsExactly(
            "schemaVersion",
            "generatedAt",
            "command",
            "machine",
            "versions",
            "settings",
            "table",
            "build",
            "bounds",
            "queries",
            "duckDb",
            "qpsSweeps",
            "targets",
            "notes",
            "hops");
    assertThat(root.get("schemaVersion").asInt()).isEqualTo(1);
  }

  @Test
  void aReportWrittenBeforeTopologiesReadsAsTheAllInOneNodes() throws IOException {
    BenchReport report = TestingReports.sample();
    ObjectNode root = (ObjectNode) JSON.readTree(ReportJson.toJson(report));
    root.remove("hops");
    ((ObjectNode) root.get("settings")).remove(List.of("topologies", "servers"));
    for (JsonNode query : root.get("queries")) {
      ((ObjectNode) query).remove("topology");
    }
    BenchReport back = ReportJson.fromJson(JSON.writeValueAsString(root));
    assertThat(back).isEqualTo(report);
    assertThat(back.hops()).isEmpty();
    assertThat(back.settings().topologies()).containsExactly("all-in-one");
    assertThat(back.queries()).allSatisfy(q -> assertThat(q.topology()).isEqualTo("all-in-one"));
  }

  @Test
  void queryRecordsHaveEveryFieldWithNullsWritten() throws IOException {
    JsonNode root = JSON.readTree(ReportJson.toJson(TestingReports.sample()));
    JsonNode pages = root.get("queries").get(2);
    assertThat(fieldNames(pages))
        .containsExactly(
            "query",
            "mode",
            "coldMs",
            "coldIo",
            "hot",
            "hotIo",
            "docsMatched",
            "totalDocs",
            "segmentsQueried",
            "segmentsPruned",
            "serverTimeMs",
            "lowerBoundBytes",
            "bytesOverLowerBound",
            "duckDbMedianMs",
            "shelfmarkOverDuckDb",
            "error",
            "flightSqlHot",
            "topology",
            "secondIo");
    assertThat(pages.get("topology").asText()).isEqualTo("all-in-one");
    assertThat(pages.get("secondIo").isNull()).isTrue();
    assertThat(fieldNames(root.get("queries").get(1).get("secondIo")))
        .containsExactly(
            "storageBytes",
            "storageRequests",
            "proxyRequests",
            "proxyBytes",
            "sequentialRounds",
            "cacheHits",
            "cacheMisses");
    assertThat(pages.get("coldMs").isNull()).isTrue();
    assertThat(pages.get("coldIo").isNull()).isTrue();
    assertThat(fieldNames(pages.get("hot")))
        .containsExactly("runs", "firstMs", "medianMs", "p95Ms", "minMs", "maxMs");
    assertThat(fieldNames(pages.get("hotIo")))
        .containsExactly(
            "storageBytes",
            "storageRequests",
            "proxyRequests",
            "proxyBytes",
            "sequentialRounds",
            "cacheHits",
            "cacheMisses");
    assertThat(fieldNames(root.get("bounds").get(1)))
        .containsExactly(
            "query",
            "matchingRows",
            "filesWithMatches",
            "neededColumns",
            "dataPages",
            "dictionaryPages",
            "lowerBoundBytes",
            "scanBytes");
    assertThat(fieldNames(root.get("qpsSweeps").get(0).get("steps").get(0)))
        .containsExactly(
            "targetQps",
            "achievedQps",
            "issued",
            "completed",
            "failed",
            "dropped",
            "meanMs",
            "p50Ms",
            "p99Ms",
            "processCpu");
    assertThat(fieldNames(root.get("targets").get(0)))
        .containsExactly("id", "description", "target", "measured", "unit", "status", "detail");
    assertThat(root.get("settings").get("bandwidthBytesPerSecond").isNull()).isTrue();
  }

  @Test
  void mapEntriesAreSortedSoRunsDiffLineByLine() throws IOException {
    JsonNode root = JSON.readTree(ReportJson.toJson(TestingReports.sample()));
    assertThat(fieldNames(root.get("versions"))).containsExactly("duckdb", "shelfmark");
  }

  @Test
  void refusesAnotherSchemaVersion() {
    assertThatThrownBy(() -> ReportJson.fromJson("{\"schemaVersion\": 7}"))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "Cannot read benchmark report: schemaVersion 7 (this Shelfmark reads version 1;"
                + " re-run bin/shelfmark bench)");
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
