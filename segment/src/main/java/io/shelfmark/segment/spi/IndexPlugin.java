package io.shelfmark.segment.spi;

/**
 * Registers an {@link IndexType} with {@link java.util.ServiceLoader}: list the implementation in
 * {@code META-INF/services/io.shelfmark.segment.spi.IndexPlugin}. Implementations have a public
 * no-argument constructor and no state.
 */
public interface IndexPlugin {
  IndexType indexType();
}
