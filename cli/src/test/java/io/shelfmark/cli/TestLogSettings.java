package io.shelfmark.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import io.shelfmark.broker.querylog.QueryLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class TestLogSettings {
  private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
  private final Logger shelfmark = context.getLogger("io.shelfmark");
  private final Logger queryLog = context.getLogger(QueryLog.LOGGER);
  private final Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  private final Level shelfmarkBefore = shelfmark.getLevel();
  private final Level queryLogBefore = queryLog.getLevel();
  private final List<Appender<?>> rootBefore = appenders();

  @AfterEach
  void restore() {
    shelfmark.setLevel(shelfmarkBefore);
    queryLog.setLevel(queryLogBefore);
    root.detachAndStopAllAppenders();
    for (Appender<?> appender : rootBefore) {
      @SuppressWarnings("unchecked")
      Appender<ch.qos.logback.classic.spi.ILoggingEvent> restored =
          (Appender<ch.qos.logback.classic.spi.ILoggingEvent>) appender;
      restored.start();
      root.addAppender(restored);
    }
  }

  @Test
  void aServingNodeLogsItsActivityAndQueriesUnlessLevelsWereChosen() {
    shelfmark.setLevel(Level.ERROR);
    queryLog.setLevel(Level.OFF);
    LogSettings.logActivity(
        Map.of(
            LogSettings.LOG_LEVEL_VARIABLE, "ERROR", LogSettings.QUERY_LOG_LEVEL_VARIABLE, "OFF"));
    assertThat(shelfmark.getLevel()).isEqualTo(Level.ERROR);
    assertThat(queryLog.getLevel()).isEqualTo(Level.OFF);
    LogSettings.logActivity(Map.of());
    assertThat(shelfmark.getLevel()).isEqualTo(Level.INFO);
    assertThat(queryLog.getLevel()).isEqualTo(Level.INFO);
  }

  @Test
  void jsonFormatSwapsTheRootAppenderForJsonEvents() {
    LogSettings.applyLogFormat(Map.of(LogSettings.LOG_FORMAT_VARIABLE, "text"));
    assertThat(appenders()).isEqualTo(rootBefore);
    LogSettings.applyLogFormat(Map.of(LogSettings.LOG_FORMAT_VARIABLE, "json"));
    assertThat(appenders())
        .singleElement()
        .satisfies(
            appender ->
                assertThat(((OutputStreamAppender<?>) appender).getEncoder())
                    .isInstanceOf(JsonEncoder.class));
    assertThatThrownBy(
            () -> LogSettings.applyLogFormat(Map.of(LogSettings.LOG_FORMAT_VARIABLE, "xml")))
        .hasMessage("Cannot use SHELFMARK_LOG_FORMAT=xml (expected text or json)");
  }

  private List<Appender<?>> appenders() {
    List<Appender<?>> appenders = new ArrayList<>();
    root.iteratorForAppenders().forEachRemaining(appenders::add);
    return appenders;
  }
}
