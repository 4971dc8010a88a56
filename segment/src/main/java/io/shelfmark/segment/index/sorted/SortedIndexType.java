package io.shelfmark.segment.index.sorted;

import io.shelfmark.segment.predicate.ColumnPredicate;
import io.shelfmark.segment.spi.Coverage;
import io.shelfmark.segment.spi.CreatorContext;
import io.shelfmark.segment.spi.IndexCreator;
import io.shelfmark.segment.spi.IndexReader;
import io.shelfmark.segment.spi.IndexType;
import io.shelfmark.segment.spi.ReaderContext;
import io.shelfmark.segment.spi.ValueType;
import java.io.IOException;

/** Value to a contiguous doc range, for columns sorted in doc order: exact, and cheapest. */
public final class SortedIndexType implements IndexType {
  /** The persisted id: part kind and config name. Never change it. */
  public static final String ID = "sorted";

  /** The layout version written (see the package documentation). */
  public static final int VERSION = 1;

  static final int DOMAIN_LONG = 0;
  static final int DOMAIN_DOUBLE = 1;
  static final int DOMAIN_DICTIONARY_IDS = 2;

  static final int STARTS_LISTED = 0;
  static final int STARTS_IDENTITY = 1;

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
    return type == ValueType.STRING;
  }

  @Override
  public Coverage coverage(ValueType columnType, ColumnPredicate predicate) {
    return Coverage.EXACT;
  }

  @Override
  public int preference(ColumnPredicate predicate) {
    return 10;
  }

  @Override
  public IndexCreator newCreator(CreatorContext context) {
    return new SortedIndexCreator(context);
  }

  @Override
  public IndexReader openReader(ReaderContext context) throws IOException {
    return SortedIndexReader.open(context);
  }

  @Override
  public String toString() {
    return ID;
  }
}
