package io.shelfmark.segment.index.range;

import io.shelfmark.segment.spi.IndexPlugin;
import io.shelfmark.segment.spi.IndexType;

/** Registers {@link RangeIndexType} with {@link java.util.ServiceLoader}. */
public final class RangeIndexPlugin implements IndexPlugin {
  @Override
  public IndexType indexType() {
    return new RangeIndexType();
  }
}
