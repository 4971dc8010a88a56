package io.shelfmark.testing.oracle;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * One Iceberg position delete as the oracle applies it: the row at {@code position} (0-based
 * ordinal in the file, as Iceberg's {@code pos}) of the data file {@code file} is gone.
 */
public record PositionDelete(Path file, long position) {
  public PositionDelete {
    requireNonNull(file, "file is null");
    if (position < 0) {
      throw new IllegalArgumentException(
          "Cannot delete row " + position + " of " + file + ": positions start at 0");
    }
  }
}
