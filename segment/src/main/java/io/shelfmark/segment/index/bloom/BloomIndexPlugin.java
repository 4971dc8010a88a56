package io.shelfmark.segment.index.bloom;

import io.shelfmark.segment.spi.IndexPlugin;
import io.shelfmark.segment.spi.IndexType;

/** Registers {@link BloomIndexType} with {@link java.util.ServiceLoader}. */
public final class BloomIndexPlugin implements IndexPlugin {
  @Override
  public IndexType indexType() {
    return new BloomIndexType();
  }
}
