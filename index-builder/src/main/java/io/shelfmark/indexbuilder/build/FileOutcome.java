package io.shelfmark.indexbuilder.build;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.spi.Location;

/** What happened to one data file of a build: built, reused from the store, or failed. */
public sealed interface FileOutcome {
  /** The data file's path. */
  String dataFile();

  /** A segment built and written now. */
  record Built(BuildResult result) implements FileOutcome {
    public Built {
      requireNonNull(result, "result is null");
    }

    @Override
    public String dataFile() {
      return result.dataFile();
    }
  }

  /**
   * A segment that already existed in the store for this file and spec.
   *
   * @param dataFile the data file's path
   * @param segment its location
   * @param segmentBytes its size
   * @param dataFileBytes the data file's size
   */
  record Reused(String dataFile, Location segment, long segmentBytes, long dataFileBytes)
      implements FileOutcome {
    public Reused {
      requireNonNull(dataFile, "dataFile is null");
      requireNonNull(segment, "segment is null");
    }
  }

  /** A build that failed, with the reason. */
  record Failed(BuildFailure failure) implements FileOutcome {
    public Failed {
      requireNonNull(failure, "failure is null");
    }

    @Override
    public String dataFile() {
      return failure.dataFile();
    }
  }
}
