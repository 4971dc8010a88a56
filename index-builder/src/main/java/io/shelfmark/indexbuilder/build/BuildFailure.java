package io.shelfmark.indexbuilder.build;

import static java.util.Objects.requireNonNull;

/**
 * Why the segment of one data file could not be built. A failed build never stops other builds; the
 * controller records the failure and serves the file by scanning Parquet, or retries later when the
 * kind says a retry may help.
 *
 * @param dataFile the data file's path
 * @param kind what went wrong
 * @param reason the message naming the file (and where known the row group, column and page)
 */
public record BuildFailure(String dataFile, Kind kind, String reason) {
  /** The error categories; only {@link #STORAGE} failures may go away on retry. */
  public enum Kind {
    /** The file contradicts the Parquet format or itself (bad footer, pages, counts). */
    CORRUPT,
    /** A valid file using something Shelfmark does not index: encryption, a type, a codec. */
    UNSUPPORTED,
    /** Reading the file or writing the segment failed in object storage. */
    STORAGE,
    /** A bug: anything else, with the exception's class in the reason. */
    INTERNAL
  }

  public BuildFailure {
    requireNonNull(dataFile, "dataFile is null");
    requireNonNull(kind, "kind is null");
    requireNonNull(reason, "reason is null");
  }

  /** Whether building again may succeed without changing the file or Shelfmark. */
  public boolean retryable() {
    return kind == Kind.STORAGE;
  }

  /** {@code Cannot build the segment of <file> (<kind>): <reason>}. */
  public String message() {
    return "Cannot build the segment of %s (%s): %s".formatted(dataFile, kind, reason);
  }

  @Override
  public String toString() {
    return message();
  }
}
