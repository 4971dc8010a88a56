package io.shelfmark.parquet.decode;

import java.io.IOException;

/**
 * A page's bytes contradict its encoding. Thrown inside the decode package, where the location is
 * unknown; {@link ColumnChunkDecoder} turns it into a CorruptParquetException naming the file, row
 * group, column and page.
 */
final class MalformedPageException extends IOException {
  MalformedPageException(String reason) {
    super(reason);
  }
}
