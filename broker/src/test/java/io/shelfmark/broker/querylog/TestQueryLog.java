package io.shelfmark.broker.querylog;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.broker.query.QueryErrorCode;
import io.shelfmark.broker.query.QueryRequest;
import io.shelfmark.broker.query.QueryResponse;
import io.shelfmark.broker.query.QueryStatistics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class TestQueryLog {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-11-26T23:00:00Z"), ZoneOffset.UTC);
  private static final QueryResponse ANSWER =
      new QueryResponse(
          Optional.of(
              new QueryResponse.ResultTable(
                  List.of("count(*)"), List.of("LONG"), List.of(List.of(7L)))),
          List.of(),
          new QueryStatistics(7, 1000, 3, 3, 2, 5, 4096, 2, 1, 1, 42));

  private final Logger logger = (Logger) LoggerFactory.getLogger(QueryLog.LOGGER);
  private final Level levelBefore = logger.getLevel();
  private final ListAppender<ILoggingEvent> events = new ListAppender<>();

  @BeforeEach
  void capture() {
    events.start();
    logger.addAppender(events);
    logger.setLevel(Level.INFO);
  }

  @AfterEach
  void release() {
    logger.detachAppender(events);
    logger.setLevel(levelBefore);
  }

  @Test
  void aQueryIsOneJsonLineWithWhatItCost() throws Exception {
    new QueryLog(Duration.ofSeconds(1), false, CLOCK)
        .answered(
            "obs.metrics",
            new QueryRequest("SELECT COUNT(*) FROM obs.metrics"),
            ANSWER,
            12_500_000);
    assertThat(events.list).hasSize(1);
    assertThat(events.list.getFirst().getLevel()).isEqualTo(Level.INFO);
    JsonNode line = JSON.readTree(events.list.getFirst().getFormattedMessage());
    assertThat(line.path("time").asText()).isEqualTo("2026-11-26T23:00:00Z");
    assertThat(line.path("table").asText()).isEqualTo("obs.metrics");
    assertThat(line.path("sql").asText()).isEqualTo("SELECT COUNT(*) FROM obs.metrics");
    assertThat(line.path("snapshotId").asLong()).isEqualTo(42);
    assertThat(line.path("outcome").asText()).isEqualTo("success");
    assertThat(line.path("durationMs").asDouble()).isEqualTo(12.5);
    assertThat(line.path("slow").asBoolean()).isFalse();
    assertThat(line.path("rows").asInt()).isEqualTo(1);
    assertThat(line.path("filesQueried").asInt()).isEqualTo(3);
    assertThat(line.path("filesPruned").asInt()).isEqualTo(5);
    assertThat(line.path("storageBytesRead").asLong()).isEqualTo(4096);
  }

  @Test
  void aSlowQueryIsAWarningAndAFailureCarriesItsError() throws Exception {
    QueryResponse failed = QueryResponse.failed(QueryErrorCode.TIMEOUT, "Cannot finish in 10 ms");
    new QueryLog(Duration.ofMillis(100), false, CLOCK)
        .answered("none", new QueryRequest("SELECT 1"), failed, 150_000_000);
    ILoggingEvent event = events.list.getFirst();
    assertThat(event.getLevel()).isEqualTo(Level.WARN);
    JsonNode line = JSON.readTree(event.getFormattedMessage());
    assertThat(line.path("slow").asBoolean()).isTrue();
    assertThat(line.path("outcome").asText()).isEqualTo("timeout");
    assertThat(line.path("errorCode").asInt()).isEqualTo(QueryErrorCode.TIMEOUT.code());
    assertThat(line.path("error").asText()).isEqualTo("Cannot finish in 10 ms");
    assertThat(line.has("snapshotId")).isFalse();
  }

  @Test
  void withHashingTheSqlTextNeverReachesTheLog() throws Exception {
    logger.setLevel(Level.WARN); // only slow queries
    QueryLog log = new QueryLog(Duration.ofMillis(100), true, CLOCK);
    log.answered("t", new QueryRequest("SELECT secret FROM t"), ANSWER, 1_000_000);
    assertThat(events.list).as("fast queries are INFO, below the level").isEmpty();
    log.answered("t", new QueryRequest("SELECT secret FROM t"), ANSWER, 200_000_000);
    String message = events.list.getFirst().getFormattedMessage();
    assertThat(message).doesNotContain("secret");
    String expected =
        java.util.HexFormat.of()
            .formatHex(
                java.security.MessageDigest.getInstance("SHA-256")
                    .digest(
                        "SELECT secret FROM t".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    assertThat(JSON.readTree(message).path("sqlSha256").asText()).isEqualTo(expected);
  }
}
