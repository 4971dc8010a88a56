package io.shelfmark.segment.build;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.segment.dictionary.DictionaryBuilder;
import io.shelfmark.segment.index.inverted.InvertedIndexType;
import io.shelfmark.segment.index.range.RangeIndexType;
import io.shelfmark.segment.index.sorted.SortedIndexType;
import io.shelfmark.segment.metadata.ColumnStatistics;
import io.shelfmark.segment.spi.ColumnDescriptor;
import io.shelfmark.segment.spi.ColumnProfile;
import io.shelfmark.segment.spi.CreatorContext;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.IndexCreator;
import io.shelfmark.segment.spi.IndexType;
import io.shelfmark.segment.spi.ValueBatch;
import io.shelfmark.segment.spi.ValueType;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.roaringbitmap.RoaringBitmap;

/**
 * Receives one column's values in doc-id order, in batches shaped like the Parquet reader's decoded
 * batches, and builds the column's parts when the segment is written.
 *
 * <p>A column with a dictionary (any of its indexes needs one) keeps one provisional dictionary id
 * per doc (4 bytes) and the distinct values; other columns keep their values (8 bytes per doc for
 * numbers, the bytes for strings). At seal the dictionary is sorted and the ids remapped, the
 * column is profiled (nulls, min, max, sortedness) and summarised per row group, and each index
 * creator is fed every doc. When the values turn out sorted, a sorted index replaces the configured
 * range and inverted indexes: it answers all they do, exactly, in far less space.
 *
 * <p>Not thread safe: one thread adds a column's values.
 */
public final class ColumnWriter {
  private static final int UNMAPPED = -2;

  private final ColumnDescriptor column;
  private final List<IndexType> indexTypes;
  private final Optional<IndexType> sortedType;
  private final DictionaryBuilder dictionary;
  private int[] ids;
  private long[] longs;
  private double[] doubles;
  private byte[] bytes;
  private int[] offsets;
  private boolean[] nulls;
  private int docCount;
  // Batch dictionary id -> provisional id of this column, reused across id batches; -2 = unmapped.
  private int[] translation = new int[0];

  ColumnWriter(
      ColumnDescriptor column, List<IndexType> indexTypes, Optional<IndexType> sortedType) {
    this.column = requireNonNull(column, "column is null");
    this.indexTypes = ImmutableList.copyOf(indexTypes);
    this.sortedType = requireNonNull(sortedType, "sortedType is null");
    ValueType type = column.type();
    boolean needsDictionary = false;
    for (IndexType indexType : indexTypes) {
      needsDictionary |= indexType.needsDictionary(type);
    }
    if (needsDictionary) {
      dictionary = new DictionaryBuilder(type);
      ids = new int[1024];
    } else {
      dictionary = null;
      nulls = new boolean[1024];
      switch (type) {
        case LONG -> longs = new long[1024];
        case DOUBLE -> doubles = new double[1024];
        case STRING -> {
          bytes = new byte[4096];
          offsets = new int[1025];
        }
      }
    }
  }

  /** A dictionary column whose provisional ids are already known (an extracted map key). */
  static ColumnWriter ofProvisionalIds(
      ColumnDescriptor column,
      List<IndexType> indexTypes,
      Optional<IndexType> sortedType,
      DictionaryBuilder values,
      int[] provisionalIds) {
    return new ColumnWriter(column, indexTypes, sortedType, values, provisionalIds);
  }

  private ColumnWriter(
      ColumnDescriptor column,
      List<IndexType> indexTypes,
      Optional<IndexType> sortedType,
      DictionaryBuilder values,
      int[] provisionalIds) {
    this.column = column;
    this.indexTypes = ImmutableList.copyOf(indexTypes);
    this.sortedType = sortedType;
    this.dictionary = values;
    this.ids = provisionalIds;
    this.docCount = provisionalIds.length;
  }

  public ColumnDescriptor column() {
    return column;
  }

  /** The number of docs added so far. */
  public int docCount() {
    return docCount;
  }

  /** Adds {@code count} LONG values; {@code nulls} may be null when none is null. */
  public void addLongs(long[] values, boolean[] nulls, int count) {
    checkType(ValueType.LONG, values.length, nulls, count);
    ensure(count);
    if (dictionary != null) {
      for (int i = 0; i < count; i++) {
        ids[docCount + i] = nulls != null && nulls[i] ? -1 : dictionary.add(values[i]);
      }
    } else {
      System.arraycopy(values, 0, longs, docCount, count);
      copyNulls(nulls, count);
    }
    docCount += count;
  }

  /** Adds {@code count} DOUBLE values; {@code nulls} may be null when none is null. */
  public void addDoubles(double[] values, boolean[] nulls, int count) {
    checkType(ValueType.DOUBLE, values.length, nulls, count);
    ensure(count);
    if (dictionary != null) {
      for (int i = 0; i < count; i++) {
        ids[docCount + i] = nulls != null && nulls[i] ? -1 : dictionary.add(values[i]);
      }
    } else {
      System.arraycopy(values, 0, doubles, docCount, count);
      copyNulls(nulls, count);
    }
    docCount += count;
  }

  /**
   * Adds {@code count} STRING values as UTF-8 bytes: value {@code i} spans {@code
   * data[offsets[i]..offsets[i + 1]]}; {@code nulls} may be null when none is null.
   */
  public void addBinary(byte[] data, int[] offsets, boolean[] nulls, int count) {
    checkType(ValueType.STRING, offsets.length - 1, nulls, count);
    ensure(count);
    if (dictionary != null) {
      for (int i = 0; i < count; i++) {
        ids[docCount + i] =
            nulls != null && nulls[i]
                ? -1
                : dictionary.add(data, offsets[i], offsets[i + 1] - offsets[i]);
      }
    } else {
      int length = offsets[count] - offsets[0];
      int used = this.offsets[docCount];
      if (used + length > bytes.length) {
        bytes =
            Arrays.copyOf(
                bytes,
                (int)
                    Math.min(
                        Integer.MAX_VALUE - 16, Math.max((long) used + length, 2L * bytes.length)));
      }
      System.arraycopy(data, offsets[0], bytes, used, length);
      for (int i = 0; i < count; i++) {
        this.offsets[docCount + i + 1] = used + offsets[i + 1] - offsets[0];
      }
      copyNulls(nulls, count);
    }
    docCount += count;
  }

  /**
   * Adds {@code count} LONG values given as ids into a batch dictionary (a Parquet column chunk's
   * dictionary page): value {@code i} is {@code dictionary[ids[i]]}, or null when {@code ids[i]} is
   * negative. For a column with a segment dictionary each distinct id is hashed once per call
   * rather than once per doc, so feeding a row group's ids costs one array lookup per doc.
   */
  public void addLongIds(long[] dictionary, int dictionarySize, int[] ids, int count) {
    checkIds(ValueType.LONG, dictionary.length, dictionarySize, ids, count);
    ensure(count);
    if (this.dictionary == null) {
      for (int i = 0; i < count; i++) {
        int id = checkId(ids[i], dictionarySize);
        longs[docCount + i] = id < 0 ? 0 : dictionary[id];
        nulls[docCount + i] = id < 0;
      }
    } else {
      int[] map = translation(dictionarySize);
      for (int i = 0; i < count; i++) {
        int id = checkId(ids[i], dictionarySize);
        int mapped = -1;
        if (id >= 0) {
          mapped = map[id];
          if (mapped == UNMAPPED) {
            mapped = this.dictionary.add(dictionary[id]);
            map[id] = mapped;
          }
        }
        this.ids[docCount + i] = mapped;
      }
    }
    docCount += count;
  }

  /**
   * Adds {@code count} DOUBLE values given as ids into a batch dictionary; see {@link #addLongIds}.
   */
  public void addDoubleIds(double[] dictionary, int dictionarySize, int[] ids, int count) {
    checkIds(ValueType.DOUBLE, dictionary.length, dictionarySize, ids, count);
    ensure(count);
    if (this.dictionary == null) {
      for (int i = 0; i < count; i++) {
        int id = checkId(ids[i], dictionarySize);
        doubles[docCount + i] = id < 0 ? 0 : dictionary[id];
        nulls[docCount + i] = id < 0;
      }
    } else {
      int[] map = translation(dictionarySize);
      for (int i = 0; i < count; i++) {
        int id = checkId(ids[i], dictionarySize);
        int mapped = -1;
        if (id >= 0) {
          mapped = map[id];
          if (mapped == UNMAPPED) {
            mapped = this.dictionary.add(dictionary[id]);
            map[id] = mapped;
          }
        }
        this.ids[docCount + i] = mapped;
      }
    }
    docCount += count;
  }

  /**
   * Adds {@code count} STRING values given as ids into a batch dictionary of UTF-8 values (entry
   * {@code d} spans {@code data[offsets[d]..offsets[d + 1]]}); see {@link #addLongIds}.
   */
  public void addBinaryIds(byte[] data, int[] offsets, int dictionarySize, int[] ids, int count) {
    checkIds(ValueType.STRING, offsets.length - 1, dictionarySize, ids, count);
    if (dictionary == null) {
      // No segment dictionary (a bloom-only column): the values themselves are kept.
      addBinaryValuesOfIds(data, offsets, dictionarySize, ids, count);
      return;
    }
    ensure(count);
    int[] map = translation(dictionarySize);
    for (int i = 0; i < count; i++) {
      int id = checkId(ids[i], dictionarySize);
      int mapped = -1;
      if (id >= 0) {
        mapped = map[id];
        if (mapped == UNMAPPED) {
          mapped = dictionary.add(data, offsets[id], offsets[id + 1] - offsets[id]);
          map[id] = mapped;
        }
      }
      this.ids[docCount + i] = mapped;
    }
    docCount += count;
  }

  private void addBinaryValuesOfIds(
      byte[] data, int[] dictionaryOffsets, int dictionarySize, int[] ids, int count) {
    int[] valueOffsets = new int[count + 1];
    boolean[] valueNulls = new boolean[count];
    long length = 0;
    for (int i = 0; i < count; i++) {
      int id = checkId(ids[i], dictionarySize);
      valueNulls[i] = id < 0;
      length += id < 0 ? 0 : dictionaryOffsets[id + 1] - dictionaryOffsets[id];
    }
    if (length > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException(
          "Cannot add %d values of %d bytes to column %s in one batch"
              .formatted(count, length, column.name()));
    }
    byte[] values = new byte[(int) length];
    int position = 0;
    for (int i = 0; i < count; i++) {
      int id = ids[i];
      if (id >= 0) {
        int size = dictionaryOffsets[id + 1] - dictionaryOffsets[id];
        System.arraycopy(data, dictionaryOffsets[id], values, position, size);
        position += size;
      }
      valueOffsets[i + 1] = position;
    }
    addBinary(values, valueOffsets, valueNulls, count);
  }

  private void checkIds(
      ValueType given, int dictionaryLength, int dictionarySize, int[] ids, int count) {
    if (dictionarySize < 0 || dictionarySize > dictionaryLength) {
      throw new IllegalArgumentException(
          "Cannot add ids into a dictionary of %d values held in %d to column %s"
              .formatted(dictionarySize, dictionaryLength, column.name()));
    }
    checkType(given, ids.length, null, count);
  }

  private int checkId(int id, int dictionarySize) {
    if (id >= dictionarySize) {
      throw new IllegalArgumentException(
          "Cannot add id %d to column %s: the batch dictionary has %d values"
              .formatted(id, column.name(), dictionarySize));
    }
    return id;
  }

  private int[] translation(int dictionarySize) {
    if (translation.length < dictionarySize) {
      translation = new int[Math.max(dictionarySize, translation.length * 2)];
    }
    Arrays.fill(translation, 0, dictionarySize, UNMAPPED);
    return translation;
  }

  /** Adds STRING values, {@code null} elements being nulls: a convenience for small inputs. */
  public void addStrings(List<String> values) {
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    int[] valueOffsets = new int[values.size() + 1];
    boolean[] valueNulls = new boolean[values.size()];
    for (int i = 0; i < values.size(); i++) {
      String value = values.get(i);
      valueNulls[i] = value == null;
      if (value != null) {
        data.writeBytes(value.getBytes(StandardCharsets.UTF_8));
      }
      valueOffsets[i + 1] = data.size();
    }
    addBinary(data.toByteArray(), valueOffsets, valueNulls, values.size());
  }

  /** Adds {@code count} null docs. */
  public void addNulls(int count) {
    boolean[] allNull = new boolean[count];
    Arrays.fill(allNull, true);
    switch (column.type()) {
      case LONG -> addLongs(new long[count], allNull, count);
      case DOUBLE -> addDoubles(new double[count], allNull, count);
      case STRING -> addBinary(new byte[0], new int[count + 1], allNull, count);
    }
  }

  private void checkType(ValueType given, int values, boolean[] nullFlags, int count) {
    if (given != column.type()) {
      throw new IllegalArgumentException(
          "Cannot add %s values to %s column %s".formatted(given, column.type(), column.name()));
    }
    if (count < 0 || values < count || (nullFlags != null && nullFlags.length < count)) {
      throw new IllegalArgumentException(
          "Cannot add %d values to column %s from %d values and %s null flags"
              .formatted(
                  count,
                  column.name(),
                  values,
                  nullFlags == null ? "no" : Integer.toString(nullFlags.length)));
    }
    if ((long) docCount + count > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException(
          "Cannot add %d values to column %s: a segment holds at most %d docs"
              .formatted(count, column.name(), Integer.MAX_VALUE - 16));
    }
  }

  private void ensure(int count) {
    int needed = docCount + count;
    int capacity = dictionary != null ? ids.length : nulls.length;
    if (needed <= capacity) {
      return;
    }
    int grown = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(needed, 2L * capacity));
    if (dictionary != null) {
      ids = Arrays.copyOf(ids, grown);
      return;
    }
    nulls = Arrays.copyOf(nulls, grown);
    switch (column.type()) {
      case LONG -> longs = Arrays.copyOf(longs, grown);
      case DOUBLE -> doubles = Arrays.copyOf(doubles, grown);
      case STRING -> offsets = Arrays.copyOf(offsets, grown + 1);
    }
  }

  private void copyNulls(boolean[] source, int count) {
    if (source != null) {
      System.arraycopy(source, 0, nulls, docCount, count);
    } else {
      Arrays.fill(nulls, docCount, docCount + count, false);
    }
  }

  /** Builds the parts; the writer must not be used afterwards (its buffers are released). */
  SealedColumn seal(String segmentName, List<DocRange> ranges) {
    return seal(segmentName, ranges, SealPolicy.NONE);
  }

  /** Builds the parts with the index choices {@code policy} makes once the dictionary is known. */
  SealedColumn seal(String segmentName, List<DocRange> ranges, SealPolicy policy) {
    Optional<byte[]> dictionaryPart = Optional.empty();
    Optional<Dictionary> sealedDictionary = Optional.empty();
    Optional<long[]> valueHashes = Optional.empty();
    if (dictionary != null) {
      DictionaryBuilder.Sealed sealed = dictionary.seal();
      remap(ids, docCount, sealed.remap());
      dictionaryPart = Optional.of(sealed.part());
      sealedDictionary = Optional.of(sealed.dictionary());
      valueHashes = sealed.valueHashes();
    }
    ColumnValues values =
        new ColumnValues(
            column.type(), docCount, ids, sealedDictionary, longs, doubles, bytes, offsets, nulls);
    ColumnProfile profile = values.profile();
    List<ColumnStatistics> statistics = values.statistics(ranges);
    Map<String, byte[]> indexes = new TreeMap<>();
    CreatorContext context = new CreatorContext(column, profile, sealedDictionary, valueHashes);
    ValueBatch batch = values.batch();
    List<IndexType> creatorTypes = creatorTypes(profile);
    if (sealedDictionary.isPresent()
        && policy.adjust(creatorTypes, sealedDictionary.get().size(), profile.nonNullCount())
        && !SealPolicy.needsDictionary(creatorTypes, column.type())) {
      // The bloom filter that replaced the inverted index hashes through the dictionary while
      // building, but nothing reads it afterwards: leave the part out.
      dictionaryPart = Optional.empty();
    }
    for (IndexType type : creatorTypes) {
      IndexCreator creator = type.newCreator(context);
      creator.add(batch);
      creator.seal().ifPresent(part -> indexes.put(type.id(), part));
    }
    byte[] nullsPart =
        serialize(profile.nullCount() == 0 ? new RoaringBitmap() : values.nullBitmap());
    ids = null;
    longs = null;
    doubles = null;
    bytes = null;
    offsets = null;
    nulls = null;
    return new SealedColumn(column, profile, nullsPart, dictionaryPart, indexes, statistics);
  }

  /**
   * Turns provisional ids into final ones. A loop of its own: seal() runs once per column and is
   * large, so the JIT may leave it interpreted, while this small method compiles on its own.
   */
  private static void remap(int[] ids, int docCount, int[] remap) {
    for (int doc = 0; doc < docCount; doc++) {
      int id = ids[doc];
      if (id >= 0) {
        ids[doc] = remap[id];
      }
    }
  }

  private List<IndexType> creatorTypes(ColumnProfile profile) {
    List<IndexType> types = new ArrayList<>(indexTypes);
    boolean filterIndexed = false;
    for (IndexType type : indexTypes) {
      String id = type.id();
      filterIndexed |=
          id.equals(SortedIndexType.ID)
              || id.equals(RangeIndexType.ID)
              || id.equals(InvertedIndexType.ID);
    }
    if (profile.sorted()
        && profile.nonNullCount() > 0
        && filterIndexed
        && sortedType.isPresent()
        && (dictionary != null || column.type() != ValueType.STRING)) {
      types.removeIf(
          type ->
              type.id().equals(RangeIndexType.ID)
                  || type.id().equals(InvertedIndexType.ID)
                  || type.id().equals(SortedIndexType.ID));
      types.add(sortedType.get());
    }
    return types;
  }

  private static byte[] serialize(RoaringBitmap bitmap) {
    bitmap.runOptimize();
    ByteBuffer buffer = ByteBuffer.allocate(bitmap.serializedSizeInBytes());
    bitmap.serialize(buffer);
    return buffer.array();
  }
}
