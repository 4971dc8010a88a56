package io.shelfmark.broker.querylog;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.broker.explain.ExplainReport;
import io.shelfmark.broker.explain.ExplainText;
import io.shelfmark.broker.query.QueryError;
import io.shelfmark.broker.query.QueryListener;
import io.shelfmark.broker.query.QueryRequest;
import io.shelfmark.broker.query.QueryResponse;
import io.shelfmark.broker.query.QueryStatistics;
import java.io.IOException;
import java.io.StringWriter;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JSON line per answered query, through the logger {@value #LOGGER} (its own appender in
 * logback.xml, off unless a serving node or {@code SHELFMARK_QUERY_LOG_LEVEL} turns it on): when,
 * table, SQL (or its SHA-256 when the text may hold what should not reach logs), snapshot, outcome,
 * duration, rows, files, bytes and cache figures. A query slower than the threshold is logged at
 * WARN with {@code "slow": true}, the rest at INFO, so a log level alone selects slow queries. A
 * slow query's line carries its EXPLAIN ANALYZE when the broker recorded it ({@code
 * query.slow-profile}): the report as text lines ({@code explainAnalyze}) and as the {@code
 * explain} object of an EXPLAIN ANALYZE response. Thread safe.
 */
public final class QueryLog implements QueryListener {
  /** The logger's name: outside {@code io.shelfmark}, so its level and appender are its own. */
  public static final String LOGGER = "shelfmark.querylog";

  /** A query slower than this is logged as slow unless the node chooses another threshold. */
  public static final Duration DEFAULT_SLOW_THRESHOLD = Duration.ofSeconds(1);

  /** Longer SQL is cut: a generated giant would otherwise make every line huge. */
  static final int MAX_SQL_CHARS = 4096;

  private static final Logger log = LoggerFactory.getLogger(LOGGER);
  private static final JsonFactory JSON = new JsonFactory();
  private static final ObjectMapper REPORTS = new ObjectMapper(JSON);

  private final long slowNanos;
  private final boolean hashSql;
  private final Clock clock;

  /**
   * @param slowThreshold queries at least this slow are logged at WARN as slow
   * @param hashSql log the SQL's SHA-256 instead of its text
   */
  public QueryLog(Duration slowThreshold, boolean hashSql, Clock clock) {
    this.slowNanos = requireNonNull(slowThreshold, "slowThreshold is null").toNanos();
    this.hashSql = hashSql;
    this.clock = requireNonNull(clock, "clock is null");
  }

  @Override
  public void answered(
      String table, QueryRequest request, QueryResponse response, long elapsedNanos) {
    answered(table, request, response, elapsedNanos, Optional.empty());
  }

  @Override
  public void answered(
      String table,
      QueryRequest request,
      QueryResponse response,
      long elapsedNanos,
      Optional<ExplainReport> slowProfile) {
    boolean slow = elapsedNanos >= slowNanos;
    if (slow ? !log.isWarnEnabled() : !log.isInfoEnabled()) {
      return;
    }
    String line =
        line(table, request, response, elapsedNanos, slow, slow ? slowProfile : Optional.empty());
    if (slow) {
      log.warn(line);
    } else {
      log.info(line);
    }
  }

  String line(
      String table, QueryRequest request, QueryResponse response, long elapsedNanos, boolean slow) {
    return line(table, request, response, elapsedNanos, slow, Optional.empty());
  }

  String line(
      String table,
      QueryRequest request,
      QueryResponse response,
      long elapsedNanos,
      boolean slow,
      Optional<ExplainReport> profile) {
    StringWriter out = new StringWriter(256);
    try (JsonGenerator json = JSON.createGenerator(out)) {
      json.writeStartObject();
      json.writeStringField("time", clock.instant().toString());
      json.writeStringField("table", table);
      if (hashSql) {
        json.writeStringField("sqlSha256", sha256(request.sql()));
      } else {
        String sql = request.sql();
        json.writeStringField(
            "sql", sql.length() <= MAX_SQL_CHARS ? sql : sql.substring(0, MAX_SQL_CHARS) + "…");
      }
      QueryStatistics stats = response.statistics();
      if (stats.snapshotId() >= 0) {
        json.writeNumberField("snapshotId", stats.snapshotId());
      }
      if (response.errors().isEmpty()) {
        json.writeStringField("outcome", "success");
      } else {
        QueryError error = response.errors().getFirst();
        json.writeStringField("outcome", error.code().name().toLowerCase(java.util.Locale.ROOT));
        json.writeNumberField("errorCode", error.code().code());
        json.writeStringField("error", error.message());
      }
      json.writeNumberField("durationMs", elapsedNanos / 1_000_000.0);
      json.writeBooleanField("slow", slow);
      json.writeNumberField("rows", response.result().map(r -> r.rows().size()).orElse(0));
      json.writeNumberField("docsScanned", stats.numDocsScanned());
      json.writeNumberField("filesQueried", stats.numSegmentsQueried());
      json.writeNumberField("filesPruned", stats.numSegmentsPrunedByBroker());
      json.writeNumberField("storageBytesRead", stats.storageBytesRead());
      json.writeNumberField("storageRequests", stats.storageRequests());
      json.writeNumberField("storageRetries", stats.storageRetries());
      json.writeNumberField("cacheHits", stats.cacheHits());
      json.writeNumberField("cacheMisses", stats.cacheMisses());
      if (profile.isPresent()) {
        json.writeArrayFieldStart("explainAnalyze");
        for (String text : ExplainText.lines(profile.get())) {
          json.writeString(text);
        }
        json.writeEndArray();
        json.writeFieldName("explain");
        REPORTS.writeValue(json, profile.get());
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new IllegalStateException("Cannot write a query log line", e);
    }
    return out.toString();
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
