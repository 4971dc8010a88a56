package io.shelfmark.segment.spi;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.format.PartReader;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.roaringbitmap.RoaringBitmap;

/**
 * What an index reader is given when opened: its part's verified bytes and its column's shared
 * parts.
 *
 * @param segment the segment's name, for messages
 * @param column the column
 * @param docCount the segment's number of docs
 * @param partName the part's name ({@code range[logical_timestamp]}), for messages
 * @param partVersion the layout version the part was written with (at most the type's version)
 * @param partOffset the part's file offset, for messages
 * @param part the part's bytes, checksum verified, little-endian, from position 0
 * @param dictionary the column's dictionary, when it has one
 * @param nulls the column's null docs; shared: readers must not modify it
 * @param bitmaps where the reader keeps the bitmaps it decodes (a view of the server's bitmap
 *     cache, scoped to this part of this open segment)
 */
public record ReaderContext(
    String segment,
    ColumnDescriptor column,
    int docCount,
    String partName,
    int partVersion,
    long partOffset,
    ByteBuffer part,
    Optional<Dictionary> dictionary,
    RoaringBitmap nulls,
    DecodedBitmaps bitmaps) {
  public ReaderContext {
    requireNonNull(segment, "segment is null");
    requireNonNull(column, "column is null");
    requireNonNull(partName, "partName is null");
    requireNonNull(part, "part is null");
    requireNonNull(dictionary, "dictionary is null");
    requireNonNull(nulls, "nulls is null");
    requireNonNull(bitmaps, "bitmaps is null");
  }

  /** A bounds-checked reader over the part, naming it in errors. */
  public PartReader reader() {
    return new PartReader(segment, partName, partOffset, part);
  }
}
