package io.shelfmark.storage.s3;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.io.InputStream;
import software.amazon.awssdk.core.ResponseInputStream;

/**
 * The body of one GET: counts the bytes the caller takes, and on a close before the end aborts the
 * connection instead of draining the rest of a possibly large object.
 */
final class S3ObjectInputStream extends InputStream {
  private final ResponseInputStream<?> body;
  private final StorageStats stats;
  private boolean atEnd;
  private boolean closed;

  S3ObjectInputStream(ResponseInputStream<?> body, StorageStats stats) {
    this.body = requireNonNull(body, "body is null");
    this.stats = requireNonNull(stats, "stats is null");
  }

  @Override
  public int read() throws IOException {
    int b = body.read();
    if (b < 0) {
      atEnd = true;
    } else {
      stats.recordBytesRead(1);
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = body.read(buffer, offset, length);
    if (n < 0) {
      atEnd = true;
    } else {
      stats.recordBytesRead(n);
    }
    return n;
  }

  /** Skipped bytes still cross the network, so they count as read. */
  @Override
  public long skip(long n) throws IOException {
    long skipped = body.skip(n);
    stats.recordBytesRead(skipped);
    return skipped;
  }

  @Override
  public int available() throws IOException {
    return body.available();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    if (!atEnd) {
      // Without abort, closing would read the remaining bytes to reuse the connection.
      body.abort();
    }
    body.close();
  }
}
