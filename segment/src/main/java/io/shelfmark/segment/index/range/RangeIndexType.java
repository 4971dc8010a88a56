package io.shelfmark.segment.index.range;

import io.shelfmark.segment.predicate.ColumnPredicate;
import io.shelfmark.segment.spi.Coverage;
import io.shelfmark.segment.spi.CreatorContext;
import io.shelfmark.segment.spi.IndexCreator;
import io.shelfmark.segment.spi.IndexReader;
import io.shelfmark.segment.spi.IndexType;
import io.shelfmark.segment.spi.ReaderContext;
import io.shelfmark.segment.spi.ValueType;
import java.io.IOException;

/** A range bitmap: exact range, equality and IN on numeric, timestamp and dictionary columns. */
public final class RangeIndexType implements IndexType {
  /** The persisted id: part kind and config name. Never change it. */
  public static final String ID = "range";

  /** The layout version written (see the package documentation). */
  public static final int VERSION = 1;

  static final int MODE_VALUES = 0;
  static final int MODE_DICTIONARY_IDS = 1;
  static final int MODE_EMPTY = 2;

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
    // Strings have no numeric form of their own: rank them through the dictionary.
    return type == ValueType.STRING;
  }

  @Override
  public Coverage coverage(ValueType columnType, ColumnPredicate predicate) {
    return Coverage.EXACT;
  }

  @Override
  public int preference(ColumnPredicate predicate) {
    return 30;
  }

  @Override
  public IndexCreator newCreator(CreatorContext context) {
    return new RangeIndexCreator(context);
  }

  @Override
  public IndexReader openReader(ReaderContext context) throws IOException {
    return RangeIndexReader.open(context);
  }

  @Override
  public String toString() {
    return ID;
  }
}
