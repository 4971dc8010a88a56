package io.shelfmark.segment.index.inverted;

import io.shelfmark.segment.encoding.MonotoneLongs;
import io.shelfmark.segment.format.PartWriter;
import io.shelfmark.segment.spi.CreatorContext;
import io.shelfmark.segment.spi.IndexCreator;
import io.shelfmark.segment.spi.ValueBatch;
import java.util.Arrays;
import java.util.Optional;

/**
 * Builds the inverted index from dictionary ids: keeps each doc's id, then at seal groups the docs
 * by id with a counting sort (docs stay ascending within an id) and writes one {@link PostingList}
 * per id. Memory: 8 bytes per doc at seal, one list at a time.
 */
final class InvertedIndexCreator implements IndexCreator {
  private final int cardinality;
  private int[] ids = new int[1024];
  private int docCount;

  InvertedIndexCreator(CreatorContext context) {
    this.cardinality =
        context
            .dictionary()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "Cannot build an inverted index on column %s without a dictionary"
                            .formatted(context.column().name())))
            .size();
  }

  @Override
  public void add(ValueBatch batch) {
    int count = batch.count();
    if (docCount + count > ids.length) {
      ids = Arrays.copyOf(ids, Math.max(docCount + count, ids.length * 2));
    }
    System.arraycopy(batch.dictionaryIds(), 0, ids, docCount, count);
    docCount += count;
  }

  @Override
  public Optional<byte[]> seal() {
    // The loops live in small methods of their own: seal() runs once per column, and the JIT
    // compiles a small hot method sooner than it replaces a running large one.
    int[] starts = starts(ids, docCount, cardinality);
    int[] docsById = docsById(ids, docCount, starts, cardinality);
    ids = null;
    PartWriter postings = new PartWriter(Math.max(64, docsById.length));
    long[] offsets = new long[cardinality + 1];
    for (int id = 0; id < cardinality; id++) {
      PostingList.write(postings, docsById, starts[id], starts[id + 1] - starts[id]);
      offsets[id + 1] = postings.size();
    }
    PartWriter out = new PartWriter(16 + cardinality * 2 + postings.size());
    out.putVarInt(cardinality);
    MonotoneLongs.write(out, offsets, cardinality + 1);
    out.putBytes(postings.toByteArray());
    return Optional.of(out.toByteArray());
  }

  /** Where each id's docs start in the grouped order (a prefix sum of the ids' counts). */
  private static int[] starts(int[] ids, int docCount, int cardinality) {
    int[] starts = new int[cardinality + 1];
    for (int doc = 0; doc < docCount; doc++) {
      int id = ids[doc];
      if (id >= 0) {
        starts[id + 1]++;
      }
    }
    for (int id = 0; id < cardinality; id++) {
      starts[id + 1] += starts[id];
    }
    return starts;
  }

  /** The non-null docs grouped by id, ascending within each id. */
  private static int[] docsById(int[] ids, int docCount, int[] starts, int cardinality) {
    int[] docsById = new int[starts[cardinality]];
    int[] next = Arrays.copyOf(starts, cardinality);
    for (int doc = 0; doc < docCount; doc++) {
      int id = ids[doc];
      if (id >= 0) {
        docsById[next[id]++] = doc;
      }
    }
    return docsById;
  }
}
