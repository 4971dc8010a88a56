package io.shelfmark.exchange.error;

import java.io.IOException;

/**
 * A server reported a corrupt data file or segment; the message is the server's, naming the file.
 * Its name starts with "Corrupt" like every corrupt-input exception, which is how the broker tells
 * CORRUPT from other storage errors in a cause chain.
 */
public final class CorruptFileReportedException extends IOException {
  public CorruptFileReportedException(String message) {
    super(message);
  }
}
