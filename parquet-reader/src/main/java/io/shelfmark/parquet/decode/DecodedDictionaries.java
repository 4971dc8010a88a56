package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.batch.PrimitiveValues;

/**
 * Decoded dictionary pages kept across reads, so a query reading a few rows of a dictionary-encoded
 * chunk again does not decompress and decode the chunk's whole dictionary again: on a
 * pyiceberg-written file (2 MiB dictionaries) that was 5–8 ms of a point query's server time, more
 * than decoding its data pages. A dictionary is named as a page is ({@link DecompressedPages}): its
 * file's path and size, and the offset of its header.
 *
 * <p>Implementations are thread safe. Values are shared by every reader of the chunk: nobody writes
 * into the arrays of a {@link PrimitiveValues} handed to {@link #keep} or returned by {@link
 * #find}.
 */
public interface DecodedDictionaries {
  /** Keeps nothing: every dictionary page is decoded each time. */
  DecodedDictionaries NONE =
      new DecodedDictionaries() {
        @Override
        public PrimitiveValues find(String file, long fileSize, long pageOffset) {
          return null;
        }

        @Override
        public void keep(String file, long fileSize, long pageOffset, PrimitiveValues values) {}

        @Override
        public void invalidateAll() {}

        @Override
        public String toString() {
          return "DecodedDictionaries.NONE";
        }
      };

  /** The decoded dictionary whose page header is at {@code pageOffset}, or null. */
  PrimitiveValues find(String file, long fileSize, long pageOffset);

  /** Keeps {@code values}, which from now on must not be written to, if room allows. */
  void keep(String file, long fileSize, long pageOffset, PrimitiveValues values);

  /** Drops every kept dictionary (readers holding one keep using it). */
  void invalidateAll();
}
