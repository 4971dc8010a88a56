package io.shelfmark.storage.counting;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.spi.StorageStats;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Counts the bytes a caller takes from a stream (read or skipped) into StorageStats. */
public final class CountingInputStream extends FilterInputStream {
  private final StorageStats stats;

  public CountingInputStream(InputStream in, StorageStats stats) {
    super(requireNonNull(in, "in is null"));
    this.stats = requireNonNull(stats, "stats is null");
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b >= 0) {
      stats.recordBytesRead(1);
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = in.read(buffer, offset, length);
    if (n > 0) {
      stats.recordBytesRead(n);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long skipped = in.skip(n);
    if (skipped > 0) {
      stats.recordBytesRead(skipped);
    }
    return skipped;
  }

  // Marks would let bytes be read twice but counted once each time; callers don't need them.
  @Override
  public boolean markSupported() {
    return false;
  }
}
