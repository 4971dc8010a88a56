package io.shelfmark.config.table;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.config.unit.DataSize;
import java.util.List;
import java.util.Optional;

/**
 * Which Parquet dictionary pages a data file's segment keeps ({@code dictionary-pages.*}), so a
 * server with pinned segments fetches only data pages: at most {@code maxSize} bytes and {@code
 * maxShare} of the data file's bytes, from the columns listed in {@code columns} (all columns when
 * absent). How the builder chooses within that budget: docs/index-builder.md.
 *
 * @param maxSize at most this many bytes per data file ({@code dictionary-pages.max-size}; 0 keeps
 *     none)
 * @param maxShare at most this share of the data file's bytes ({@code dictionary-pages.max-share},
 *     above 0 and at most 1)
 * @param columns the top-level columns whose dictionary pages may be kept ({@code
 *     dictionary-pages.columns}), in config order; empty for every column
 */
public record DictionaryPagesConfig(
    DataSize maxSize, double maxShare, Optional<List<String>> columns) {
  /**
   * The default {@code max-size}, 8 MiB: pyiceberg writes dictionary pages of up to 2 MiB (its
   * dictionary limit), and the benchmark's two measure columns take about 4.2 MB in a large file's
   * last row group; pyarrow's limit is 1 MiB. {@link #DEFAULT_MAX_SHARE} bounds small files.
   */
  public static final DataSize DEFAULT_MAX_SIZE = DataSize.of(8, DataSize.Unit.MEBIBYTE);

  /**
   * The default {@code max-share}, 7%: enough for a 64 MB file to keep two 2 MiB measure
   * dictionaries, and on the benchmark table at 20M rows it adds 1.6% (parquet-java), 4.5%
   * (pyarrow) and 5.9% (pyiceberg) of the Parquet bytes to the segments (3% kept 1.1%, 1.5% and
   * 1.3%, and none of the dictionaries Q4 needs on the pyiceberg table). See docs/performance.md.
   */
  public static final double DEFAULT_MAX_SHARE = 0.07;

  /** Every column, the default budget. */
  public static final DictionaryPagesConfig DEFAULT =
      new DictionaryPagesConfig(DEFAULT_MAX_SIZE, DEFAULT_MAX_SHARE, Optional.empty());

  public DictionaryPagesConfig {
    requireNonNull(maxSize, "maxSize is null");
    requireNonNull(columns, "columns is null");
    checkArgument(
        maxShare > 0 && maxShare <= 1,
        "Cannot use dictionary-pages.max-share: %s (expected a number above 0 and at most 1)",
        maxShare);
    columns = columns.map(ImmutableList::copyOf);
    columns.ifPresent(
        names ->
            checkArgument(
                !names.isEmpty(),
                "Cannot use dictionary-pages.columns: empty (leave it out for every column)"));
  }

  /** The default share and columns with another {@code max-size}. */
  public static DictionaryPagesConfig ofMaxSize(DataSize maxSize) {
    return new DictionaryPagesConfig(maxSize, DEFAULT_MAX_SHARE, Optional.empty());
  }
}
