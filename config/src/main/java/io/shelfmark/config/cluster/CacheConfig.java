package io.shelfmark.config.cluster;

import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;

import io.shelfmark.config.unit.DataSize;
import java.nio.file.Path;

/**
 * Bounds of the tiered cache (config section {@code cache}): a memory tier weighted by bytes over a
 * disk tier in a local directory (NVMe in production).
 *
 * @param memoryMaxSize the memory tier's bound ({@code cache.memory.max-size}); zero disables it
 * @param diskMaxSize the disk tier's bound ({@code cache.disk.max-size}); zero disables it
 * @param diskDirectory where the disk tier keeps its files ({@code cache.disk.directory}); defaults
 *     to {@code <data-dir>/cache}
 * @param decompressedMaxSize the bound of the Parquet data pages kept decompressed in memory
 *     ({@code cache.decompressed.max-size}) while Parquet pages are cached (the disk tier is on),
 *     so a page read again skips decompression; zero disables it
 * @param postingListsMaxSize the bound of the decoded posting lists a server keeps for its open
 *     segments ({@code cache.posting-lists.max-size}), so a repeated filter intersects bitmaps
 *     instead of decoding them again; zero disables it
 * @param dictionariesMaxSize the bound of the Parquet dictionary pages a server keeps decoded on
 *     the heap ({@code cache.dictionaries.max-size}), in every segment mode, so a query reading a
 *     few rows of a dictionary-encoded chunk again does not decompress and decode its whole
 *     dictionary again; zero disables it
 */
public record CacheConfig(
    DataSize memoryMaxSize,
    DataSize diskMaxSize,
    Path diskDirectory,
    DataSize decompressedMaxSize,
    DataSize postingListsMaxSize,
    DataSize dictionariesMaxSize) {
  public static final DataSize DEFAULT_MEMORY_MAX_SIZE = DataSize.of(1, DataSize.Unit.GIBIBYTE);
  public static final DataSize DEFAULT_DISK_MAX_SIZE = DataSize.of(10, DataSize.Unit.GIBIBYTE);
  public static final DataSize DEFAULT_DECOMPRESSED_MAX_SIZE =
      DataSize.of(256, DataSize.Unit.MEBIBYTE);
  public static final DataSize DEFAULT_POSTING_LISTS_MAX_SIZE =
      DataSize.of(64, DataSize.Unit.MEBIBYTE);

  /**
   * 64 MiB: about thirty of the largest dictionaries writers make (pyiceberg's 2 MiB), a
   * dashboard's working set of measure chunks; a decoded dictionary takes about its page's
   * uncompressed bytes.
   */
  public static final DataSize DEFAULT_DICTIONARIES_MAX_SIZE =
      DataSize.of(64, DataSize.Unit.MEBIBYTE);

  /**
   * The disk tier's directory under {@code data-dir} when {@code cache.disk.directory} is unset.
   */
  public static final String DEFAULT_DISK_DIRECTORY_NAME = "cache";

  public CacheConfig {
    requireNonNull(memoryMaxSize, "memoryMaxSize is null");
    requireNonNull(diskMaxSize, "diskMaxSize is null");
    requireNonNull(diskDirectory, "diskDirectory is null");
    requireNonNull(decompressedMaxSize, "decompressedMaxSize is null");
    requireNonNull(postingListsMaxSize, "postingListsMaxSize is null");
    requireNonNull(dictionariesMaxSize, "dictionariesMaxSize is null");
  }

  /** The default bounds, with the disk tier in {@code <dataDir>/cache}. */
  public static CacheConfig defaults(Path dataDir) {
    return builder().build(dataDir);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link CacheConfig}; each setting may be set once, unset ones take defaults. */
  public static final class Builder {
    private DataSize memoryMaxSize;
    private DataSize diskMaxSize;
    private Path diskDirectory;
    private DataSize decompressedMaxSize;
    private DataSize postingListsMaxSize;
    private DataSize dictionariesMaxSize;

    private Builder() {}

    public Builder dictionariesMaxSize(DataSize dictionariesMaxSize) {
      checkUnset("dictionariesMaxSize", this.dictionariesMaxSize);
      this.dictionariesMaxSize = requireNonNull(dictionariesMaxSize, "dictionariesMaxSize is null");
      return this;
    }

    public Builder postingListsMaxSize(DataSize postingListsMaxSize) {
      checkUnset("postingListsMaxSize", this.postingListsMaxSize);
      this.postingListsMaxSize = requireNonNull(postingListsMaxSize, "postingListsMaxSize is null");
      return this;
    }

    public Builder decompressedMaxSize(DataSize decompressedMaxSize) {
      checkUnset("decompressedMaxSize", this.decompressedMaxSize);
      this.decompressedMaxSize = requireNonNull(decompressedMaxSize, "decompressedMaxSize is null");
      return this;
    }

    public Builder memoryMaxSize(DataSize memoryMaxSize) {
      checkUnset("memoryMaxSize", this.memoryMaxSize);
      this.memoryMaxSize = requireNonNull(memoryMaxSize, "memoryMaxSize is null");
      return this;
    }

    public Builder diskMaxSize(DataSize diskMaxSize) {
      checkUnset("diskMaxSize", this.diskMaxSize);
      this.diskMaxSize = requireNonNull(diskMaxSize, "diskMaxSize is null");
      return this;
    }

    public Builder diskDirectory(Path diskDirectory) {
      checkUnset("diskDirectory", this.diskDirectory);
      this.diskDirectory = requireNonNull(diskDirectory, "diskDirectory is null");
      return this;
    }

    /**
     * Builds the config; an unset disk directory becomes {@code <dataDir>/cache}.
     *
     * @param dataDir the process's {@link ClusterConfig#dataDir()}
     */
    public CacheConfig build(Path dataDir) {
      requireNonNull(dataDir, "dataDir is null");
      return new CacheConfig(
          memoryMaxSize == null ? DEFAULT_MEMORY_MAX_SIZE : memoryMaxSize,
          diskMaxSize == null ? DEFAULT_DISK_MAX_SIZE : diskMaxSize,
          diskDirectory == null ? dataDir.resolve(DEFAULT_DISK_DIRECTORY_NAME) : diskDirectory,
          decompressedMaxSize == null ? DEFAULT_DECOMPRESSED_MAX_SIZE : decompressedMaxSize,
          postingListsMaxSize == null ? DEFAULT_POSTING_LISTS_MAX_SIZE : postingListsMaxSize,
          dictionariesMaxSize == null ? DEFAULT_DICTIONARIES_MAX_SIZE : dictionariesMaxSize);
    }

    private static void checkUnset(String name, Object current) {
      checkState(current == null, "Cannot set %s twice: already set to %s", name, current);
    }
  }
}
