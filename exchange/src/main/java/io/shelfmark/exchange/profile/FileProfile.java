package io.shelfmark.exchange.profile;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * What a server plans for one data file of a query and, under EXPLAIN ANALYZE, what it did.
 *
 * <p>Counts that are not known are {@code -1}: the pages of a file without segment before it runs
 * (its footer is not read by EXPLAIN), and every "did" figure under plain EXPLAIN.
 *
 * @param path the data file
 * @param segment whether the file has a usable segment
 * @param answer how the file is answered
 * @param terms per WHERE term, what answers it (empty without a filter)
 * @param columnsFromSegment columns and map keys whose values the segment gives, with the index:
 *     {@code metric (forward)}
 * @param columnsRead Parquet leaf columns read, dotted paths
 * @param liveRows rows of the file less its deleted rows
 * @param definiteRows rows the indexes say match
 * @param candidateRows rows the indexes left to check on values
 * @param rowGroups row groups of the file ({@code -1} when unknown)
 * @param rowGroupsRead row groups with a page to read
 * @param pagesPlanned data and dictionary pages planned
 * @param lowerBoundBytes the planned pages' own bytes: what any read of the plan fetches
 * @param ran whether the file was executed (ANALYZE; a LIMIT may leave later files unrun)
 * @param matchedRows rows that matched after every check (numDocsScanned)
 * @param pagesRead data and dictionary pages decoded
 * @param requests ranged GETs for the file (footer, page index, pages)
 * @param bytesRead bytes those GETs returned (coalescing gaps included)
 * @param indexNanos time evaluating the index filter
 * @param readNanos time starting the Parquet read and waiting for and decoding its pages (on the
 *     file's thread; row groups decoded ahead by helper threads overlap it)
 * @param aggregateNanos time checking the remaining terms and feeding rows to the aggregation or
 *     row collection
 * @param fetchNanos the part of the read spent waiting for page bytes (from storage or the page
 *     cache), summed over the threads that decoded the file's row groups; {@code -1} when unknown
 *     (a version 2 profile)
 * @param decodeNanos the part spent decompressing and decoding pages, summed over those threads;
 *     {@code -1} when unknown
 * @param starTree how the file was answered from a star-tree, when {@link FileAnswer#STAR_TREE}
 * @param chunkReads under ANALYZE, whether the read fetched its partly selected chunks page by page
 *     or whole, with the cost figures; empty under EXPLAIN, for a file that read no Parquet, and in
 *     profiles before version 5
 */
public record FileProfile(
    String path,
    boolean segment,
    FileAnswer answer,
    List<TermProfile> terms,
    List<String> columnsFromSegment,
    List<String> columnsRead,
    long liveRows,
    long definiteRows,
    long candidateRows,
    long rowGroups,
    long rowGroupsRead,
    long pagesPlanned,
    long lowerBoundBytes,
    boolean ran,
    long matchedRows,
    long pagesRead,
    long requests,
    long bytesRead,
    long indexNanos,
    long readNanos,
    long aggregateNanos,
    long fetchNanos,
    long decodeNanos,
    Optional<StarTreeProfile> starTree,
    Optional<ChunkReadProfile> chunkReads) {
  public FileProfile {
    requireNonNull(path, "path is null");
    requireNonNull(answer, "answer is null");
    terms = List.copyOf(requireNonNull(terms, "terms is null"));
    columnsFromSegment =
        List.copyOf(requireNonNull(columnsFromSegment, "columnsFromSegment is null"));
    columnsRead = List.copyOf(requireNonNull(columnsRead, "columnsRead is null"));
    requireNonNull(starTree, "starTree is null");
    requireNonNull(chunkReads, "chunkReads is null");
  }

  /** A profile of version 4's fields: no whole-chunk choice. */
  public FileProfile(
      String path,
      boolean segment,
      FileAnswer answer,
      List<TermProfile> terms,
      List<String> columnsFromSegment,
      List<String> columnsRead,
      long liveRows,
      long definiteRows,
      long candidateRows,
      long rowGroups,
      long rowGroupsRead,
      long pagesPlanned,
      long lowerBoundBytes,
      boolean ran,
      long matchedRows,
      long pagesRead,
      long requests,
      long bytesRead,
      long indexNanos,
      long readNanos,
      long aggregateNanos,
      long fetchNanos,
      long decodeNanos,
      Optional<StarTreeProfile> starTree) {
    this(
        path,
        segment,
        answer,
        terms,
        columnsFromSegment,
        columnsRead,
        liveRows,
        definiteRows,
        candidateRows,
        rowGroups,
        rowGroupsRead,
        pagesPlanned,
        lowerBoundBytes,
        ran,
        matchedRows,
        pagesRead,
        requests,
        bytesRead,
        indexNanos,
        readNanos,
        aggregateNanos,
        fetchNanos,
        decodeNanos,
        starTree,
        Optional.empty());
  }

  /** A profile of version 2's fields: fetch and decode not told apart, no star-tree. */
  public FileProfile(
      String path,
      boolean segment,
      FileAnswer answer,
      List<TermProfile> terms,
      List<String> columnsFromSegment,
      List<String> columnsRead,
      long liveRows,
      long definiteRows,
      long candidateRows,
      long rowGroups,
      long rowGroupsRead,
      long pagesPlanned,
      long lowerBoundBytes,
      boolean ran,
      long matchedRows,
      long pagesRead,
      long requests,
      long bytesRead,
      long indexNanos,
      long readNanos,
      long aggregateNanos) {
    this(
        path,
        segment,
        answer,
        terms,
        columnsFromSegment,
        columnsRead,
        liveRows,
        definiteRows,
        candidateRows,
        rowGroups,
        rowGroupsRead,
        pagesPlanned,
        lowerBoundBytes,
        ran,
        matchedRows,
        pagesRead,
        requests,
        bytesRead,
        indexNanos,
        readNanos,
        aggregateNanos,
        -1,
        -1,
        Optional.empty());
  }
}
