package io.shelfmark.cli.bench;

import java.util.Locale;

/**
 * Which Parquet writer lays out the benchmark table's data files (option {@code --writer}). The
 * rows are the same either way (the generator's, for the same rows and seed); only the layout
 * differs.
 *
 * <ul>
 *   <li>{@link #JAVA}: iceberg-core's Parquet writer with the generator's settings (zstd, small
 *       pages, a page index): the layout Shelfmark's own tools produce.
 *   <li>{@link #PYARROW}: the same rows rewritten by {@code pyarrow.parquet.write_table} with its
 *       defaults (snappy, 1 MiB data pages, dictionary on every column, no page index): the layout
 *       of tables written by pandas or Spark-less Python pipelines.
 *   <li>{@link #PYICEBERG}: the same rows appended through pyiceberg's {@code Table.append} with
 *       its default write properties (zstd, 1 MiB data pages, 20,000-row write batches, 2 MiB
 *       dictionary pages, 512 MiB target files): the layout of tables written by pyiceberg.
 * </ul>
 */
public enum BenchWriter {
  JAVA("java"),
  PYARROW("pyarrow"),
  PYICEBERG("pyiceberg");

  private final String id;

  BenchWriter(String id) {
    this.id = id;
  }

  /** The name on the command line and in {@code bench.json}; never changes. */
  public String id() {
    return id;
  }

  /**
   * What this writer's lake, node and cluster directories add to their names: nothing for the Java
   * writer (so data directories of earlier runs stay valid), {@code -pyarrow} otherwise.
   */
  public String directorySuffix() {
    return this == JAVA ? "" : "-" + id;
  }

  /** Whether a Python step rewrites the generator's files (every writer but {@link #JAVA}). */
  public boolean python() {
    return this != JAVA;
  }

  /**
   * The writer named {@code id} ({@code java}, {@code pyarrow} or {@code pyiceberg}).
   *
   * @throws IllegalArgumentException naming the accepted ids
   */
  public static BenchWriter fromId(String id) {
    String wanted = id.trim().toLowerCase(Locale.ROOT);
    for (BenchWriter writer : values()) {
      if (writer.id.equals(wanted)) {
        return writer;
      }
    }
    throw new IllegalArgumentException(
        "Cannot use bench writer '" + id + "': unknown (use java, pyarrow or pyiceberg)");
  }

  @Override
  public String toString() {
    return id;
  }
}
