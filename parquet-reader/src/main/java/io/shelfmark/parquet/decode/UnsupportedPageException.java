package io.shelfmark.parquet.decode;

import java.io.IOException;

/**
 * A page uses a feature this reader does not implement (an encoding for a type, a page type).
 * {@link ColumnChunkDecoder} turns it into an UnsupportedParquetException naming the location.
 */
final class UnsupportedPageException extends IOException {
  private final String feature;
  private final String hint;

  UnsupportedPageException(String feature, String hint) {
    super(feature + " is not supported (" + hint + ")");
    this.feature = feature;
    this.hint = hint;
  }

  String feature() {
    return feature;
  }

  String hint() {
    return hint;
  }
}
