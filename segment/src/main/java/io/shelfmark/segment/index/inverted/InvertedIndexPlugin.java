package io.shelfmark.segment.index.inverted;

import io.shelfmark.segment.spi.IndexPlugin;
import io.shelfmark.segment.spi.IndexType;

/** Registers {@link InvertedIndexType} with {@link java.util.ServiceLoader}. */
public final class InvertedIndexPlugin implements IndexPlugin {
  @Override
  public IndexType indexType() {
    return new InvertedIndexType();
  }
}
