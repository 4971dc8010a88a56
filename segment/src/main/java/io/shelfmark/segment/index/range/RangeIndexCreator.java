package io.shelfmark.segment.index.range;

import io.shelfmark.segment.format.PartWriter;
import io.shelfmark.segment.predicate.LongIntervals;
import io.shelfmark.segment.spi.CreatorContext;
import io.shelfmark.segment.spi.IndexCreator;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueBatch;
import io.shelfmark.segment.spi.ValueType;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.roaringbitmap.RangeBitmap;

/**
 * Streams each doc's relative value into a {@link RangeBitmap} appender: the column's minimum and
 * maximum are known from its profile before the first doc arrives, so nothing is buffered but the
 * appender's own slices.
 */
final class RangeIndexCreator implements IndexCreator {
  private final int mode;
  private final ValueType type;
  private final long base;
  private final long maxRelative;
  private final boolean nullsEncoded;
  private final long nullSlot;
  private final RangeBitmap.Appender appender;

  RangeIndexCreator(CreatorContext context) {
    this.type = context.column().type();
    if (context.profile().nonNullCount() == 0) {
      mode = RangeIndexType.MODE_EMPTY;
      base = 0;
      maxRelative = 0;
    } else if (context.dictionary().isPresent()) {
      mode = RangeIndexType.MODE_DICTIONARY_IDS;
      base = 0;
      maxRelative = context.dictionary().get().size() - 1;
    } else {
      mode = RangeIndexType.MODE_VALUES;
      base = LongIntervals.toDomain(context.profile().min().orElseThrow());
      maxRelative = LongIntervals.toDomain(context.profile().max().orElseThrow()) - base;
    }
    // Unsigned: maxRelative == -1 means the values span the whole long range, leaving no free slot.
    nullsEncoded = maxRelative != -1L;
    nullSlot = nullsEncoded ? maxRelative + 1 : 0;
    appender =
        mode == RangeIndexType.MODE_EMPTY
            ? null
            : RangeBitmap.appender(nullsEncoded ? nullSlot : maxRelative);
  }

  @Override
  public void add(ValueBatch batch) {
    if (appender == null) {
      return;
    }
    int count = batch.count();
    if (mode == RangeIndexType.MODE_DICTIONARY_IDS) {
      int[] ids = batch.dictionaryIds();
      for (int i = 0; i < count; i++) {
        appender.add(ids[i] < 0 ? nullSlot : ids[i]);
      }
    } else if (type == ValueType.LONG) {
      long[] values = batch.longs();
      for (int i = 0; i < count; i++) {
        appender.add(batch.isNull(i) ? nullSlot : values[i] - base);
      }
    } else {
      double[] values = batch.doubles();
      for (int i = 0; i < count; i++) {
        appender.add(batch.isNull(i) ? nullSlot : Value.sortableBits(values[i]) - base);
      }
    }
  }

  @Override
  public Optional<byte[]> seal() {
    PartWriter out = new PartWriter(64);
    out.putByte(mode).putLong(base).putLong(maxRelative).putByte(nullsEncoded ? 1 : 0);
    if (appender == null) {
      out.putVarInt(0);
    } else {
      ByteBuffer serialized = ByteBuffer.allocate(appender.serializedSizeInBytes());
      appender.serialize(serialized);
      out.putVarInt(serialized.capacity()).putBytes(serialized.array());
    }
    return Optional.of(out.toByteArray());
  }
}
