package io.shelfmark.cache;

/** Where one read through a {@link TieredCache} found its bytes. */
public enum ReadSource {
  /** The memory tier held them. */
  MEMORY,
  /** The disk tier held them (they are copied into memory when the policy uses it). */
  DISK,
  /**
   * A concurrent read of the same range was fetching them: this read waited and shared its bytes.
   */
  IN_FLIGHT,
  /** No tier held them: fetched from the object store. */
  FETCH;

  /**
   * Told where each read found its bytes, on the reading thread, once per successful read. Must be
   * thread safe when one listener serves reads on several threads.
   */
  @FunctionalInterface
  public interface Listener {
    /** Listens to nothing. */
    Listener NONE = source -> {};

    void answered(ReadSource source);
  }
}
