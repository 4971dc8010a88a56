package io.shelfmark.segment.index.forward;

import io.shelfmark.segment.spi.IndexPlugin;
import io.shelfmark.segment.spi.IndexType;

/** Registers {@link ForwardIndexType} with {@link java.util.ServiceLoader}. */
public final class ForwardIndexPlugin implements IndexPlugin {
  @Override
  public IndexType indexType() {
    return new ForwardIndexType();
  }
}
