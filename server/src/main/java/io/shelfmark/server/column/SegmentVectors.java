package io.shelfmark.server.column;

import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.segment.index.forward.ForwardIndexReader;
import io.shelfmark.segment.index.sorted.SortedIndexReader;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.sql.type.SqlType;

/** Vectors of docs' values read from a segment's forward or sorted index and dictionary. */
public final class SegmentVectors {
  private SegmentVectors() {}

  /** The values of {@code docs[0..count)} as a vector of {@code type}. */
  public static Vector read(ColumnSources.Forward source, SqlType type, int[] docs, int count) {
    ForwardIndexReader reader = source.reader();
    Dictionary dictionary = reader.dictionary();
    int nullId = reader.nullId();
    int[] ids = new int[count];
    reader.dictionaryIds(docs, count, ids);
    boolean[] nulls = null;
    for (int i = 0; i < count; i++) {
      if (ids[i] == nullId) {
        ids[i] = -1;
        if (nulls == null) {
          nulls = new boolean[count];
        }
        nulls[i] = true;
      }
    }
    return switch (source.valueType()) {
      case STRING -> Vector.ofIds(type, count, ids, source.strings().orElseThrow());
      case LONG -> {
        long[] values = new long[count];
        for (int i = 0; i < count; i++) {
          if (ids[i] >= 0) {
            values[i] = dictionary.longValue(ids[i]);
          }
        }
        yield Vector.ofLongs(type, count, values, nulls);
      }
      case DOUBLE -> {
        double[] values = new double[count];
        for (int i = 0; i < count; i++) {
          if (ids[i] >= 0) {
            values[i] = dictionary.doubleValue(ids[i]);
          }
        }
        yield Vector.ofDoubles(type, count, values, nulls);
      }
    };
  }

  /**
   * The values of {@code docs[0..count)} read back from an inverted index (docs of the answer the
   * ids were made for), as a vector of {@code type}.
   */
  public static Vector read(ColumnSources.Inverted source, SqlType type, int[] docs, int count) {
    int[] ids = new int[count];
    source.ids().ids(docs, count, ids);
    boolean[] nulls = null;
    for (int i = 0; i < count; i++) {
      if (ids[i] < 0) {
        if (nulls == null) {
          nulls = new boolean[count];
        }
        nulls[i] = true;
      }
    }
    Dictionary dictionary = source.dictionary();
    return switch (source.valueType()) {
      case STRING -> Vector.ofIds(type, count, ids, source.strings().orElseThrow());
      case LONG -> {
        long[] values = new long[count];
        for (int i = 0; i < count; i++) {
          if (ids[i] >= 0) {
            values[i] = dictionary.longValue(ids[i]);
          }
        }
        yield Vector.ofLongs(type, count, values, nulls);
      }
      case DOUBLE -> {
        double[] values = new double[count];
        for (int i = 0; i < count; i++) {
          if (ids[i] >= 0) {
            values[i] = dictionary.doubleValue(ids[i]);
          }
        }
        yield Vector.ofDoubles(type, count, values, nulls);
      }
    };
  }

  /** The values of {@code docs[0..count)} from a sorted index, as a vector of {@code type}. */
  public static Vector read(ColumnSources.Sorted source, SqlType type, int[] docs, int count) {
    SortedIndexReader reader = source.reader();
    return switch (source.valueType()) {
      case STRING -> {
        int[] ids = new int[count];
        reader.dictionaryIds(docs, count, ids);
        yield Vector.ofIds(type, count, ids, source.strings().orElseThrow());
      }
      case LONG -> {
        long[] values = new long[count];
        boolean[] nulls = new boolean[count];
        reader.longValues(docs, count, values, nulls);
        yield Vector.ofLongs(type, count, values, anyTrue(nulls, count) ? nulls : null);
      }
      case DOUBLE -> {
        double[] values = new double[count];
        boolean[] nulls = new boolean[count];
        reader.doubleValues(docs, count, values, nulls);
        yield Vector.ofDoubles(type, count, values, anyTrue(nulls, count) ? nulls : null);
      }
    };
  }

  private static boolean anyTrue(boolean[] flags, int count) {
    for (int i = 0; i < count; i++) {
      if (flags[i]) {
        return true;
      }
    }
    return false;
  }

  /** A view of a segment's STRING dictionary decoding each entry on first use (one per file). */
  static Vector.Dictionary strings(Dictionary dictionary) {
    return new StringDictionary(dictionary);
  }

  /** A segment's STRING dictionary, each entry decoded on first use. */
  private static final class StringDictionary implements Vector.Dictionary {
    private final Dictionary dictionary;
    private final String[] decoded;

    StringDictionary(Dictionary dictionary) {
      this.dictionary = dictionary;
      this.decoded = new String[dictionary.size()];
    }

    @Override
    public Object value(int id) {
      String value = decoded[id];
      if (value == null) {
        value = ((Value.StringValue) dictionary.value(id)).value();
        decoded[id] = value;
      }
      return value;
    }

    @Override
    public int size() {
      return decoded.length;
    }
  }
}
