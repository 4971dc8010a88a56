package io.shelfmark.parquet.decode;

/**
 * Decompressed bodies of data pages kept across reads, so that a page read again (a dashboard's
 * repeated query) skips decompression, the largest cost of decoding the pages of a selective query.
 * A page is named by its file (path and size: Iceberg data files are immutable, so the pair names
 * the bytes) and the offset of its header in that file. A kept v1 page decodes from its {@link
 * DecompressedPage} alone, so a reader that finds one before fetching need not fetch the page at
 * all; a v2 page still needs its levels from the file.
 *
 * <p>Implementations are thread safe. Bodies are shared by every reader of the page: nobody writes
 * into an array once it was handed to {@link #keep} or returned by {@link #find}.
 */
public interface DecompressedPages {
  /** Keeps nothing: every page is decompressed each time. */
  DecompressedPages NONE =
      new DecompressedPages() {
        @Override
        public DecompressedPage find(String file, long fileSize, long pageOffset) {
          return null;
        }

        @Override
        public void keep(String file, long fileSize, long pageOffset, DecompressedPage page) {}

        @Override
        public void invalidateAll() {}

        @Override
        public String toString() {
          return "DecompressedPages.NONE";
        }
      };

  /** The kept page whose header is at {@code pageOffset}, or null. */
  DecompressedPage find(String file, long fileSize, long pageOffset);

  /** Keeps {@code page}, whose body from now on must not be written to, if room allows. */
  void keep(String file, long fileSize, long pageOffset, DecompressedPage page);

  /** Drops every kept body (readers holding one keep using it). */
  void invalidateAll();
}
