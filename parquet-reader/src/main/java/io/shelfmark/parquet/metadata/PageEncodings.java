package io.shelfmark.parquet.metadata;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.List;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.PageEncodingStats;
import org.apache.parquet.format.PageType;

/**
 * Which data pages of one column chunk are dictionary-encoded, when that is known. Parquet's
 * OffsetIndex does not say, so a reader that knows nothing must fetch the chunk's dictionary page
 * with any of its data pages; with this it fetches the dictionary only for a page that needs it
 * (writers fall back from dictionary to PLAIN pages once a dictionary grows past their limit, and a
 * query reading only the PLAIN pages then needs no dictionary).
 *
 * <p>Known from a walk over the page headers (each data page header names its encoding) or, for
 * chunks located by their OffsetIndex, from the footer's {@code encoding_stats} ({@link
 * #fromEncodingStats}). {@link #UNKNOWN} means every page may need the dictionary. Immutable and
 * thread safe.
 */
public final class PageEncodings {
  /** Nothing known: every data page may be dictionary-encoded. */
  public static final PageEncodings UNKNOWN = new PageEncodings(null);

  private final boolean[] dictionaryEncoded; // per data page; null when unknown

  private PageEncodings(boolean[] dictionaryEncoded) {
    this.dictionaryEncoded = dictionaryEncoded;
  }

  /** Known encodings: {@code dictionaryEncoded[i]} says whether data page {@code i} is. */
  public static PageEncodings of(boolean[] dictionaryEncoded) {
    requireNonNull(dictionaryEncoded, "dictionaryEncoded is null");
    return new PageEncodings(dictionaryEncoded.clone());
  }

  /**
   * The first {@code dictionaryPages} of {@code pageCount} pages dictionary-encoded, the rest not.
   */
  public static PageEncodings firstDictionaryEncoded(int dictionaryPages, int pageCount) {
    if (dictionaryPages < 0 || dictionaryPages > pageCount) {
      throw new IllegalArgumentException(
          "Cannot mark %d of %d data pages dictionary-encoded"
              .formatted(dictionaryPages, pageCount));
    }
    boolean[] flags = new boolean[pageCount];
    Arrays.fill(flags, 0, dictionaryPages, true);
    return new PageEncodings(flags);
  }

  /**
   * The encodings of a chunk's {@code pageCount} data pages from its {@code encoding_stats} (pages
   * per type and encoding, written by parquet-java and by parquet-cpp, hence pyarrow), or {@link
   * #UNKNOWN} when the footer has none or they do not count {@code pageCount} data pages.
   *
   * <p>When some pages are dictionary-encoded and some not, the stats give only the counts: the
   * dictionary-encoded ones are taken to come first. Both writers that produce such chunks fall
   * back once and for the rest of the chunk (parquet-java's fallback values writer, parquet-cpp's
   * fallback to PLAIN), and a dictionary-encoded page never follows a PLAIN one; the decoder
   * refuses a page that contradicts this rather than decoding it without its dictionary.
   */
  public static PageEncodings fromEncodingStats(ColumnMetaData chunk, int pageCount) {
    List<PageEncodingStats> stats = chunk.getEncoding_stats();
    if (stats == null || stats.isEmpty()) {
      return UNKNOWN;
    }
    long dataPages = 0;
    long dictionaryPages = 0;
    for (PageEncodingStats stat : stats) {
      if (stat.getPage_type() == PageType.DATA_PAGE
          || stat.getPage_type() == PageType.DATA_PAGE_V2) {
        dataPages += stat.getCount();
        if (isDictionary(stat.getEncoding())) {
          dictionaryPages += stat.getCount();
        }
      }
    }
    if (dataPages != pageCount) {
      return UNKNOWN;
    }
    return firstDictionaryEncoded((int) dictionaryPages, pageCount);
  }

  /** Whether a data page of this encoding refers to the chunk's dictionary page. */
  public static boolean isDictionary(Encoding encoding) {
    return encoding == Encoding.PLAIN_DICTIONARY || encoding == Encoding.RLE_DICTIONARY;
  }

  public boolean known() {
    return dictionaryEncoded != null;
  }

  /** The number of pages described (0 when unknown). */
  public int pageCount() {
    return dictionaryEncoded == null ? 0 : dictionaryEncoded.length;
  }

  /** Whether data page {@code page} may need the chunk's dictionary: true unless known not to. */
  public boolean mayNeedDictionary(int page) {
    return dictionaryEncoded == null || dictionaryEncoded[page];
  }

  /** Whether any page is (or, unknown, may be) dictionary-encoded. */
  public boolean anyDictionaryEncoded() {
    if (dictionaryEncoded == null) {
      return true;
    }
    for (boolean encoded : dictionaryEncoded) {
      if (encoded) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof PageEncodings that
        && Arrays.equals(dictionaryEncoded, that.dictionaryEncoded);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(dictionaryEncoded);
  }

  @Override
  public String toString() {
    if (dictionaryEncoded == null) {
      return "PageEncodings[unknown]";
    }
    int count = 0;
    for (boolean encoded : dictionaryEncoded) {
      count += encoded ? 1 : 0;
    }
    return "PageEncodings[%d of %d pages dictionary-encoded]"
        .formatted(count, dictionaryEncoded.length);
  }
}
