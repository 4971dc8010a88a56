package io.shelfmark.indexbuilder.build;

import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.read.ReaderOptions;
import java.nio.file.Path;

/**
 * How the builder reads data files and where it stages segments before uploading them.
 *
 * @param reader coalescing, prefetch and footer settings of the Parquet reader; prefetch bounds the
 *     bytes fetched ahead of the decoder per build
 * @param workDirectory where segment files are written before upload (deleted afterwards)
 */
public record BuildOptions(ReaderOptions reader, Path workDirectory) {
  public BuildOptions {
    requireNonNull(reader, "reader is null");
    requireNonNull(workDirectory, "workDirectory is null");
  }

  /** The reader's defaults, staging in the JVM's temporary directory. */
  public static BuildOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link BuildOptions}; each setting may be set once. */
  public static final class Builder {
    private ReaderOptions reader;
    private Path workDirectory;

    private Builder() {}

    public Builder reader(ReaderOptions reader) {
      checkState(this.reader == null, "Cannot set reader twice: already set to %s", this.reader);
      this.reader = requireNonNull(reader, "reader is null");
      return this;
    }

    public Builder workDirectory(Path workDirectory) {
      checkState(
          this.workDirectory == null,
          "Cannot set workDirectory twice: already set to %s",
          this.workDirectory);
      this.workDirectory = requireNonNull(workDirectory, "workDirectory is null");
      return this;
    }

    public BuildOptions build() {
      return new BuildOptions(
          reader == null ? ReaderOptions.defaults() : reader,
          workDirectory == null ? Path.of(System.getProperty("java.io.tmpdir")) : workDirectory);
    }
  }
}
