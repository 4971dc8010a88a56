package io.shelfmark.config.render;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.unit.DataSize;
import java.nio.file.Path;

/**
 * Heaps and cache bounds of a node's processes, derived from its memory and the size of its data
 * disk (docs/performance.md, "Why a fixed heap"). Each heap is fixed ({@code -Xms} = {@code -Xmx}):
 * the node runs nothing else, so memory the heap may grow into later is better taken at start.
 *
 * <ul>
 *   <li>Coordinator: ZooKeeper 1/32 of memory (256 MiB to 1 GiB), the controller 25 %, the broker
 *       35 %; the rest is left to metaspace, thread stacks, Arrow's direct buffers and the OS.
 *   <li>Server node: the server half of memory, at most {@value #MAX_HEAP_MEGABYTES} MiB (beyond
 *       about 32 GiB the JVM loses compressed object pointers, so a larger heap holds less); the
 *       rest is the OS page cache over the pinned segments and the disk tier, and Arrow's buffers.
 *   <li>Server cache: the memory tier 40 % of the heap, decompressed pages 1/16, posting lists
 *       1/32; the disk tier 40 % of the data disk, leaving the rest to pinned segments.
 *   <li>Controller and broker caches: the memory tier 1/8 of the heap, the disk tier 5 % of the
 *       disk, at most {@link CacheConfig#DEFAULT_DISK_MAX_SIZE}.
 * </ul>
 *
 * @param kind what the node runs
 * @param memoryMegabytes the node's memory (MiB), such as {@code MemTotal} of {@code /proc/meminfo}
 * @param diskMegabytes the size of the node's data directory's file system (MiB)
 */
public record NodeSizing(NodeKind kind, long memoryMegabytes, long diskMegabytes) {
  /** The largest heap given: compressed object pointers stop a little below 32 GiB. */
  public static final long MAX_HEAP_MEGABYTES = 31 * 1024;

  /** The smallest node this sizing accepts: below it the processes cannot start side by side. */
  public static final long MIN_MEMORY_MEGABYTES = 2048;

  public static final long MIN_DISK_MEGABYTES = 1024;

  public NodeSizing {
    requireNonNull(kind, "kind is null");
    checkArgument(
        memoryMegabytes >= MIN_MEMORY_MEGABYTES,
        "Cannot size a node of %s MiB memory (at least %s MiB)",
        memoryMegabytes,
        MIN_MEMORY_MEGABYTES);
    checkArgument(
        diskMegabytes >= MIN_DISK_MEGABYTES,
        "Cannot size a node of %s MiB disk (at least %s MiB)",
        diskMegabytes,
        MIN_DISK_MEGABYTES);
  }

  /**
   * The fixed heap of {@code process} on this node, in MiB.
   *
   * @param process one of {@link NodeKind#processes()} of this node's kind
   */
  public long heapMegabytes(String process) {
    checkProcess(process);
    return switch (process) {
      case "zookeeper" -> Math.clamp(memoryMegabytes / 32, 256, 1024);
      case "controller" -> memoryMegabytes / 4;
      case "broker" -> memoryMegabytes * 35 / 100;
      case "server" -> Math.min(memoryMegabytes / 2, MAX_HEAP_MEGABYTES);
      default -> throw new IllegalStateException("no heap rule for " + process);
    };
  }

  /**
   * The cache bounds of {@code process} (a controller, broker or server) with its disk tier under
   * {@code dataDir}.
   */
  public CacheConfig cache(String process, Path dataDir) {
    checkProcess(process);
    checkArgument(!process.equals("zookeeper"), "Cannot size a cache for zookeeper (it has none)");
    long heap = heapMegabytes(process);
    CacheConfig.Builder cache = CacheConfig.builder();
    if (process.equals("server")) {
      cache
          .memoryMaxSize(megabytes(heap * 40 / 100))
          .decompressedMaxSize(megabytes(heap / 16))
          .postingListsMaxSize(megabytes(heap / 32))
          .dictionariesMaxSize(megabytes(heap / 32))
          .diskMaxSize(megabytes(diskMegabytes * 40 / 100));
    } else {
      long diskCap = CacheConfig.DEFAULT_DISK_MAX_SIZE.bytes() >> 20;
      cache
          .memoryMaxSize(megabytes(heap / 8))
          .diskMaxSize(megabytes(Math.min(diskMegabytes * 5 / 100, diskCap)));
    }
    return cache.build(dataDir);
  }

  private void checkProcess(String process) {
    checkArgument(
        kind.processes().contains(process),
        "Cannot size %s on a %s node (it runs %s)",
        process,
        kind.configName(),
        kind.processes());
  }

  private static DataSize megabytes(long megabytes) {
    return DataSize.of(megabytes, DataSize.Unit.MEBIBYTE);
  }
}
