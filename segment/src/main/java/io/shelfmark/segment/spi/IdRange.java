package io.shelfmark.segment.spi;

/**
 * An inclusive range of dictionary ids, {@code first..last}; empty when {@code first > last}.
 *
 * @param first the first id in the range
 * @param last the last id in the range
 */
public record IdRange(int first, int last) {
  public static final IdRange EMPTY = new IdRange(0, -1);

  public boolean isEmpty() {
    return first > last;
  }

  /** The number of ids in the range. */
  public int size() {
    return isEmpty() ? 0 : last - first + 1;
  }
}
