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
  private final long contentLength;
  private long consumed;
  private boolean atEnd;
  private boolean closed;

  /**
   * @param contentLength the body's length when the response gave one, else -1; a caller that reads
   *     exactly that many bytes has reached the end even without seeing -1
   */
  S3ObjectInputStream(ResponseInputStream<?> body, long contentLength, StorageStats stats) {
    this.body = requireNonNull(body, "body is null");
    this.contentLength = contentLength;
    this.stats = requireNonNull(stats, "stats is null");
  }

  @Override
  public int read() throws IOException {
    int b = body.read();
    if (b < 0) {
      atEnd = true;
    } else {
      consumed(1);
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = body.read(buffer, offset, length);
    if (n < 0) {
      atEnd = true;
    } else {
      consumed(n);
    }
    return n;
  }

  /** Skipped bytes still cross the network, so they count as read. */
  @Override
  public long skip(long n) throws IOException {
    long skipped = body.skip(n);
    consumed(skipped);
    return skipped;
  }

  private void consumed(long bytes) {
    stats.recordBytesRead(bytes);
    consumed += bytes;
    if (contentLength >= 0 && consumed >= contentLength) {
      atEnd = true;
    }
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
      // Without abort, closing would read the remaining bytes to reuse the connection; after the
      // last byte, a plain close returns the connection to the pool.
      body.abort();
    }
    body.close();
  }
}
