package io.shelfmark.lake;

import java.util.List;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Keeps S3Proxy's and Jetty's loggers at WARN without shipping a logging configuration in a library
 * jar (which would fight the application's own). Logback, which S3Proxy brings, logs everything at
 * DEBUG when it finds no configuration file; a request log per S3 call then drowns the
 * application's own output.
 */
final class ServerLogLevels {
  /**
   * S3Proxy's own classes and its shaded Jetty ({@code org.gaul.shaded.org.eclipse.jetty}) share
   * the {@code org.gaul} prefix; a plain Jetty on the class path logs as {@code org.eclipse.jetty}.
   */
  static final List<String> LOGGER_NAMES = List.of("org.gaul", "org.eclipse.jetty");

  private static final String LOGBACK_CONTEXT = "ch.qos.logback.classic.LoggerContext";

  private ServerLogLevels() {}

  /**
   * Sets {@link #LOGGER_NAMES} to WARN when logback is the SLF4J backend and the configuration has
   * not set a level for them. Returns whether logback was found; with another backend nothing is
   * changed, and that backend's configuration decides.
   */
  static boolean quietUnlessConfigured() {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    // Compare by name so that this class never loads logback when another backend is in use;
    // LogbackLevels, which does reference logback, is loaded only past this check.
    if (!factory.getClass().getName().equals(LOGBACK_CONTEXT)) {
      return false;
    }
    LogbackLevels.warnUnlessConfigured(factory, LOGGER_NAMES);
    return true;
  }
}
