package io.shelfmark.parquet.decode;

import static java.util.Objects.requireNonNull;

import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;

/**
 * A data page kept decompressed: its parsed header and what its codec decompressed (levels and
 * values for a v1 page, values alone for a v2 page). Shared by every reader of the page: nobody
 * writes into the body or the header.
 *
 * @param header the page's header, as parsed from the file
 * @param body the decompressed body, {@code header.uncompressed_page_size} bytes
 */
public record DecompressedPage(PageHeader header, byte[] body) {
  public DecompressedPage {
    requireNonNull(header, "header is null");
    requireNonNull(body, "body is null");
  }

  /**
   * Whether the page decodes from this alone, without its compressed bytes: a v1 data page, whose
   * levels are inside the decompressed body (a v2 page keeps its levels outside, uncompressed), or
   * a dictionary page.
   */
  public boolean isSelfContained() {
    return (header.getType() == PageType.DATA_PAGE && header.isSetData_page_header()
            || isDictionary())
        && body.length == header.getUncompressed_page_size();
  }

  /** Whether this is a dictionary page. */
  public boolean isDictionary() {
    return header.getType() == PageType.DICTIONARY_PAGE && header.isSetDictionary_page_header();
  }
}
