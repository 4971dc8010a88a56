package io.shelfmark.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class TestTableCommand {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ObjectNode status() {
    ObjectNode status = JSON.createObjectNode();
    status
        .put("name", "obs.metrics")
        .put("state", "SERVING")
        .put("snapshotId", 42)
        .put("dataFiles", 3)
        .put("records", 3_000)
        .put("dataBytes", 1_000_000)
        .put("segmentsReady", 3)
        .put("segmentsPending", 0)
        .put("segmentsFailed", 0)
        .put("indexBytes", 250_000);
    status.putArray("failures");
    return status;
  }

  private static String summary(ObjectNode status) {
    StringWriter text = new StringWriter();
    TableCommand.printSummary(status, new PrintWriter(text));
    return text.toString();
  }

  @Test
  void statusShowsTheNodesWarmup() {
    assertThat(summary(status().put("warmup", "running")))
        .contains("segments        3 ready, 0 pending, 0 failed; 250,000 bytes (25.0% of the data)")
        .contains("warm-up         running (queries are answered meanwhile");
    assertThat(summary(status().put("warmup", "done"))).contains("warm-up         done\n");
    assertThat(summary(status().put("warmup", "off")))
        .contains("warm-up         off (server.warmup.rounds is 0)");
  }

  @Test
  void statusFromABrokerWithoutWarmupLeavesTheLineOut() {
    assertThat(summary(status())).doesNotContain("warm-up").contains("state           SERVING");
  }
}
