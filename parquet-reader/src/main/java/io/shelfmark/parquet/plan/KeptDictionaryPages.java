package io.shelfmark.parquet.plan;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.coalesce.ByteRange;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Dictionary pages of one data file whose bytes the caller already holds (a segment keeps them
 * beside the indexes), so a read neither fetches them nor counts them in its plan's bytes.
 * Immutable and thread safe; the buffers handed out are read-only views at position 0.
 *
 * <p>A page is found only under its exact byte range (header offset and length, header included),
 * as the page locations give it: bytes kept for another layout of the file are never used.
 */
public final class KeptDictionaryPages {
  /** Nothing kept: every dictionary page is fetched with the data pages. */
  public static final KeptDictionaryPages NONE = new KeptDictionaryPages(Map.of());

  private final Map<Long, ByteBuffer> byOffset;
  private final long bytes;

  private KeptDictionaryPages(Map<Long, ByteBuffer> byOffset) {
    this.byOffset = byOffset;
    long total = 0;
    for (ByteBuffer page : byOffset.values()) {
      total += page.remaining();
    }
    this.bytes = total;
  }

  /**
   * Kept pages by the file offset of their header; each buffer holds exactly the page's bytes,
   * header first, from its position to its limit.
   */
  public static KeptDictionaryPages of(Map<Long, ByteBuffer> pagesByOffset) {
    requireNonNull(pagesByOffset, "pagesByOffset is null");
    if (pagesByOffset.isEmpty()) {
      return NONE;
    }
    Map<Long, ByteBuffer> copy = new TreeMap<>();
    for (Map.Entry<Long, ByteBuffer> entry : pagesByOffset.entrySet()) {
      if (entry.getKey() < 0 || !entry.getValue().hasRemaining()) {
        throw new IllegalArgumentException(
            "Cannot keep dictionary page at offset %d: %d bytes (expected an offset of 0 or more and a non-empty page)"
                .formatted(entry.getKey(), entry.getValue().remaining()));
      }
      copy.put(entry.getKey(), entry.getValue().slice().asReadOnlyBuffer());
    }
    return new KeptDictionaryPages(copy);
  }

  /** Whether the page at exactly {@code range} is kept. */
  public boolean holds(ByteRange range) {
    ByteBuffer page = byOffset.get(range.offset());
    return page != null && page.remaining() == range.length();
  }

  /** The bytes of the page at exactly {@code range}, if kept. */
  public Optional<ByteBuffer> find(ByteRange range) {
    return holds(range) ? Optional.of(byOffset.get(range.offset()).duplicate()) : Optional.empty();
  }

  /** The kept pages' ranges and bytes, by offset. */
  public Map<ByteRange, ByteBuffer> pages() {
    Map<ByteRange, ByteBuffer> pages = new TreeMap<>();
    for (Map.Entry<Long, ByteBuffer> entry : byOffset.entrySet()) {
      pages.put(
          new ByteRange(entry.getKey(), entry.getValue().remaining()),
          entry.getValue().duplicate());
    }
    return pages;
  }

  public int pageCount() {
    return byOffset.size();
  }

  /** The kept pages' bytes in all. */
  public long bytes() {
    return bytes;
  }

  @Override
  public String toString() {
    return "KeptDictionaryPages[%d pages, %d bytes]".formatted(byOffset.size(), bytes);
  }
}
