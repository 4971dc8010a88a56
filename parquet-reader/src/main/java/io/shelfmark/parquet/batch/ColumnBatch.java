package io.shelfmark.parquet.batch;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.schema.ColumnSchema;
import java.util.Arrays;

/**
 * The decoded values of one column for a set of selected rows (typically one row group's selected
 * rows), in primitive arrays. Built by the decoder through a {@link Builder}; immutable once built
 * apart from the lazily materialised {@link #values()} of a dictionary-encoded batch, and thread
 * safe. Arrays are exposed without copying and may be longer than the counts: callers must not
 * modify them.
 *
 * <h2>Layout</h2>
 *
 * <pre>
 *   entries  0 .. valueCount()-1   one per value position: nulls() flags, values() or ids
 *   rows     0 .. rowCount()-1     one per selected row
 *
 *   flat column (not repeated):     entry i is row i (valueCount() == rowCount())
 *   repeated column (LIST, MAP):    offsets(1)[r] .. offsets(1)[r+1] are row r's entries at level 1;
 *                                   for nested lists, offsets(k) indexes level-k entries by level-(k-1)
 *                                   entry, and the innermost level's entries are the value entries
 * </pre>
 *
 * <p>Values are dense: a null entry has a slot holding 0, false or an empty binary. A batch whose
 * pages were all dictionary-encoded with the same dictionary keeps {@link #dictionaryIds()} (null
 * entries have id -1) and the {@link #dictionary()}, so callers can group on ids without
 * materialising strings; {@link #values()} materialises on first use. A map's keys and values are
 * two batches of its two leaf columns, with equal offsets.
 */
public final class ColumnBatch {
  private final ColumnSchema column;
  private final int rowCount;
  private final int valueCount;
  private final boolean[] nulls;
  private final int[] dictionaryIds;
  private final PrimitiveValues dictionary;
  private final int[][] offsets;
  private final boolean[][] listNulls;
  private volatile PrimitiveValues values;

  ColumnBatch(
      ColumnSchema column,
      int rowCount,
      int valueCount,
      boolean[] nulls,
      PrimitiveValues values,
      int[] dictionaryIds,
      PrimitiveValues dictionary,
      int[][] offsets,
      boolean[][] listNulls) {
    this.column = requireNonNull(column, "column is null");
    this.rowCount = rowCount;
    this.valueCount = valueCount;
    this.nulls = nulls;
    this.values = values;
    this.dictionaryIds = dictionaryIds;
    this.dictionary = dictionary;
    this.offsets = requireNonNull(offsets, "offsets is null");
    this.listNulls = requireNonNull(listNulls, "listNulls is null");
    if ((values == null) == (dictionaryIds == null)) {
      throw new IllegalArgumentException(
          "Cannot create batch of %s: exactly one of values and dictionary ids must be given"
              .formatted(column.dottedPath()));
    }
  }

  /** A builder for a batch of {@code column}; see {@link Builder} for its contract. */
  public static Builder builder(ColumnSchema column) {
    return new Builder(column);
  }

  public ColumnSchema column() {
    return column;
  }

  /** The number of selected rows. */
  public int rowCount() {
    return rowCount;
  }

  /** The number of value entries: {@link #rowCount()} for a flat column, elements otherwise. */
  public int valueCount() {
    return valueCount;
  }

  /** Whether any entry is null. */
  public boolean hasNulls() {
    return nulls != null;
  }

  /** Per-entry null flags, or {@code null} when no entry is null. */
  public boolean[] nulls() {
    return nulls;
  }

  /** Whether entry {@code index} is null. */
  public boolean isNull(int index) {
    return nulls != null && nulls[index];
  }

  /** Whether the batch holds dictionary ids (every page was dictionary-encoded). */
  public boolean isDictionaryEncoded() {
    return dictionaryIds != null;
  }

  /**
   * Per-entry dictionary ids (-1 for null entries), or {@code null} when not dictionary-encoded.
   */
  public int[] dictionaryIds() {
    return dictionaryIds;
  }

  /** The column chunk's decoded dictionary, or {@code null} when not dictionary-encoded. */
  public PrimitiveValues dictionary() {
    return dictionary;
  }

  /** The values, one per entry; materialised from the dictionary on first call when encoded. */
  public PrimitiveValues values() {
    PrimitiveValues result = values;
    if (result == null) {
      // Benign race: two threads may both materialise; both results are equal.
      result = DictionaryMaterializer.materialize(dictionary, dictionaryIds, valueCount);
      values = result;
    }
    return result;
  }

  /**
   * The number of repetition levels (0 for a flat column): {@link #offsets(int)} and {@link
   * #listNulls(int)} take levels 1 to this.
   */
  public int repetitionLevels() {
    return offsets.length;
  }

  /**
   * Offsets of level-{@code level} entries: for the {@code i}-th entry of the enclosing level (a
   * row for level 1), its list's entries are {@code offsets(level)[i] .. offsets(level)[i + 1]}.
   * The innermost level's entries are the value entries.
   */
  public int[] offsets(int level) {
    checkLevel(level);
    return offsets[level - 1];
  }

  /**
   * Per enclosing entry, whether its list at {@code level} is null (rather than empty), or {@code
   * null} when no list at that level is null.
   */
  public boolean[] listNulls(int level) {
    checkLevel(level);
    return listNulls[level - 1];
  }

  private void checkLevel(int level) {
    if (level < 1 || level > offsets.length) {
      throw new IllegalArgumentException(
          "Cannot read repetition level %d of column %s: it has %d"
              .formatted(level, column.dottedPath(), offsets.length));
    }
  }

  @Override
  public String toString() {
    return "ColumnBatch[%s, %d rows, %d values%s%s]"
        .formatted(
            column.dottedPath(),
            rowCount,
            valueCount,
            nulls != null ? ", nulls" : "",
            dictionaryIds != null ? ", dictionary of " + dictionary.size() : "");
  }

  /**
   * Collects one column's selected rows, page after page: the reader creates one per column (per
   * row group, or across row groups), hands it to each {@code ColumnChunkDecoder.readDataPage} call
   * in row order, then calls {@link #build()} once. Not thread safe.
   *
   * <p>The append methods are the decoder's side of the contract. A flat column appends one entry
   * per selected row. A repeated column opens one list per row at level 1 ({@link #openList}), an
   * element per list entry at inner levels ({@link #addListElement}), and one value entry per
   * innermost element. Dictionary ids and plain values may alternate (a writer falls back to PLAIN
   * when the dictionary grows too large): the builder then materialises the ids it holds.
   *
   * <p>Two optional settings make a large batch cheaper to build: {@link #expect} sizes the arrays
   * once from the column chunk's metadata, and {@link #decodeOnly} lets the decoder pass over the
   * values of entries nobody will read (a map's values under keys that are not wanted).
   */
  public static final class Builder {
    /** EMPTY: only nulls so far; then either ids of one dictionary, or plain values. */
    private enum Mode {
      EMPTY,
      DICTIONARY,
      PLAIN
    }

    private final ColumnSchema column;
    private final int levels;
    private final LevelBuffer[] lists;
    private ValueBuffer values;
    private int size;
    private boolean[] nulls;
    private Mode mode = Mode.EMPTY;
    private int[] ids;
    private PrimitiveValues dictionary;
    private boolean built;
    private int expectedEntries;
    private long expectedBytes;
    private boolean[] wanted;

    Builder(ColumnSchema column) {
      this.column = requireNonNull(column, "column is null");
      this.values = new ValueBuffer(column.physicalType());
      this.levels = column.maxRepetitionLevel();
      this.lists = new LevelBuffer[levels];
      for (int level = 0; level < levels; level++) {
        lists[level] = new LevelBuffer();
      }
    }

    public ColumnSchema column() {
      return column;
    }

    /** The number of value entries appended so far. */
    public int valueCount() {
      return size;
    }

    /** The number of rows appended so far. */
    public int rowCount() {
      return levels == 0 ? size : lists[0].lists();
    }

    /**
     * Hints that the batch will hold about {@code entries} value entries in all, with {@code
     * binaryBytes} bytes of binary values (0 for other types), in {@code rows} rows: arrays are
     * then sized once instead of growing step by step. Call before appending; more may still be
     * appended.
     */
    public Builder expect(int rows, int entries, long binaryBytes) {
      checkOpen();
      if (levels > 0) {
        lists[0].expect(rows);
      }
      expectedEntries = Math.max(0, Math.min(entries, ValueBuffer.MAX_ENTRIES));
      expectedBytes = Math.max(0, binaryBytes);
      values.expect(expectedEntries, expectedBytes);
      return this;
    }

    /**
     * Decodes only the value entries {@code e} with {@code wanted[e]} (entries at or past {@code
     * wanted.length} are decoded). The decoder passes over the others without copying them and
     * appends them with {@link #appendUnwanted}: they are not null, but their value is unspecified
     * (an empty or zero value, or dictionary id -1), so the batch's consumer must read only the
     * entries it asked for. Null flags and list structure are exact for every entry. The array is
     * read, not copied, while the batch is built.
     */
    public Builder decodeOnly(boolean[] wanted) {
      checkOpen();
      this.wanted = requireNonNull(wanted, "wanted is null");
      return this;
    }

    /** The entries to decode (see {@link #decodeOnly}), or {@code null} for all of them. */
    public boolean[] wantedEntries() {
      return wanted;
    }

    /**
     * Appends {@code count} entries that were passed over: not null, value unspecified (see {@link
     * #decodeOnly}).
     */
    public void appendUnwanted(int count) {
      checkOpen();
      if (count == 0) {
        return;
      }
      growNulls(count);
      if (mode == Mode.DICTIONARY) {
        growIds(count);
        Arrays.fill(ids, size, size + count, -1);
      } else {
        values.appendDefaults(count);
      }
      size += count;
    }

    /** Appends {@code count} null entries. */
    public void appendNulls(int count) {
      checkOpen();
      if (count == 0) {
        return;
      }
      if (nulls == null) {
        nulls = new boolean[Math.max(newCapacity(0, size + (long) count), expectedEntries)];
      } else {
        growNulls(count);
      }
      Arrays.fill(nulls, size, size + count, true);
      if (mode == Mode.DICTIONARY) {
        growIds(count);
        Arrays.fill(ids, size, size + count, -1);
      } else {
        values.appendDefaults(count);
      }
      size += count;
    }

    public void appendBooleans(boolean[] source, int offset, int count) {
      beforePlain(count);
      values.appendBooleans(source, offset, count);
      size += count;
    }

    public void appendInts(int[] source, int offset, int count) {
      beforePlain(count);
      values.appendInts(source, offset, count);
      size += count;
    }

    public void appendLongs(long[] source, int offset, int count) {
      beforePlain(count);
      values.appendLongs(source, offset, count);
      size += count;
    }

    public void appendFloats(float[] source, int offset, int count) {
      beforePlain(count);
      values.appendFloats(source, offset, count);
      size += count;
    }

    public void appendDoubles(double[] source, int offset, int count) {
      beforePlain(count);
      values.appendDoubles(source, offset, count);
      size += count;
    }

    /** Appends one binary value (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY or INT96). */
    public void appendBinary(byte[] source, int offset, int length) {
      beforePlain(1);
      values.appendBinary(source, offset, length);
      size++;
    }

    /**
     * Appends the entries whose dictionary ids are {@code source[offset .. offset + count)}; the
     * caller has checked every id against {@code dictionary.size()}. Id -1 marks an unwanted entry
     * (see {@link #decodeOnly}): not null, value unspecified.
     */
    public void appendDictionaryIds(
        int[] source, int offset, int count, PrimitiveValues dictionary) {
      checkOpen();
      requireNonNull(dictionary, "dictionary is null");
      if (count == 0) {
        return;
      }
      if (mode == Mode.DICTIONARY && this.dictionary != dictionary) {
        leaveDictionaryMode();
      }
      growNulls(count);
      if (mode == Mode.PLAIN) {
        DictionaryMaterializer.appendTo(values, dictionary, source, offset, count);
        size += count;
        return;
      }
      if (mode == Mode.EMPTY) {
        // Only nulls so far: their slots become id -1, and the value buffer starts afresh.
        mode = Mode.DICTIONARY;
        this.dictionary = dictionary;
        ids = new int[Math.max(newCapacity(0, size + (long) count), expectedEntries)];
        Arrays.fill(ids, 0, size, -1);
        values = newValueBuffer();
      }
      growIds(count);
      System.arraycopy(source, offset, ids, size, count);
      size += count;
    }

    /**
     * Opens a new list at repetition {@code level} (1-based) in the current entry of the enclosing
     * level; at level 1 this starts a new row. {@code isNull} marks a null list.
     */
    public void openList(int level, boolean isNull) {
      checkOpen();
      lists[level - 1].open(isNull);
    }

    /**
     * Adds an element to the list open at {@code level}. At the innermost level each element is one
     * value entry, appended separately (a value or a null).
     */
    public void addListElement(int level) {
      checkOpen();
      lists[level - 1].addElement();
    }

    /** The batch; the builder cannot be used afterwards. */
    public ColumnBatch build() {
      checkOpen();
      built = true;
      int[][] offsets = new int[levels][];
      boolean[][] listNulls = new boolean[levels][];
      for (int level = 1; level <= levels; level++) {
        offsets[level - 1] = lists[level - 1].offsets();
        listNulls[level - 1] = lists[level - 1].nulls();
      }
      if (levels > 0 && lists[levels - 1].elements() != size) {
        throw new IllegalStateException(
            "Cannot build the batch of %s: %d innermost list elements but %d value entries"
                .formatted(column.dottedPath(), lists[levels - 1].elements(), size));
      }
      boolean encoded = mode == Mode.DICTIONARY;
      return new ColumnBatch(
          column,
          rowCount(),
          size,
          nulls,
          encoded ? null : values.toValues(),
          encoded ? ids : null,
          encoded ? dictionary : null,
          offsets,
          listNulls);
    }

    private void beforePlain(int count) {
      checkOpen();
      if (mode == Mode.DICTIONARY) {
        leaveDictionaryMode();
      }
      mode = Mode.PLAIN;
      growNulls(count);
    }

    private ValueBuffer newValueBuffer() {
      ValueBuffer buffer = new ValueBuffer(column.physicalType());
      buffer.expect(expectedEntries, expectedBytes);
      return buffer;
    }

    private void leaveDictionaryMode() {
      values = newValueBuffer();
      DictionaryMaterializer.appendTo(values, dictionary, ids, 0, size);
      mode = Mode.PLAIN;
      ids = null;
      dictionary = null;
    }

    /** Keeps the null flags (once any exist) as long as the entries. */
    private void growNulls(int count) {
      if (nulls != null && nulls.length - size < count) {
        nulls =
            Arrays.copyOf(
                nulls, Math.max(newCapacity(nulls.length, size + (long) count), expectedEntries));
      }
    }

    private void growIds(int count) {
      if (ids.length - size < count) {
        ids =
            Arrays.copyOf(
                ids, Math.max(newCapacity(ids.length, size + (long) count), expectedEntries));
      }
    }

    private void checkOpen() {
      if (built) {
        throw new IllegalStateException(
            "Cannot append to the batch of " + column.dottedPath() + ": it was already built");
      }
    }
  }

  static int newCapacity(int current, long wanted) {
    if (wanted > ValueBuffer.MAX_ENTRIES) {
      throw new IllegalStateException(
          "Cannot hold more than %d entries in one batch (read fewer rows at once)"
              .formatted(ValueBuffer.MAX_ENTRIES));
    }
    return (int) Math.min(ValueBuffer.MAX_ENTRIES, Math.max(wanted, current * 3L / 2 + 16));
  }
}
