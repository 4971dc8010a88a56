package io.shelfmark.storage.spi;

import static java.util.Objects.checkFromIndexSize;

import java.io.IOException;
import java.io.InputStream;

/**
 * Where a ranged read puts its bytes: consecutive arrays ("pieces") of lengths the caller chose,
 * together holding the range. A reader of Parquet pages cuts a merged GET of a few MiB at its
 * pages' edges, so that each page arrives in an array of its own and no array is as large as half a
 * G1 region: an array that large is allocated outside the young generation, and allocating one per
 * GET kept restarting the collector's concurrent cycles (docs/performance.md, "GC: humongous
 * allocations").
 *
 * <p>Not thread safe: one read fills it; the caller reads a piece once progress reports it filled.
 */
public final class RangeBuffers {
  private final byte[][] pieces;
  private final int[] starts; // starts[i]: offset of piece i in the range; starts[count]: length

  private RangeBuffers(int[] lengths) {
    this.pieces = new byte[lengths.length][];
    this.starts = new int[lengths.length + 1];
    long total = 0;
    for (int i = 0; i < lengths.length; i++) {
      if (lengths[i] <= 0) {
        throw new IllegalArgumentException(
            "Cannot make a range buffer with a piece of %d bytes".formatted(lengths[i]));
      }
      starts[i] = (int) total;
      total += lengths[i];
      if (total > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException("Cannot make a range buffer of " + total + " bytes");
      }
      pieces[i] = new byte[lengths[i]];
    }
    starts[lengths.length] = (int) total;
  }

  /** One array of {@code length} bytes (none for 0). */
  public static RangeBuffers single(int length) {
    if (length < 0) {
      throw new IllegalArgumentException("Cannot make a range buffer of " + length + " bytes");
    }
    return new RangeBuffers(length == 0 ? new int[0] : new int[] {length});
  }

  /** Consecutive pieces of these lengths (each positive). */
  public static RangeBuffers pieces(int... lengths) {
    return new RangeBuffers(lengths.clone());
  }

  /** The bytes of the whole range. */
  public int length() {
    return starts[pieces.length];
  }

  public int pieceCount() {
    return pieces.length;
  }

  /** Piece {@code index}'s array, exactly its length. */
  public byte[] piece(int index) {
    return pieces[index];
  }

  /** Where piece {@code index} starts in the range. */
  public int pieceStart(int index) {
    return starts[index];
  }

  /** The piece holding byte {@code position} of the range ({@code 0 <= position < length()}). */
  public int pieceAt(int position) {
    checkFromIndexSize(position, 1, length());
    int low = 0;
    int high = pieces.length - 1;
    while (low < high) {
      int mid = (low + high + 1) >>> 1;
      if (starts[mid] <= position) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return low;
  }

  /** Copies bytes {@code [from, from + count)} of the range into {@code target} at {@code at}. */
  public void copyTo(int from, byte[] target, int at, int count) {
    checkFromIndexSize(from, count, length());
    checkFromIndexSize(at, count, target.length);
    int piece = count == 0 ? 0 : pieceAt(from);
    while (count > 0) {
      int inPiece = from - starts[piece];
      int n = Math.min(count, pieces[piece].length - inPiece);
      System.arraycopy(pieces[piece], inPiece, target, at, n);
      from += n;
      at += n;
      count -= n;
      piece++;
    }
  }

  /**
   * Copies all of {@code source}, which must be exactly {@link #length()} bytes, into the range.
   */
  public void copyFrom(byte[] source) {
    if (source.length != length()) {
      throw new IllegalArgumentException(
          "Cannot fill a range buffer of %d bytes with %d bytes"
              .formatted(length(), source.length));
    }
    for (int i = 0; i < pieces.length; i++) {
      System.arraycopy(source, starts[i], pieces[i], 0, pieces[i].length);
    }
  }

  /**
   * Reads from {@code in} into the range at {@code position}, at most up to the end of the piece
   * holding it; returns the bytes read, or -1 at the stream's end.
   */
  public int readFrom(InputStream in, int position) throws IOException {
    int piece = pieceAt(position);
    int inPiece = position - starts[piece];
    return in.read(pieces[piece], inPiece, pieces[piece].length - inPiece);
  }
}
