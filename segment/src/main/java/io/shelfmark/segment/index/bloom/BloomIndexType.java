package io.shelfmark.segment.index.bloom;

import io.shelfmark.segment.predicate.ColumnPredicate;
import io.shelfmark.segment.predicate.In;
import io.shelfmark.segment.predicate.Range;
import io.shelfmark.segment.spi.Coverage;
import io.shelfmark.segment.spi.CreatorContext;
import io.shelfmark.segment.spi.IndexCreator;
import io.shelfmark.segment.spi.IndexReader;
import io.shelfmark.segment.spi.IndexType;
import io.shelfmark.segment.spi.ReaderContext;
import io.shelfmark.segment.spi.ValueType;
import java.io.IOException;

/** Per-block bloom filters: candidates for equality and IN on high-cardinality columns. */
public final class BloomIndexType implements IndexType {
  /** The persisted id: part kind and config name. Never change it. */
  public static final String ID = "bloom";

  /** The layout version written (see the package documentation). */
  public static final int VERSION = 1;

  /** Docs per filter: one RoaringBitmap container. */
  public static final int BLOCK_DOCS = 65536;

  /** Filter bits per distinct value of a block: about a 1% false positive rate. */
  public static final int BITS_PER_VALUE = 10;

  static final int HASH_VERSION = 1;

  /** The odd multipliers choosing one bit in each of a bucket's 8 words (part of the format). */
  static final int[] SALTS = {
    0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31
  };

  @Override
  public String id() {
    return ID;
  }

  @Override
  public int version() {
    return VERSION;
  }

  @Override
  public boolean supports(ValueType type) {
    return true;
  }

  @Override
  public boolean needsDictionary(ValueType type) {
    return false;
  }

  /**
   * The longest IN list a bloom index answers. Each value is probed in every block (8 words each):
   * 50,000 values cost about 50 µs per value per segment, seconds per query, and with that many
   * values nearly every block might match anyway; reading the column and testing each row against
   * the sorted list is cheaper.
   */
  public static final int MAX_IN_VALUES = 64;

  @Override
  public Coverage coverage(ValueType columnType, ColumnPredicate predicate) {
    return answers(predicate) ? Coverage.CANDIDATES : Coverage.NONE;
  }

  /** Whether a bloom index is worth asking about {@code predicate}. */
  static boolean answers(ColumnPredicate predicate) {
    return switch (predicate) {
      case Range range -> false;
      case In in -> in.values().size() <= MAX_IN_VALUES;
      default -> true;
    };
  }

  @Override
  public int preference(ColumnPredicate predicate) {
    return 40;
  }

  @Override
  public IndexCreator newCreator(CreatorContext context) {
    return new BloomIndexCreator(context);
  }

  @Override
  public IndexReader openReader(ReaderContext context) throws IOException {
    return BloomIndexReader.open(context);
  }

  @Override
  public String toString() {
    return ID;
  }
}
