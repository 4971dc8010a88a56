package io.shelfmark.broker.explain;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.query.PruningReport;
import io.shelfmark.exchange.profile.ChunkReadProfile;
import io.shelfmark.exchange.profile.FileAnswer;
import io.shelfmark.exchange.profile.FileProfile;
import io.shelfmark.exchange.profile.ServerProfile;
import io.shelfmark.exchange.profile.TermProfile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code explain} object of an EXPLAIN or EXPLAIN ANALYZE response: what the broker pruned and
 * why, and per group of files treated alike, which index answers each WHERE term, what is read and,
 * under ANALYZE, what happened. Its JSON shape is documented in docs/http-api.md and versioned by
 * {@link #version}: fields are added, never renamed or removed, within a version.
 *
 * <p>Figures that are not known are {@code -1} (the pages of a file without segment under EXPLAIN);
 * figures only ANALYZE has are {@code null} under EXPLAIN.
 *
 * @param version the shape's version
 * @param mode {@code PLAN} (EXPLAIN) or {@code ANALYZE}
 * @param table the table queried
 * @param snapshotId the snapshot the plan is over
 * @param lane the admission lane (CHEAP or HEAVY)
 * @param pruning the broker's pruning of the snapshot's files
 * @param fileGroups the files queried, grouped by how they are answered
 * @param totals sums over every file queried
 * @param servers per server, its files and time
 * @param cache under ANALYZE, where the query's Parquet reads were served from
 * @param timeMicros per phase: plan, prune, execute (the servers, as the broker waited for them),
 *     finish (merging and finishing at the broker), total; then the sums over files of index, read
 *     and aggregate (these run in parallel, so they may exceed execute), and of the read's two
 *     parts summed over the threads that decoded: fetch (waiting for page bytes) and decode
 */
public record ExplainReport(
    int version,
    String mode,
    String table,
    long snapshotId,
    String lane,
    Pruning pruning,
    List<FileGroup> fileGroups,
    Totals totals,
    List<Server> servers,
    Cache cache,
    Map<String, Long> timeMicros) {
  /** The version of this shape. */
  public static final int VERSION = 1;

  public ExplainReport {
    requireNonNull(mode, "mode is null");
    fileGroups = List.copyOf(fileGroups);
    servers = List.copyOf(servers);
    timeMicros = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(timeMicros));
  }

  /** The broker's pruning, as {@link PruningReport} has it. */
  public record Pruning(
      int files, int afterPartition, int afterStatistics, List<PruningReport.Reason> prunedBy) {
    public Pruning {
      prunedBy = List.copyOf(prunedBy);
    }
  }

  /**
   * Files answered alike (same answer, same index per term, same columns), with their figures
   * summed.
   *
   * @param files how many
   * @param paths the first file's path, or every path under VERBOSE
   * @param starTree for files answered from a star-tree: the tree, its records visited and the
   *     edges read from rows; null otherwise
   * @param chunkReads under ANALYZE, the reads' whole-chunk choice summed over the group's files
   *     (groups are as EXPLAIN plans them, so per file under VERBOSE only as sums); null under
   *     EXPLAIN, when no file read Parquet, or when a server did not tell it
   */
  public record FileGroup(
      int files,
      boolean segment,
      FileAnswer answer,
      List<TermProfile> filter,
      List<String> columnsFromSegment,
      List<String> columnsRead,
      Rows rows,
      Pages pages,
      Read read,
      Time timeMicros,
      List<String> paths,
      StarTree starTree,
      ChunkReads chunkReads) {}

  /**
   * Whether partly selected column chunks were fetched page by page or whole, and why: the cost
   * model's figures ({@code requests × requestCost + bytes}) both ways, over the chunks a choice
   * was made for.
   *
   * @param mode the {@code chunkReads} setting ({@code COST}, {@code PAGES}, {@code WHOLE})
   * @param pagesCost {@code pageRequests × requestCost + pageBytes}
   * @param wholeCost {@code wholeRequests × requestCost + wholeBytes}
   */
  public record ChunkReads(
      String mode,
      long requestCost,
      long chunks,
      long chunksReadWhole,
      long pageRequests,
      long pageBytes,
      long pagesCost,
      long wholeRequests,
      long wholeBytes,
      long wholeCost) {
    static ChunkReads of(ChunkReadProfile profile) {
      return new ChunkReads(
          profile.mode(),
          profile.requestCost(),
          profile.chunks(),
          profile.chunksReadWhole(),
          profile.pageRequests(),
          profile.pageBytes(),
          profile.pagesCost(),
          profile.wholeRequests(),
          profile.wholeBytes(),
          profile.wholeCost());
    }
  }

  /**
   * How a group's files were answered from a star-tree: the tree's dimensions, the records its
   * traversals visited and the rows those aggregate (summed over the files), and the unaligned time
   * edges' row path, grouped as files are. The tree part reads no page: the group's pages, requests
   * and bytes are its edges'.
   */
  public record StarTree(
      List<String> dimensions, long recordsVisited, long rows, List<FileGroup> edges) {}

  /** Rows: live (less deletes), definite and candidates after the indexes, matched (ANALYZE). */
  public record Rows(long live, long definite, long candidates, Long matched) {}

  /** The planned read: row groups, pages and their bytes (the lower bound of what is fetched). */
  public record Pages(long rowGroups, long rowGroupsRead, long planned, long lowerBoundBytes) {}

  /** What the files' reads did (ANALYZE): files run, pages decoded, GETs and their bytes. */
  public record Read(long files, long pages, long requests, long bytes) {}

  /**
   * Time per phase, summed over the group's files: index, read (on each file's thread), aggregate;
   * and the read's parts summed over every thread that decoded the files' row groups: fetch
   * (waiting for page bytes, from storage or the page cache) and decode (decompressing and
   * decoding). Null under EXPLAIN but index; fetch and decode null as well when a server did not
   * tell them apart.
   */
  public record Time(long index, Long read, Long aggregate, Long fetch, Long decode) {}

  /** Sums over every file queried; the ANALYZE ones equal the response's statistics. */
  public record Totals(
      int files,
      int filesWithSegment,
      int filesWithoutParquet,
      int filesFromStarTree,
      long liveRows,
      long definiteRows,
      long candidateRows,
      long pagesPlanned,
      long lowerBoundBytes,
      Long filesRun,
      Long matchedRows,
      Long filesMatched,
      Long pagesRead,
      Long requests,
      Long bytesRead) {}

  /** One server's part. */
  public record Server(String server, int files, long timeMicros) {}

  /**
   * Where the Parquet reads were served from (ANALYZE), one entry per tier: {@code decompressed}
   * (data pages decoded from bodies kept decompressed in memory), {@code pageCache} (requests the
   * page cache answered), split into {@code memoryHits} (its memory tier, or a concurrent read of
   * the same range) and {@code diskHits} (its disk tier), {@code storage} (requests and bytes that
   * reached the object store). The tiers are {@code -1} when a server did not tell them.
   */
  public record Cache(
      long decompressedPages,
      long pageCacheHits,
      long memoryHits,
      long diskHits,
      long storageRequests,
      long storageBytes) {}

  /**
   * The report of one explained query.
   *
   * @param phaseMicros the broker's phases (plan, prune, execute, finish, total), in order
   */
  public static ExplainReport of(
      boolean analyze,
      boolean verbose,
      String table,
      long snapshotId,
      String lane,
      PruningReport pruning,
      List<ServerProfile> servers,
      Cache cache,
      Map<String, Long> phaseMicros) {
    List<FileProfile> profiles = new ArrayList<>();
    servers.forEach(server -> profiles.addAll(server.files()));
    Map<String, Long> time = new LinkedHashMap<>(phaseMicros);
    long index = 0;
    long read = 0;
    long aggregate = 0;
    long fetch = 0;
    long decode = 0;
    for (FileProfile file : profiles) {
      index += file.indexNanos();
      if (file.ran()) {
        read += file.readNanos();
        aggregate += file.aggregateNanos();
        fetch = plus(fetch, file.fetchNanos());
        decode = plus(decode, file.decodeNanos());
      }
    }
    time.put("index", micros(index));
    if (analyze) {
      time.put("read", micros(read));
      time.put("aggregate", micros(aggregate));
      if (fetch >= 0 && decode >= 0) {
        time.put("fetch", micros(fetch));
        time.put("decode", micros(decode));
      }
    }
    long memoryHits = 0;
    long diskHits = 0;
    for (ServerProfile server : servers) {
      memoryHits = plus(memoryHits, server.memoryHits());
      diskHits = plus(diskHits, server.diskHits());
    }
    Cache tiers =
        new Cache(
            cache.decompressedPages(),
            cache.pageCacheHits(),
            memoryHits,
            diskHits,
            cache.storageRequests(),
            cache.storageBytes());
    return new ExplainReport(
        VERSION,
        analyze ? "ANALYZE" : "PLAN",
        table,
        snapshotId,
        lane,
        new Pruning(
            pruning.files(),
            pruning.afterPartition(),
            pruning.afterStatistics(),
            pruning.reasons()),
        group(profiles, analyze, verbose),
        totals(profiles, analyze),
        servers(servers),
        analyze ? tiers : null,
        time);
  }

  /** Groups {@code profiles} by how they were answered, in the order of each group's first file. */
  static List<FileGroup> group(List<FileProfile> profiles, boolean analyze, boolean verbose) {
    Map<List<Object>, List<FileProfile>> groups = new LinkedHashMap<>();
    for (FileProfile profile : profiles) {
      groups.computeIfAbsent(key(profile), k -> new ArrayList<>()).add(profile);
    }
    List<FileGroup> result = new ArrayList<>(groups.size());
    for (List<FileProfile> files : groups.values()) {
      FileProfile first = files.getFirst();
      long live = 0;
      long definite = 0;
      long candidates = 0;
      long matched = 0;
      long rowGroups = 0;
      long rowGroupsRead = 0;
      long pages = 0;
      long bytes = 0;
      long ran = 0;
      long pagesRead = 0;
      long requests = 0;
      long bytesRead = 0;
      long index = 0;
      long read = 0;
      long aggregate = 0;
      long fetch = 0;
      long decode = 0;
      for (FileProfile file : files) {
        live += file.liveRows();
        definite += file.definiteRows();
        candidates += file.candidateRows();
        rowGroups = plus(rowGroups, file.rowGroups());
        rowGroupsRead = plus(rowGroupsRead, file.rowGroupsRead());
        pages = plus(pages, file.pagesPlanned());
        bytes = plus(bytes, file.lowerBoundBytes());
        index += file.indexNanos();
        if (file.ran()) {
          ran++;
          matched += file.matchedRows();
          pagesRead += file.pagesRead();
          requests += file.requests();
          bytesRead += file.bytesRead();
          read += file.readNanos();
          aggregate += file.aggregateNanos();
          fetch = plus(fetch, file.fetchNanos());
          decode = plus(decode, file.decodeNanos());
        }
      }
      boolean parts = analyze && fetch >= 0 && decode >= 0;
      List<String> paths =
          verbose ? files.stream().map(FileProfile::path).toList() : List.of(first.path());
      StarTree starTree = null;
      if (first.starTree().isPresent()) {
        long records = 0;
        long treeRows = 0;
        List<FileProfile> edges = new ArrayList<>();
        for (FileProfile file : files) {
          records += file.starTree().orElseThrow().recordsVisited();
          treeRows += file.starTree().orElseThrow().rows();
          edges.addAll(file.starTree().orElseThrow().edges());
        }
        starTree =
            new StarTree(
                first.starTree().get().dimensions(),
                records,
                treeRows,
                group(edges, analyze, verbose));
      }
      ChunkReadProfile chunkReads = null;
      for (FileProfile file : files) {
        if (analyze && file.chunkReads().isPresent()) {
          ChunkReadProfile reads = file.chunkReads().get();
          chunkReads = chunkReads == null ? reads : chunkReads.plus(reads);
        }
      }
      result.add(
          new FileGroup(
              files.size(),
              first.segment(),
              first.answer(),
              first.terms(),
              first.columnsFromSegment(),
              first.columnsRead(),
              new Rows(live, definite, candidates, analyze ? matched : null),
              new Pages(rowGroups, rowGroupsRead, pages, bytes),
              analyze ? new Read(ran, pagesRead, requests, bytesRead) : null,
              new Time(
                  micros(index),
                  analyze ? micros(read) : null,
                  analyze ? micros(aggregate) : null,
                  parts ? micros(fetch) : null,
                  parts ? micros(decode) : null),
              paths,
              starTree,
              chunkReads == null ? null : ChunkReads.of(chunkReads)));
    }
    return result;
  }

  /**
   * What files answered alike share: the answer, the index per term, the columns, and for a
   * star-tree answer the tree and how its edges were answered.
   */
  private static List<Object> key(FileProfile profile) {
    List<Object> key = new ArrayList<>();
    key.add(profile.segment());
    key.add(profile.answer());
    key.add(profile.terms());
    key.add(profile.columnsFromSegment());
    key.add(profile.columnsRead());
    profile
        .starTree()
        .ifPresent(
            tree -> {
              key.add(tree.dimensions());
              key.add(tree.edges().stream().map(ExplainReport::key).toList());
            });
    return key;
  }

  /** A sum that stays -1 (unknown) once one part is unknown. */
  private static long plus(long sum, long value) {
    return sum < 0 || value < 0 ? -1 : sum + value;
  }

  static long micros(long nanos) {
    return nanos / 1_000;
  }

  /** The totals over every file's profile. */
  static Totals totals(List<FileProfile> profiles, boolean analyze) {
    int segment = 0;
    int withoutParquet = 0;
    int fromStarTree = 0;
    long live = 0;
    long definite = 0;
    long candidates = 0;
    long pages = 0;
    long bytes = 0;
    long ran = 0;
    long matched = 0;
    long filesMatched = 0;
    long pagesRead = 0;
    long requests = 0;
    long bytesRead = 0;
    for (FileProfile file : profiles) {
      segment += file.segment() ? 1 : 0;
      withoutParquet += file.segment() && readsNoParquet(file) ? 1 : 0;
      fromStarTree += file.answer() == FileAnswer.STAR_TREE ? 1 : 0;
      live += file.liveRows();
      definite += file.definiteRows();
      candidates += file.candidateRows();
      pages = plus(pages, file.pagesPlanned());
      bytes = plus(bytes, file.lowerBoundBytes());
      if (file.ran()) {
        ran++;
        matched += file.matchedRows();
        filesMatched += file.matchedRows() > 0 ? 1 : 0;
        pagesRead += file.pagesRead();
        requests += file.requests();
        bytesRead += file.bytesRead();
      }
    }
    return new Totals(
        profiles.size(),
        segment,
        withoutParquet,
        fromStarTree,
        live,
        definite,
        candidates,
        pages,
        bytes,
        analyze ? ran : null,
        analyze ? matched : null,
        analyze ? filesMatched : null,
        analyze ? pagesRead : null,
        analyze ? requests : null,
        analyze ? bytesRead : null);
  }

  /**
   * Whether the file is answered without a Parquet page: by its answer, or for a star-tree answer
   * when its edges decode (ANALYZE) or plan (EXPLAIN) no page, as the response's statistics count.
   */
  private static boolean readsNoParquet(FileProfile file) {
    FileAnswer answer = file.answer();
    if (answer == FileAnswer.STAR_TREE) {
      return file.ran() ? file.pagesRead() == 0 : file.pagesPlanned() == 0;
    }
    return answer == FileAnswer.NO_ROWS
        || answer == FileAnswer.COUNT_FROM_INDEX
        || answer == FileAnswer.VALUES_FROM_SEGMENT;
  }

  /** The servers' parts. */
  static List<Server> servers(List<ServerProfile> servers) {
    return servers.stream()
        .map(s -> new Server(s.server(), s.files().size(), micros(s.nanos())))
        .toList();
  }
}
