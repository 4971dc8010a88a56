package io.shelfmark.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import io.shelfmark.broker.querylog.QueryLog;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * The log's settings beyond logback.xml: its format (text or JSON, {@code SHELFMARK_LOG_FORMAT})
 * and what a serving node logs. Levels chosen by their variables always win.
 */
public final class LogSettings {
  /** The variable that sets the log level of every command (logback.xml reads it). */
  static final String LOG_LEVEL_VARIABLE = "SHELFMARK_LOG_LEVEL";

  /** The variable that sets the query log's level (logback.xml reads it; off by default). */
  static final String QUERY_LOG_LEVEL_VARIABLE = "SHELFMARK_QUERY_LOG_LEVEL";

  private LogSettings() {}

  /** The variable that switches the log to one JSON object per event (value {@code json}). */
  static final String LOG_FORMAT_VARIABLE = "SHELFMARK_LOG_FORMAT";

  /**
   * Writes the log as one JSON object per event (logback's JsonEncoder) when {@code
   * SHELFMARK_LOG_FORMAT=json}, for log shippers; text otherwise. Called first thing by the command
   * line, before anything worth logging.
   *
   * @throws IllegalArgumentException naming the variable when its value is neither
   */
  public static void applyLogFormat(Map<String, String> environment) {
    String format = environment.getOrDefault(LOG_FORMAT_VARIABLE, "text").strip();
    if (format.equalsIgnoreCase("text") || format.isEmpty()) {
      return;
    }
    if (!format.equalsIgnoreCase("json")) {
      throw new IllegalArgumentException(
          "Cannot use " + LOG_FORMAT_VARIABLE + "=" + format + " (expected text or json)");
    }
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return;
    }
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    JsonEncoder encoder = new JsonEncoder();
    encoder.setContext(context);
    // The message as people read it, beside its template and arguments (which shippers index).
    encoder.setWithFormattedMessage(true);
    encoder.start();
    ConsoleAppender<ILoggingEvent> json = new ConsoleAppender<>();
    json.setContext(context);
    json.setName("JSON");
    json.setTarget("System.err");
    json.setEncoder(encoder);
    json.start();
    root.detachAndStopAllAppenders();
    root.addAppender(json);
  }

  /**
   * From now on the node logs what it does at INFO (onboarding, snapshot refreshes, tables fully
   * indexed, segments repaired, warm-up), unless {@code SHELFMARK_LOG_LEVEL} chose a level, and
   * writes the query log (one JSON line per query) unless {@code SHELFMARK_QUERY_LOG_LEVEL} did.
   * One-shot commands keep the quieter default (WARN) so their output stays their answer; a server
   * that prints nothing after its banner leaves its operator guessing.
   */
  public static void logActivity(Map<String, String> environment) {
    if (!environment.containsKey(LOG_LEVEL_VARIABLE)
        && LoggerFactory.getLogger("io.shelfmark") instanceof Logger logger) {
      logger.setLevel(Level.INFO);
    }
    if (!environment.containsKey(QUERY_LOG_LEVEL_VARIABLE)
        && LoggerFactory.getLogger(QueryLog.LOGGER) instanceof Logger queryLog) {
      queryLog.setLevel(Level.INFO);
    }
  }
}
