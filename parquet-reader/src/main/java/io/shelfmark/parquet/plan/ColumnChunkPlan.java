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
 * @param dictionaryPage the dictionary page's bytes, header included, when read
 * @param pages the data pages to read, in file order
 */
public record ColumnChunkPlan(
    int column, String path, Optional<ByteRange> dictionaryPage, List<PlannedPage> pages) {
  public ColumnChunkPlan {
    requireNonNull(path, "path is null");
    requireNonNull(dictionaryPage, "dictionaryPage is null");
    pages = List.copyOf(requireNonNull(pages, "pages is null"));
  }

  /** The bytes this chunk's plan reads at the least: its pages and dictionary page. */
  public long bytes() {
    long bytes = dictionaryPage.isPresent() ? dictionaryPage.get().length() : 0;
    for (PlannedPage page : pages) {
      bytes += page.range().length();
    }
    return bytes;
  }
}
