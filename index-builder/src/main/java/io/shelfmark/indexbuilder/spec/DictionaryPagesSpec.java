package io.shelfmark.indexbuilder.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.config.table.DictionaryPagesConfig;
import java.util.List;
import java.util.Optional;

/**
 * The budget for the Parquet dictionary pages a data file's segment keeps, bound to the table's
 * schema ({@code dictionary-pages.*}): at most {@code maxBytes} and {@code maxShare} of the data
 * file's bytes, from the listed columns only when some are listed. Which pages fill it is the
 * builder's choice (docs/index-builder.md).
 *
 * @param maxBytes at most this many bytes per data file ({@code max-size}; 0 keeps none)
 * @param maxShare at most this share of the data file's bytes ({@code max-share})
 * @param columns the top-level columns whose pages may be kept ({@code columns}); empty for every
 *     column
 */
public record DictionaryPagesSpec(long maxBytes, double maxShare, Optional<List<Column>> columns) {
  /** The default budget over every column. */
  public static final DictionaryPagesSpec DEFAULT =
      new DictionaryPagesSpec(
          DictionaryPagesConfig.DEFAULT_MAX_SIZE.bytes(),
          DictionaryPagesConfig.DEFAULT_MAX_SHARE,
          Optional.empty());

  /**
   * A listed column, found in the data file by field id (by name in files without ids).
   *
   * @param name the column's current name in the table schema
   * @param fieldId the Iceberg field id
   */
  public record Column(String name, int fieldId) {
    public Column {
      requireNonNull(name, "name is null");
    }
  }

  public DictionaryPagesSpec {
    requireNonNull(columns, "columns is null");
    columns = columns.map(ImmutableList::copyOf);
    if (maxBytes < 0) {
      throw new IllegalArgumentException(
          "Cannot use dictionary-pages.max-size: "
              + maxBytes
              + " bytes (expected 0 or more; 0 keeps no dictionary page)");
    }
    if (!(maxShare > 0 && maxShare <= 1)) {
      throw new IllegalArgumentException(
          "Cannot use dictionary-pages.max-share: "
              + maxShare
              + " (expected a number above 0 and at most 1)");
    }
  }

  /** The default share and columns with another {@code max-size}. */
  public static DictionaryPagesSpec ofMaxBytes(long maxBytes) {
    return new DictionaryPagesSpec(
        maxBytes, DictionaryPagesConfig.DEFAULT_MAX_SHARE, Optional.empty());
  }

  /** This budget with another {@code max-size}. */
  public DictionaryPagesSpec withMaxBytes(long bytes) {
    return new DictionaryPagesSpec(bytes, maxShare, columns);
  }

  /** The bytes of dictionary pages a data file of {@code fileSize} bytes may keep. */
  public long budget(long fileSize) {
    return Math.min(maxBytes, (long) (fileSize * maxShare));
  }

  /** For the spec's fingerprint: every setting, the columns by name and field id. */
  String describe() {
    return "dictionary-pages.max-size "
        + maxBytes
        + ", max-share "
        + maxShare
        + columns.map(list -> ", columns " + list).orElse("");
  }
}
