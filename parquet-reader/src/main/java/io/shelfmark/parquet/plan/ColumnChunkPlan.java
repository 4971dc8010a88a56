package io.shelfmark.parquet.plan;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.coalesce.ByteRange;
import java.util.List;
import java.util.Optional;

/**
 * What a plan reads of one column chunk: its dictionary page when a planned page may need it, and
 * the data pages whose rows intersect the selection, in file order.
 *
 * @param column the leaf column's index in the file
 * @param path the leaf column's dotted path
 * @param dictionaryPage the dictionary page's bytes, header included, when a planned page may need
 *     it
 * @param dictionaryKept whether the caller holds the dictionary page already ({@link
 *     KeptDictionaryPages}): it is then neither fetched nor counted in {@link #bytes()}
 * @param pages the data pages to read, in file order
 * @param dictionarySkipped whether the chunk has a dictionary page that is not read because none of
 *     the planned pages is dictionary-encoded (their encodings are known): the decoder then refuses
 *     a page that turns out to be
 */
public record ColumnChunkPlan(
    int column,
    String path,
    Optional<ByteRange> dictionaryPage,
    boolean dictionaryKept,
    List<PlannedPage> pages,
    boolean dictionarySkipped) {
  public ColumnChunkPlan {
    requireNonNull(path, "path is null");
    requireNonNull(dictionaryPage, "dictionaryPage is null");
    pages = List.copyOf(requireNonNull(pages, "pages is null"));
    if (dictionaryKept && dictionaryPage.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot plan column %s with a kept dictionary page but none to read".formatted(path));
    }
    if (dictionarySkipped && dictionaryPage.isPresent()) {
      throw new IllegalArgumentException(
          "Cannot plan column %s with a dictionary page both read and skipped".formatted(path));
    }
  }

  /** A chunk plan that skips no dictionary page it has. */
  public ColumnChunkPlan(
      int column,
      String path,
      Optional<ByteRange> dictionaryPage,
      boolean dictionaryKept,
      List<PlannedPage> pages) {
    this(column, path, dictionaryPage, dictionaryKept, pages, false);
  }

  /** A chunk plan whose dictionary page, if any, is fetched. */
  public ColumnChunkPlan(
      int column, String path, Optional<ByteRange> dictionaryPage, List<PlannedPage> pages) {
    this(column, path, dictionaryPage, false, pages, false);
  }

  /** The dictionary page when it must be fetched (planned and not kept). */
  public Optional<ByteRange> fetchedDictionaryPage() {
    return dictionaryKept ? Optional.empty() : dictionaryPage;
  }

  /** The bytes this chunk's plan fetches at the least: its pages and unkept dictionary page. */
  public long bytes() {
    long bytes = fetchedDictionaryPage().isPresent() ? dictionaryPage.get().length() : 0;
    for (PlannedPage page : pages) {
      bytes += page.range().length();
    }
    return bytes;
  }
}
