package io.shelfmark.segment.index.forward;

import io.shelfmark.segment.encoding.BitPacking;
import io.shelfmark.segment.format.PartWriter;
import io.shelfmark.segment.spi.CreatorContext;
import io.shelfmark.segment.spi.IndexCreator;
import io.shelfmark.segment.spi.ValueBatch;
import java.util.Arrays;
import java.util.Optional;

/** Keeps each doc's id (nulls as {@code cardinality}) and bit-packs them at seal. */
final class ForwardIndexCreator implements IndexCreator {
  private final int cardinality;
  private int[] ids = new int[1024];
  private int docCount;

  ForwardIndexCreator(CreatorContext context) {
    this.cardinality =
        context
            .dictionary()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "Cannot build a forward index on column %s without a dictionary"
                            .formatted(context.column().name())))
            .size();
  }

  @Override
  public void add(ValueBatch batch) {
    int count = batch.count();
    if (docCount + count > ids.length) {
      ids = Arrays.copyOf(ids, Math.max(docCount + count, ids.length * 2));
    }
    int[] batchIds = batch.dictionaryIds();
    for (int i = 0; i < count; i++) {
      int id = batchIds[i];
      ids[docCount + i] = id < 0 ? cardinality : id;
    }
    docCount += count;
  }

  @Override
  public Optional<byte[]> seal() {
    int width = BitPacking.bitWidth(cardinality);
    PartWriter out = new PartWriter(16 + BitPacking.wordCount(docCount, width) * 8);
    out.putVarInt(docCount).putVarInt(cardinality).putByte(width);
    BitPacking.writeInts(out, ids, docCount, width);
    return Optional.of(out.toByteArray());
  }
}
