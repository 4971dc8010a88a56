package io.shelfmark.parquet;

import static java.util.Objects.requireNonNull;

import java.io.IOException;

/**
 * A valid Parquet file using a feature this reader does not implement: encryption, an unknown
 * encoding, codec (for example BROTLI) or page type. Distinct from {@link CorruptParquetException}
 * so callers can report "unsupported" rather than "corrupt" (the error codes UNSUPPORTED versus
 * CORRUPT).
 *
 * <p>The message reads {@code Cannot read Parquet <location>: <feature> is not supported (<hint>)}.
 */
public class UnsupportedParquetException extends IOException {
  private final ParquetLocation location;
  private final String feature;

  /**
   * @param feature what is unsupported, for example {@code "codec BROTLI"}
   * @param hint what the user can do, for example {@code "rewrite the file with ZSTD or SNAPPY"}
   */
  public UnsupportedParquetException(ParquetLocation location, String feature, String hint) {
    super(
        "Cannot read Parquet %s: %s is not supported (%s)"
            .formatted(
                requireNonNull(location, "location is null"),
                requireNonNull(feature, "feature is null"),
                requireNonNull(hint, "hint is null")));
    this.location = location;
    this.feature = feature;
  }

  public ParquetLocation location() {
    return location;
  }

  /** What is unsupported, for example {@code "codec BROTLI"}. */
  public String feature() {
    return feature;
  }
}
