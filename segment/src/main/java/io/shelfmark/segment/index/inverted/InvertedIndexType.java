package io.shelfmark.segment.index.inverted;

import io.shelfmark.segment.predicate.ColumnPredicate;
import io.shelfmark.segment.predicate.Range;
import io.shelfmark.segment.spi.Coverage;
import io.shelfmark.segment.spi.CreatorContext;
import io.shelfmark.segment.spi.IndexCreator;
import io.shelfmark.segment.spi.IndexReader;
import io.shelfmark.segment.spi.IndexType;
import io.shelfmark.segment.spi.ReaderContext;
import io.shelfmark.segment.spi.ValueType;
import java.io.IOException;

/** Dictionary id to a bitmap of docs: exact equality, IN and ranges on any column type. */
public final class InvertedIndexType implements IndexType {
  /** The persisted id: part kind and config name. Never change it. */
  public static final String ID = "inverted";

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
    // A range unions one bitmap per id in it: a range bitmap is usually cheaper.
    return predicate instanceof Range ? 35 : 20;
  }

  @Override
  public IndexCreator newCreator(CreatorContext context) {
    return new InvertedIndexCreator(context);
  }

  @Override
  public IndexReader openReader(ReaderContext context) throws IOException {
    return InvertedIndexReader.open(context);
  }

  @Override
  public String toString() {
    return ID;
  }
}
