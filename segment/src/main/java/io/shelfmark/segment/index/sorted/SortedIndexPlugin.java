package io.shelfmark.segment.index.sorted;

import io.shelfmark.segment.spi.IndexPlugin;
import io.shelfmark.segment.spi.IndexType;

/** Registers {@link SortedIndexType} with {@link java.util.ServiceLoader}. */
public final class SortedIndexPlugin implements IndexPlugin {
  @Override
  public IndexType indexType() {
    return new SortedIndexType();
  }
}
