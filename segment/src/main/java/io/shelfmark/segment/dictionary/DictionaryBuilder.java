package io.shelfmark.segment.dictionary;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.encoding.MonotoneLongs;
import io.shelfmark.segment.encoding.ValueHash;
import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.format.PartWriter;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;

/**
 * Builds a column's dictionary in one pass: values get provisional ids in first-seen order as they
 * arrive; {@link #seal()} sorts the distinct values and returns the part together with the mapping
 * from provisional to final (sorted) ids, which the caller applies to the ids it kept. Doubles are
 * keyed by {@link Value#sortableBits}, so -0.0 and 0.0 share an id, as do all NaNs. Not thread
 * safe.
 */
public final class DictionaryBuilder {
  private final ValueType type;
  private final LongIdTable longs;
  private final BytesIdTable strings;

  public DictionaryBuilder(ValueType type) {
    this.type = type;
    this.longs = type == ValueType.STRING ? null : new LongIdTable();
    this.strings = type == ValueType.STRING ? new BytesIdTable() : null;
  }

  public ValueType type() {
    return type;
  }

  /** The provisional id of a LONG value. */
  public int add(long value) {
    return longs.idOf(value);
  }

  /** The provisional id of a DOUBLE value. */
  public int add(double value) {
    return longs.idOf(Value.sortableBits(value));
  }

  /** The provisional id of a STRING value's UTF-8 bytes. */
  public int add(byte[] data, int offset, int length) {
    return strings.idOf(data, offset, length);
  }

  /**
   * {@link #add(byte[], int, int)} of bytes whose {@link ValueHash#hashBytes} is known (a STRING
   * dictionary only).
   */
  public int add(long hash, byte[] data, int offset, int length) {
    return strings.idOf(hash, data, offset, length);
  }

  /**
   * The strings' table (a STRING dictionary only), for a caller that batches its lookups' reads:
   * see {@link BytesIdTable#slotOf}.
   */
  public BytesIdTable strings() {
    return strings;
  }

  /** The number of distinct values so far. */
  public int size() {
    return longs != null ? longs.size() : strings.size();
  }

  /** Sorts the values and encodes the part. The builder must not be used afterwards. */
  public Sealed seal() {
    int size = size();
    int[] remap = new int[size];
    PartWriter out = new PartWriter(64 + size * 4);
    out.putByte(type.code());
    Optional<long[]> valueHashes = Optional.empty();
    if (longs != null) {
      // Sortable bits for doubles, raw values for longs: signed order is value order for both.
      long[] sorted = Arrays.copyOf(longs.values(), size);
      Arrays.sort(sorted);
      for (int sortedId = 0; sortedId < size; sortedId++) {
        remap[longs.idOf(sorted[sortedId])] = sortedId;
      }
      MonotoneLongs.write(out, sorted, size);
    } else {
      int[] order = new int[size];
      for (int i = 0; i < size; i++) {
        order[i] = i;
      }
      byte[] arena = strings.arena();
      int[] offsets = strings.offsets();
      ByteStringSort.sort(order, arena, offsets);
      // The table hashed every value with ValueHash on the way in: keep those hashes by final id
      // for a bloom filter, rather than decode and hash the values again.
      long[] provisionalHashes = strings.hashes();
      long[] hashes = new long[size];
      for (int sortedId = 0; sortedId < size; sortedId++) {
        remap[order[sortedId]] = sortedId;
        hashes[sortedId] = provisionalHashes[order[sortedId]];
      }
      valueHashes = Optional.of(hashes);
      StringDictionary.write(out, arena, offsets, order);
    }
    byte[] part = out.toByteArray();
    return new Sealed(remap, part, open(part), valueHashes);
  }

  private Dictionary open(byte[] part) {
    try {
      // Written just now from sorted distinct values: no need to check every value again.
      return Dictionaries.read(
          new PartReader("dictionary builder", "dictionary", 0, ByteBuffer.wrap(part)),
          type,
          false);
    } catch (CorruptSegmentException e) {
      throw new IllegalStateException(
          "Cannot reopen the dictionary just built: " + e.getMessage(), e);
    }
  }

  /**
   * A sealed dictionary.
   *
   * @param remap final id by provisional id
   * @param part the dictionary part's bytes (version {@link Dictionaries#VERSION})
   * @param dictionary the part opened
   * @param valueHashes the {@link ValueHash} of each final id's value, for a STRING dictionary
   */
  public record Sealed(
      int[] remap, byte[] part, Dictionary dictionary, Optional<long[]> valueHashes) {
    public Sealed {
      requireNonNull(remap, "remap is null");
      requireNonNull(part, "part is null");
      requireNonNull(dictionary, "dictionary is null");
      requireNonNull(valueHashes, "valueHashes is null");
    }
  }
}
