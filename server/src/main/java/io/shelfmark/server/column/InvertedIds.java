package io.shelfmark.server.column;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.index.inverted.InvertedIndexReader;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * The dictionary id of each doc of one query's exact answer, read back from an inverted index: what
 * a forward index would give for those docs, made from the posting lists (each intersected once
 * with the docs). A GROUP BY, COUNT(DISTINCT), MIN or MAX of a column that has an inverted index
 * but no forward index then needs no Parquet page. Every non-null value of a doc is in exactly one
 * posting list, so a doc found in none is null.
 *
 * <p>Built for one doc set and used only for docs of it (ascending batches of the set, as {@link
 * io.shelfmark.server.exec.RowBatches} hands them). Not thread safe to build; immutable after.
 */
public final class InvertedIds {
  /**
   * Columns with more values than this are left to Parquet: making the ids costs one posting-list
   * intersection per value, and a column of more values than a query's rows is better read.
   */
  public static final int MAX_CARDINALITY = 1 << 16;

  private final RoaringBitmap docs;
  private final int[] idByRank;

  private InvertedIds(RoaringBitmap docs, int[] idByRank) {
    this.docs = docs;
    this.idByRank = idByRank;
  }

  /**
   * The ids of {@code docs} (which must not change afterwards) from {@code reader}, whose
   * dictionary holds {@code cardinality} values.
   */
  public static InvertedIds of(InvertedIndexReader reader, int cardinality, RoaringBitmap docs) {
    requireNonNull(reader, "reader is null");
    requireNonNull(docs, "docs is null");
    long size = docs.getLongCardinality();
    if (size > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("Cannot map " + size + " docs to ids");
    }
    int[] idByRank = new int[(int) size];
    java.util.Arrays.fill(idByRank, -1);
    for (int id = 0; id < cardinality && size > 0; id++) {
      RoaringBitmap hits = reader.postings(id).and(docs);
      IntIterator it = hits.getIntIterator();
      while (it.hasNext()) {
        idByRank[(int) docs.rankLong(it.next()) - 1] = id;
      }
    }
    return new InvertedIds(docs, idByRank);
  }

  /** Fills {@code ids[0..count)} with the ids of {@code docs[0..count)}, -1 for a null value. */
  public void ids(int[] docs, int count, int[] ids) {
    for (int i = 0; i < count; i++) {
      long rank = this.docs.rankLong(docs[i]);
      if (rank <= 0 || !this.docs.contains(docs[i])) {
        throw new IllegalArgumentException(
            "Cannot give the id of doc "
                + docs[i]
                + ": it is not among the docs the ids were made for");
      }
      ids[i] = idByRank[(int) rank - 1];
    }
  }
}
