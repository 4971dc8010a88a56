package io.shelfmark.generator;

import static java.util.Objects.requireNonNull;

import io.shelfmark.config.unit.DataSize;

/**
 * How to generate {@code obs.metrics}. Only {@link #rows} and {@link #seed} decide the table's
 * content; the other options shape its files (row groups, pages, file splits) or the run
 * (parallelism, what to do with an existing table), never which rows it holds.
 *
 * @param rows the exact number of rows to write, at least 1
 * @param seed the seed every random choice derives from
 * @param rowGroupSize target Parquet row-group size ({@code write.parquet.row-group-size-bytes})
 * @param pageSize target Parquet page size ({@code write.parquet.page-size-bytes})
 * @param pageRowLimit most rows in a Parquet page ({@code write.parquet.page-row-limit})
 * @param maxRowsPerFile a partition's data file is closed, at a minute boundary, once it holds at
 *     least this many rows; a new file continues the partition
 * @param parallelism how many data files are written at once (each holds one row group in memory)
 * @param existingTable what to do when the table exists
 */
public record GeneratorOptions(
    long rows,
    long seed,
    DataSize rowGroupSize,
    DataSize pageSize,
    int pageRowLimit,
    long maxRowsPerFile,
    int parallelism,
    ExistingTablePolicy existingTable) {
  public static final long DEFAULT_ROWS = 1_000_000;
  public static final long DEFAULT_SEED = 42;
  public static final DataSize DEFAULT_ROW_GROUP_SIZE = DataSize.of(32, DataSize.Unit.MEBIBYTE);
  public static final DataSize DEFAULT_PAGE_SIZE = DataSize.of(1, DataSize.Unit.MEBIBYTE);

  /** Parquet's own default page row limit. */
  public static final int DEFAULT_PAGE_ROW_LIMIT = 20_000;

  /** About 256 MB of Parquet at ~30 bytes a row. */
  public static final long DEFAULT_MAX_ROWS_PER_FILE = 8_000_000;

  public static final int MAX_PARALLELISM = 64;

  public GeneratorOptions {
    requireNonNull(rowGroupSize, "rowGroupSize is null");
    requireNonNull(pageSize, "pageSize is null");
    requireNonNull(existingTable, "existingTable is null");
    check(rows >= 1, "rows", rows, "need at least 1 row");
    check(rowGroupSize.bytes() >= 1024, "row group size", rowGroupSize, "need at least 1KiB");
    check(pageSize.bytes() >= 64, "page size", pageSize, "need at least 64B");
    check(
        pageSize.bytes() <= rowGroupSize.bytes(),
        "page size",
        pageSize,
        "must not exceed the row group size " + rowGroupSize);
    check(pageRowLimit >= 1, "page row limit", pageRowLimit, "need at least 1");
    check(maxRowsPerFile >= 1, "max rows per file", maxRowsPerFile, "need at least 1");
    check(
        parallelism >= 1 && parallelism <= MAX_PARALLELISM,
        "parallelism",
        parallelism,
        "need 1 to " + MAX_PARALLELISM);
  }

  /** The defaults: 1,000,000 rows from seed 42, reusing an identical existing table. */
  public static GeneratorOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  private static void check(boolean valid, String option, Object value, String hint) {
    if (!valid) {
      throw new IllegalArgumentException(
          "Cannot use " + option + " " + value + " for the generator (" + hint + ")");
    }
  }

  /** A builder; each option may be set once (setting it again fails, naming the value it has). */
  public static final class Builder {
    private Long rows;
    private Long seed;
    private DataSize rowGroupSize;
    private DataSize pageSize;
    private Integer pageRowLimit;
    private Long maxRowsPerFile;
    private Integer parallelism;
    private ExistingTablePolicy existingTable;

    private Builder() {}

    public Builder rows(long rows) {
      requireUnset("rows", this.rows);
      this.rows = rows;
      return this;
    }

    public Builder seed(long seed) {
      requireUnset("seed", this.seed);
      this.seed = seed;
      return this;
    }

    public Builder rowGroupSize(DataSize rowGroupSize) {
      requireUnset("row group size", this.rowGroupSize);
      this.rowGroupSize = requireNonNull(rowGroupSize, "rowGroupSize is null");
      return this;
    }

    public Builder pageSize(DataSize pageSize) {
      requireUnset("page size", this.pageSize);
      this.pageSize = requireNonNull(pageSize, "pageSize is null");
      return this;
    }

    public Builder pageRowLimit(int pageRowLimit) {
      requireUnset("page row limit", this.pageRowLimit);
      this.pageRowLimit = pageRowLimit;
      return this;
    }

    public Builder maxRowsPerFile(long maxRowsPerFile) {
      requireUnset("max rows per file", this.maxRowsPerFile);
      this.maxRowsPerFile = maxRowsPerFile;
      return this;
    }

    public Builder parallelism(int parallelism) {
      requireUnset("parallelism", this.parallelism);
      this.parallelism = parallelism;
      return this;
    }

    public Builder existingTable(ExistingTablePolicy existingTable) {
      requireUnset("existing table policy", this.existingTable);
      this.existingTable = requireNonNull(existingTable, "existingTable is null");
      return this;
    }

    /**
     * Builds the options; unset ones take their defaults (parallelism: the available processors, at
     * most 4, since each writer holds a row group in memory).
     */
    public GeneratorOptions build() {
      return new GeneratorOptions(
          rows != null ? rows : DEFAULT_ROWS,
          seed != null ? seed : DEFAULT_SEED,
          rowGroupSize != null ? rowGroupSize : DEFAULT_ROW_GROUP_SIZE,
          pageSize != null ? pageSize : DEFAULT_PAGE_SIZE,
          pageRowLimit != null ? pageRowLimit : DEFAULT_PAGE_ROW_LIMIT,
          maxRowsPerFile != null ? maxRowsPerFile : DEFAULT_MAX_ROWS_PER_FILE,
          parallelism != null ? parallelism : defaultParallelism(),
          existingTable != null ? existingTable : ExistingTablePolicy.REUSE);
    }

    private static int defaultParallelism() {
      return Math.min(4, Runtime.getRuntime().availableProcessors());
    }

    private static void requireUnset(String option, Object current) {
      if (current != null) {
        throw new IllegalStateException(
            "Cannot set " + option + ": it is already set to " + current + " (set each once)");
      }
    }
  }
}
