package io.shelfmark.parquet.decode;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;

/**
 * One page as handed in: its parsed header and where its (still compressed) body lies. Parsing
 * checks that the header's compressed size accounts for exactly the bytes given, and verifies the
 * CRC-32 of the body when the header carries one.
 */
final class RawPage {
  final PageHeader header;
  final byte[] data;
  final int bodyOffset;
  final int bodyLength;

  private RawPage(PageHeader header, byte[] data, int bodyOffset, int bodyLength) {
    this.header = header;
    this.data = data;
    this.bodyOffset = bodyOffset;
    this.bodyLength = bodyLength;
  }

  /**
   * A page known by its header alone, for decoding from a kept {@link DecompressedPage}: it has no
   * bytes, so only a kept body can stand in for its decompression.
   */
  static RawPage headerOnly(PageHeader header) {
    return new RawPage(header, null, 0, header.getCompressed_page_size());
  }

  static RawPage parse(ByteBuffer page) throws MalformedPageException {
    int length = page.remaining();
    byte[] data;
    int base;
    if (page.hasArray()) {
      data = page.array();
      base = page.arrayOffset() + page.position();
    } else {
      data = new byte[length];
      page.duplicate().get(data);
      base = 0;
    }
    ByteArrayInputStream in = new ByteArrayInputStream(data, base, length);
    PageHeader header;
    try {
      header = Util.readPageHeader(in);
    } catch (IOException | RuntimeException e) {
      throw new MalformedPageException(
          "cannot parse the page header from %d bytes: %s".formatted(length, e.getMessage()));
    }
    int headerLength = length - in.available();
    if (!header.isSetType()) {
      throw new MalformedPageException("page header has no page type");
    }
    int compressed = header.getCompressed_page_size();
    if (compressed < 0 || header.getUncompressed_page_size() < 0) {
      throw new MalformedPageException(
          "page header has compressed size %d and uncompressed size %d"
              .formatted(compressed, header.getUncompressed_page_size()));
    }
    if ((long) headerLength + compressed != length) {
      throw new MalformedPageException(
          "page header of %d bytes says %d compressed bytes follow, but the page given is %d bytes"
                  .formatted(headerLength, compressed, length)
              + (length < (long) headerLength + compressed
                  ? " (truncated, or the page locations are wrong)"
                  : " (the page locations disagree with the header)"));
    }
    RawPage raw = new RawPage(header, data, base + headerLength, compressed);
    if (header.isSetCrc()) {
      raw.verifyChecksum();
    }
    return raw;
  }

  private void verifyChecksum() throws MalformedPageException {
    CRC32 crc = new CRC32();
    crc.update(data, bodyOffset, bodyLength);
    int actual = (int) crc.getValue();
    if (actual != header.getCrc()) {
      throw new MalformedPageException(
          "page checksum mismatch: the header says CRC-32 %08x but the page body has %08x"
              .formatted(header.getCrc(), actual));
    }
  }
}
