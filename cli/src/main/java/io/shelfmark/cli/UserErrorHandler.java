package io.shelfmark.cli;

import io.shelfmark.config.ConfigException;
import java.io.IOException;
import java.io.UncheckedIOException;
import picocli.CommandLine;

/**
 * Turns a failed command into one clear message on standard error and exit status 1. Expected
 * failures (bad config, unreachable storage, a table that cannot be onboarded) show their message
 * only; anything else is a bug and also shows its stack trace when {@code SHELFMARK_DEBUG} is set.
 */
final class UserErrorHandler implements CommandLine.IExecutionExceptionHandler {
  static final int FAILED = 1;

  @Override
  public int handleExecutionException(
      Exception e, CommandLine commandLine, CommandLine.ParseResult parseResult) {
    var err = commandLine.getErr();
    if (isUserFacing(e)) {
      err.println(e.getMessage());
    } else {
      err.println(
          "Internal error in shelfmark "
              + commandLine.getCommandName()
              + ": "
              + e
              + " (set SHELFMARK_DEBUG=1 for the stack trace, and please report it)");
      if (System.getenv("SHELFMARK_DEBUG") != null) {
        e.printStackTrace(err);
      }
    }
    err.flush();
    return FAILED;
  }

  private static boolean isUserFacing(Exception e) {
    return e instanceof ConfigException
        || e instanceof IOException
        || e instanceof UncheckedIOException
        || e instanceof IllegalArgumentException
        || e.getClass().getName().startsWith("io.shelfmark.");
  }
}
