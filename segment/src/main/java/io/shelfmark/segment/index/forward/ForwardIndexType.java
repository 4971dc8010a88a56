package io.shelfmark.segment.index.forward;

import io.shelfmark.segment.predicate.ColumnPredicate;
import io.shelfmark.segment.spi.Coverage;
import io.shelfmark.segment.spi.CreatorContext;
import io.shelfmark.segment.spi.IndexCreator;
import io.shelfmark.segment.spi.IndexReader;
import io.shelfmark.segment.spi.IndexType;
import io.shelfmark.segment.spi.ReaderContext;
import io.shelfmark.segment.spi.ValueType;
import java.io.IOException;

/** Doc to dictionary id, bit-packed: GROUP BY without Parquet; comparisons by scan. */
public final class ForwardIndexType implements IndexType {
  /** The persisted id: part kind and config name. Never change it. */
  public static final String ID = "forward";

  /** The layout version written (see the package documentation). */
  public static final int VERSION = 1;

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
    return true;
  }

  @Override
  public Coverage coverage(ValueType columnType, ColumnPredicate predicate) {
    return Coverage.EXACT;
  }

  @Override
  public int preference(ColumnPredicate predicate) {
    return 90;
  }

  @Override
  public IndexCreator newCreator(CreatorContext context) {
    return new ForwardIndexCreator(context);
  }

  @Override
  public IndexReader openReader(ReaderContext context) throws IOException {
    return ForwardIndexReader.open(context);
  }

  @Override
  public String toString() {
    return ID;
  }
}
