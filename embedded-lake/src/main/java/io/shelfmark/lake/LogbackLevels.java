package io.shelfmark.lake;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import java.util.List;
import org.slf4j.ILoggerFactory;

/** The logback half of {@link ServerLogLevels}; loaded only when logback is the SLF4J backend. */
final class LogbackLevels {
  private LogbackLevels() {}

  static void warnUnlessConfigured(ILoggerFactory factory, List<String> loggerNames) {
    LoggerContext context = (LoggerContext) factory;
    for (String name : loggerNames) {
      Logger logger = context.getLogger(name);
      // A level set by the configuration (logback.xml) is the user's choice: keep it.
      if (logger.getLevel() == null) {
        logger.setLevel(Level.WARN);
      }
    }
  }
}
