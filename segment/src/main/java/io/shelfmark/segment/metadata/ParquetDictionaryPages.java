package io.shelfmark.segment.metadata;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.format.PartWriter;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Encodes one data file's kept Parquet dictionary pages as its {@code dictionary-pages} part: the
 * pages' bytes exactly as the file holds them (header and compressed body), so a server reading the
 * file's data pages fetches no dictionary page it keeps. Which chunks are kept is the builder's
 * choice (a size budget); a chunk whose page is absent is fetched as before. The bytes are the
 * file's distinct values of those chunks, the same information as a {@code dictionary} part, never
 * rows.
 *
 * <pre>
 * version 1:
 *   pages varint | per page, by increasing offset: offsetDelta varlong (from the previous page's
 *                  offset, the first from 0) | size varint
 *   then every page's bytes, back to back in the same order
 * </pre>
 */
public final class ParquetDictionaryPages {
  /** The dictionary-pages part's layout version. */
  public static final int VERSION = 1;

  private ParquetDictionaryPages() {}

  /**
   * @param pages each page's bytes (header included) by the file offset of its header
   */
  public static byte[] serialize(Map<Long, byte[]> pages) {
    requireNonNull(pages, "pages is null");
    NavigableMap<Long, byte[]> sorted = new TreeMap<>(pages);
    long bytes = 0;
    for (byte[] page : sorted.values()) {
      bytes += page.length;
    }
    if (bytes > Integer.MAX_VALUE - 1024 - sorted.size() * 16L) {
      throw new IllegalArgumentException(
          "Cannot keep %d dictionary pages of %d bytes in one part (at most 2 GiB)"
              .formatted(sorted.size(), bytes));
    }
    PartWriter out = new PartWriter((int) (16 + sorted.size() * 8L + bytes));
    out.putVarInt(sorted.size());
    long previous = 0;
    for (Map.Entry<Long, byte[]> page : sorted.entrySet()) {
      if (page.getKey() < previous || page.getValue().length == 0) {
        throw new IllegalArgumentException(
            "Cannot keep dictionary page at offset %d of %d bytes (expected an offset of 0 or more and a non-empty page)"
                .formatted(page.getKey(), page.getValue().length));
      }
      out.putVarLong(page.getKey() - previous).putVarInt(page.getValue().length);
      previous = page.getKey();
    }
    for (byte[] page : sorted.values()) {
      out.putBytes(page);
    }
    return out.toByteArray();
  }

  /**
   * The kept pages by the file offset of their header, each a view of the part's bytes (no copy),
   * positioned at 0.
   */
  public static NavigableMap<Long, ByteBuffer> deserialize(PartReader in)
      throws CorruptSegmentException {
    int count = in.getCount(in.remaining() / 2, "dictionary page");
    long[] offsets = new long[count];
    int[] sizes = new int[count];
    long previous = 0;
    long total = 0;
    for (int i = 0; i < count; i++) {
      offsets[i] = previous + in.getVarLong();
      sizes[i] = in.getVarInt();
      if (offsets[i] < previous || sizes[i] <= 0 || (i > 0 && offsets[i] == previous)) {
        throw in.corrupt(
            "dictionary page %d at offset %d of %d bytes after a page at offset %d (offsets must increase, sizes be positive)"
                .formatted(i, offsets[i], sizes[i], previous));
      }
      previous = offsets[i];
      total += sizes[i];
    }
    if (total != in.remaining()) {
      throw in.corrupt(
          "the dictionary pages hold %d bytes but %d follow their table"
              .formatted(total, in.remaining()));
    }
    NavigableMap<Long, ByteBuffer> pages = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      pages.put(offsets[i], in.slice(sizes[i]).asReadOnlyBuffer());
    }
    in.expectEnd();
    return Collections.unmodifiableNavigableMap(pages);
  }
}
