package io.shelfmark.segment.build;

import io.shelfmark.segment.metadata.ColumnStatistics;
import io.shelfmark.segment.spi.ColumnProfile;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueBatch;
import io.shelfmark.segment.spi.ValueType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.RoaringBitmapWriter;

/**
 * A sealed column's values in doc order — final dictionary ids (-1 for null) or raw values with
 * null flags — and the summaries computed from them: profile, statistics per doc range, the null
 * bitmap and the batch fed to index creators.
 */
final class ColumnValues {
  private final ValueType type;
  private final int docCount;
  private final int[] ids;
  private final Optional<Dictionary> dictionary;
  private final long[] longs;
  private final double[] doubles;
  private final byte[] bytes;
  private final int[] offsets;
  private final boolean[] nulls;

  ColumnValues(
      ValueType type,
      int docCount,
      int[] ids,
      Optional<Dictionary> dictionary,
      long[] longs,
      double[] doubles,
      byte[] bytes,
      int[] offsets,
      boolean[] nulls) {
    this.type = type;
    this.docCount = docCount;
    this.ids = dictionary.isPresent() ? ids : null;
    this.dictionary = dictionary;
    this.longs = longs;
    this.doubles = doubles;
    this.bytes = bytes;
    this.offsets = offsets;
    this.nulls = nulls;
  }

  boolean isNull(int doc) {
    return ids != null ? ids[doc] < 0 : nulls[doc];
  }

  /** Compares two non-null docs' values in {@link Value} order. */
  int compare(int a, int b) {
    if (ids != null) {
      return Integer.compare(ids[a], ids[b]);
    }
    return switch (type) {
      case LONG -> Long.compare(longs[a], longs[b]);
      case DOUBLE -> Long.compare(Value.sortableBits(doubles[a]), Value.sortableBits(doubles[b]));
      case STRING ->
          Arrays.compareUnsigned(
              bytes, offsets[a], offsets[a + 1], bytes, offsets[b], offsets[b + 1]);
    };
  }

  Value value(int doc) {
    if (ids != null) {
      return dictionary.orElseThrow().value(ids[doc]);
    }
    return switch (type) {
      case LONG -> Value.of(longs[doc]);
      case DOUBLE -> Value.of(doubles[doc]);
      case STRING ->
          Value.of(
              new String(
                  bytes, offsets[doc], offsets[doc + 1] - offsets[doc], StandardCharsets.UTF_8));
    };
  }

  /** One pass: nulls, min, max and whether the values are sorted with nulls only at the ends. */
  ColumnProfile profile() {
    if (ids != null) {
      return profileOfIds();
    }
    if (type == ValueType.LONG) {
      return profileOfLongs();
    }
    int nullCount = 0;
    int minDoc = -1;
    int maxDoc = -1;
    int previous = -1;
    boolean sorted = true;
    int leading = 0;
    int trailing = 0;
    for (int doc = 0; doc < docCount; doc++) {
      if (isNull(doc)) {
        nullCount++;
        if (previous < 0) {
          leading++;
        } else {
          trailing++;
        }
        continue;
      }
      if (trailing > 0) {
        sorted = false; // a value after a null that followed values: nulls in the middle
      }
      if (previous >= 0 && compare(doc, previous) < 0) {
        sorted = false;
      }
      if (minDoc < 0 || compare(doc, minDoc) < 0) {
        minDoc = doc;
      }
      if (maxDoc < 0 || compare(doc, maxDoc) > 0) {
        maxDoc = doc;
      }
      previous = doc;
    }
    return profile(nullCount, minDoc, maxDoc, sorted, leading, trailing);
  }

  private ColumnProfile profile(
      int nullCount, int minDoc, int maxDoc, boolean sorted, int leading, int trailing) {
    Optional<Value> min = minDoc < 0 ? Optional.empty() : Optional.of(value(minDoc));
    Optional<Value> max = maxDoc < 0 ? Optional.empty() : Optional.of(value(maxDoc));
    if (!sorted) {
      leading = 0;
      trailing = 0;
    }
    return new ColumnProfile(docCount, nullCount, min, max, sorted, leading, trailing);
  }

  // The two loops below are profile() specialised to dictionary ids and to longs, the common
  // cases, comparing primitives in place of compare(): same results, a fraction of the cost.

  private ColumnProfile profileOfIds() {
    int nullCount = 0;
    int leading = 0;
    int trailing = 0;
    int minDoc = -1;
    int maxDoc = -1;
    int min = Integer.MAX_VALUE;
    int max = Integer.MIN_VALUE;
    int previous = Integer.MIN_VALUE;
    boolean sorted = true;
    for (int doc = 0; doc < docCount; doc++) {
      int id = ids[doc];
      if (id < 0) {
        nullCount++;
        if (minDoc < 0) {
          leading++;
        } else {
          trailing++;
        }
        continue;
      }
      sorted &= trailing == 0 && id >= previous;
      if (id < min) {
        min = id;
        minDoc = doc;
      }
      if (id > max) {
        max = id;
        maxDoc = doc;
      }
      previous = id;
    }
    return profile(nullCount, minDoc, maxDoc, sorted, leading, trailing);
  }

  private ColumnProfile profileOfLongs() {
    int nullCount = 0;
    int leading = 0;
    int trailing = 0;
    int minDoc = -1;
    int maxDoc = -1;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    long previous = Long.MIN_VALUE;
    boolean sorted = true;
    for (int doc = 0; doc < docCount; doc++) {
      if (nulls[doc]) {
        nullCount++;
        if (minDoc < 0) {
          leading++;
        } else {
          trailing++;
        }
        continue;
      }
      long value = longs[doc];
      sorted &= trailing == 0 && value >= previous;
      if (minDoc < 0 || value < min) {
        min = value;
        minDoc = doc;
      }
      if (maxDoc < 0 || value > max) {
        max = value;
        maxDoc = doc;
      }
      previous = value;
    }
    return profile(nullCount, minDoc, maxDoc, sorted, leading, trailing);
  }

  /**
   * Statistics of each range. A file's are its row groups' combined when the row groups tile it, so
   * the docs are read once rather than once for the file and again for its row groups.
   */
  List<ColumnStatistics> statistics(List<DocRange> ranges) {
    int count = ranges.size();
    // Per range: nulls, and the extremes as dictionary ids, or as docs without a dictionary; -1
    // means none (every doc null).
    int[] nullCounts = new int[count];
    int[] mins = new int[count];
    int[] maxes = new int[count];
    for (int i = 0; i < count; i++) {
      if (ranges.get(i).rowGroup() >= 0) {
        scan(ranges.get(i), i, nullCounts, mins, maxes);
      }
    }
    for (int i = 0; i < count; i++) {
      DocRange range = ranges.get(i);
      if (range.rowGroup() < 0 && !combineRowGroups(ranges, i, nullCounts, mins, maxes)) {
        scan(range, i, nullCounts, mins, maxes);
      }
    }
    List<ColumnStatistics> statistics = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      DocRange range = ranges.get(i);
      statistics.add(
          new ColumnStatistics(
              range.end() - range.start(),
              OptionalLong.of(nullCounts[i]),
              extreme(mins[i]),
              extreme(maxes[i])));
    }
    return statistics;
  }

  private Optional<Value> extreme(int idOrDoc) {
    if (idOrDoc < 0) {
      return Optional.empty();
    }
    return Optional.of(ids != null ? dictionary.orElseThrow().value(idOrDoc) : value(idOrDoc));
  }

  /** Combines the row groups of file range {@code file} into it when they tile it exactly. */
  private boolean combineRowGroups(
      List<DocRange> ranges, int file, int[] nullCounts, int[] mins, int[] maxes) {
    DocRange target = ranges.get(file);
    int covered = target.start();
    int nullCount = 0;
    int min = -1;
    int max = -1;
    for (int i = 0; i < ranges.size(); i++) {
      DocRange group = ranges.get(i);
      if (group.rowGroup() < 0 || group.file() != target.file()) {
        continue;
      }
      if (group.start() != covered) {
        return false;
      }
      covered = group.end();
      nullCount += nullCounts[i];
      if (mins[i] >= 0) {
        min = min < 0 || below(mins[i], min) ? mins[i] : min;
        max = max < 0 || below(max, maxes[i]) ? maxes[i] : max;
      }
    }
    if (covered != target.end()) {
      return false;
    }
    nullCounts[file] = nullCount;
    mins[file] = min;
    maxes[file] = max;
    return true;
  }

  /** Whether extreme {@code a} (an id, or a doc) is below extreme {@code b}. */
  private boolean below(int a, int b) {
    return ids != null ? a < b : compare(a, b) < 0;
  }

  private void scan(DocRange range, int i, int[] nullCounts, int[] mins, int[] maxes) {
    if (ids != null) {
      scanIds(range.start(), range.end(), i, nullCounts, mins, maxes);
      return;
    }
    int nullCount = 0;
    int minDoc = -1;
    int maxDoc = -1;
    for (int doc = range.start(); doc < range.end(); doc++) {
      if (isNull(doc)) {
        nullCount++;
      } else {
        if (minDoc < 0 || compare(doc, minDoc) < 0) {
          minDoc = doc;
        }
        if (maxDoc < 0 || compare(doc, maxDoc) > 0) {
          maxDoc = doc;
        }
      }
    }
    nullCounts[i] = nullCount;
    mins[i] = minDoc;
    maxes[i] = maxDoc;
  }

  private void scanIds(int start, int end, int i, int[] nullCounts, int[] mins, int[] maxes) {
    int nullCount = 0;
    int min = Integer.MAX_VALUE;
    int max = -1;
    for (int doc = start; doc < end; doc++) {
      int id = ids[doc];
      if (id < 0) {
        nullCount++;
      } else {
        min = Math.min(min, id);
        max = Math.max(max, id);
      }
    }
    nullCounts[i] = nullCount;
    mins[i] = max < 0 ? -1 : min;
    maxes[i] = max;
  }

  RoaringBitmap nullBitmap() {
    RoaringBitmapWriter<RoaringBitmap> writer = RoaringBitmapWriter.writer().get();
    for (int doc = 0; doc < docCount; doc++) {
      if (isNull(doc)) {
        writer.add(doc);
      }
    }
    return writer.get();
  }

  /** Every doc as one batch over the buffers (no copy). */
  ValueBatch batch() {
    if (ids != null) {
      return ValueBatch.ofDictionaryIds(type, ids, docCount);
    }
    return switch (type) {
      case LONG -> ValueBatch.ofLongs(longs, nulls, docCount);
      case DOUBLE -> ValueBatch.ofDoubles(doubles, nulls, docCount);
      case STRING -> ValueBatch.ofBinary(bytes, offsets, nulls, docCount);
    };
  }
}
