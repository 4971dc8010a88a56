package io.shelfmark.cli.bench.bound;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;

/**
 * Reads Parquet page headers straight from a local file, for the lower bound's one question about a
 * page that its location cannot answer: is it dictionary-encoded? Not thread safe: one per thread.
 */
final class PageHeaders implements AutoCloseable {
  // Page headers are a few dozen bytes; statistics in v1 headers can make them longer.
  private static final int HEADER_WINDOW = 16 * 1024;

  private final Path file;
  private final FileChannel channel;
  private final ByteBuffer window = ByteBuffer.allocate(HEADER_WINDOW);

  PageHeaders(Path file) throws IOException {
    this.file = file;
    this.channel = FileChannel.open(file, StandardOpenOption.READ);
  }

  /** The header of the page starting at {@code offset}. */
  PageHeader read(long offset) throws IOException {
    window.clear();
    int read = 0;
    while (window.hasRemaining()) {
      int n = channel.read(window, offset + read);
      if (n < 0) {
        break;
      }
      read += n;
    }
    try {
      return Util.readPageHeader(new ByteArrayInputStream(window.array(), 0, read));
    } catch (IOException e) {
      throw new IOException(
          "Cannot read the page header of " + file + " at offset " + offset + ": " + e.getMessage(),
          e);
    }
  }

  /** Whether the data page whose header this is refers to a dictionary page for its values. */
  static boolean dictionaryEncoded(PageHeader header) {
    Encoding encoding;
    if (header.isSetData_page_header()) {
      encoding = header.getData_page_header().getEncoding();
    } else if (header.isSetData_page_header_v2()) {
      encoding = header.getData_page_header_v2().getEncoding();
    } else {
      return false;
    }
    return encoding == Encoding.PLAIN_DICTIONARY || encoding == Encoding.RLE_DICTIONARY;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
