package io.shelfmark.segment.format;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The parts of a segment: where each lies, its layout version and its checksum. Immutable and
 * thread safe. Entries are kept in file order.
 */
public final class TableOfContents {
  private final List<TocEntry> entries;
  private final Map<PartKey, TocEntry> byKey;

  public TableOfContents(List<TocEntry> entries) {
    List<TocEntry> sorted = new ArrayList<>(requireNonNull(entries, "entries is null"));
    sorted.sort(Comparator.comparingLong(TocEntry::offset));
    this.entries = ImmutableList.copyOf(sorted);
    ImmutableMap.Builder<PartKey, TocEntry> map = ImmutableMap.builder();
    for (TocEntry entry : sorted) {
      map.put(entry.key(), entry);
    }
    this.byKey = map.buildOrThrow();
  }

  /** The entries in file order. */
  public List<TocEntry> entries() {
    return entries;
  }

  public Optional<TocEntry> find(PartKey key) {
    return Optional.ofNullable(byKey.get(key));
  }

  /** The entries whose name is {@code name} (a column's parts), in file order. */
  public List<TocEntry> named(String name) {
    ImmutableList.Builder<TocEntry> result = ImmutableList.builder();
    for (TocEntry entry : entries) {
      if (entry.key().name().equals(name)) {
        result.add(entry);
      }
    }
    return result.build();
  }

  /** The serialized form (see {@link SegmentFormat}). */
  public byte[] serialize() {
    PartWriter out = new PartWriter(64 + entries.size() * 48);
    out.putInt(entries.size());
    for (TocEntry entry : entries) {
      byte[] kind = entry.key().kind().getBytes(StandardCharsets.US_ASCII);
      byte[] name = entry.key().name().getBytes(StandardCharsets.UTF_8);
      out.putByte(kind.length).putBytes(kind);
      out.putShort(name.length).putBytes(name);
      out.putShort(entry.version());
      out.putLong(entry.offset()).putLong(entry.length()).putInt(entry.crc32c());
    }
    return out.toByteArray();
  }

  /**
   * Parses a table of contents and checks that every part lies between the header and {@code
   * partsEnd} (the table's own offset), without overlapping another part or repeating a key.
   */
  public static TableOfContents deserialize(
      String segment, long tocOffset, ByteBuffer bytes, long partsEnd)
      throws CorruptSegmentException {
    PartReader in = new PartReader(segment, "", tocOffset, bytes);
    int count = in.getInt();
    // Each entry takes at least 25 bytes: a bound on the count before allocating for it.
    if (count < 0 || (long) count * 25 > in.remaining()) {
      throw in.corrupt(
          "table of contents claims %d parts in %d bytes".formatted(count, in.remaining()));
    }
    List<TocEntry> entries = new ArrayList<>(count);
    Set<PartKey> seen = new HashSet<>();
    for (int i = 0; i < count; i++) {
      int entryStart = in.position();
      String kind = new String(in.getBytes(in.getByte()), StandardCharsets.US_ASCII);
      String name = new String(in.getBytes(in.getShort()), StandardCharsets.UTF_8);
      int version = in.getShort();
      long offset = in.getLong();
      long length = in.getLong();
      int crc = in.getInt();
      PartKey key;
      try {
        key = new PartKey(kind, name);
      } catch (IllegalArgumentException e) {
        throw new CorruptSegmentException(
            segment,
            "",
            tocOffset + entryStart,
            "table of contents entry " + i + ": " + e.getMessage(),
            e);
      }
      if (offset < SegmentFormat.HEADER_SIZE || length < 0 || offset > partsEnd - length) {
        throw new CorruptSegmentException(
            segment,
            key.toString(),
            tocOffset + entryStart,
            "part lies at offset %d with length %d, outside the parts area %d..%d"
                .formatted(offset, length, SegmentFormat.HEADER_SIZE, partsEnd));
      }
      if (!seen.add(key)) {
        throw new CorruptSegmentException(
            segment,
            key.toString(),
            tocOffset + entryStart,
            "part listed twice in the table of contents");
      }
      entries.add(new TocEntry(key, version, offset, length, crc));
    }
    in.expectEnd();
    TableOfContents toc = new TableOfContents(entries);
    TocEntry previous = null;
    for (TocEntry entry : toc.entries) {
      if (previous != null && entry.offset() < previous.end()) {
        throw new CorruptSegmentException(
            segment,
            entry.key().toString(),
            entry.offset(),
            "part overlaps part %s, which ends at %d".formatted(previous.key(), previous.end()));
      }
      previous = entry;
    }
    return toc;
  }

  @Override
  public String toString() {
    return "TableOfContents" + entries;
  }
}
