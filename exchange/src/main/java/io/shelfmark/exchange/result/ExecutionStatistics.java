package io.shelfmark.exchange.result;

/**
 * What executing a query (or one file of it) did, summed over files and servers by {@link #plus}.
 *
 * <p>Parquet I/O figures come from the Parquet reader's per-read {@code ReadStats}: requests and
 * bytes the reader asked of its data store (through a {@code CachingObjectStore}, a cache hit still
 * counts here: these are bytes the query needed, not bytes that crossed the network; take the
 * store's {@code StorageStats} delta for the latter). Segment reads are not included.
 *
 * @param docsScanned rows matched after the filter and deletes (Pinot's numDocsScanned)
 * @param totalDocs live rows of the files queried (record counts minus deleted positions)
 * @param filesQueried data files executed
 * @param filesMatched data files with at least one matching row
 * @param segmentsQueried files executed with a segment
 * @param segmentsMatched of those, the ones with at least one matching row
 * @param filesAnsweredFromSegment files answered without reading any Parquet page
 * @param filesReadWithoutSegment files executed without a segment (footer, statistics, pages)
 * @param rowGroupsPruned row groups of files without segments skipped on footer statistics
 * @param parquetRequests ranged GETs the Parquet reader issued (footers, page indexes, pages)
 * @param parquetBytesRead bytes those GETs returned
 * @param parquetPagesRead data and dictionary pages decoded
 * @param parquetPagesKept of the data pages, those decoded from bodies kept decompressed in memory,
 *     without requesting their bytes
 * @param filesAnsweredFromStarTree files whose aggregation came from a star-tree of their segment
 *     (rows of time buckets the filter cuts may still have been read)
 * @param parquetPagesFromStatistics data pages whose MIN/MAX came from their Parquet page
 *     statistics (ColumnIndex) instead of being read: every row of the page matched
 * @param parquetChunksReadWhole column chunks fetched whole (one range from their first selected
 *     page to their last) where page selection would have issued more requests than the cost model
 *     says the skipped bytes are worth
 */
public record ExecutionStatistics(
    long docsScanned,
    long totalDocs,
    long filesQueried,
    long filesMatched,
    long segmentsQueried,
    long segmentsMatched,
    long filesAnsweredFromSegment,
    long filesReadWithoutSegment,
    long rowGroupsPruned,
    long parquetRequests,
    long parquetBytesRead,
    long parquetPagesRead,
    long parquetPagesKept,
    long filesAnsweredFromStarTree,
    long parquetPagesFromStatistics,
    long parquetChunksReadWhole) {
  public static final ExecutionStatistics EMPTY =
      new ExecutionStatistics(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

  /** Statistics without page-statistics answers or whole-chunk reads. */
  public ExecutionStatistics(
      long docsScanned,
      long totalDocs,
      long filesQueried,
      long filesMatched,
      long segmentsQueried,
      long segmentsMatched,
      long filesAnsweredFromSegment,
      long filesReadWithoutSegment,
      long rowGroupsPruned,
      long parquetRequests,
      long parquetBytesRead,
      long parquetPagesRead,
      long parquetPagesKept,
      long filesAnsweredFromStarTree) {
    this(
        docsScanned,
        totalDocs,
        filesQueried,
        filesMatched,
        segmentsQueried,
        segmentsMatched,
        filesAnsweredFromSegment,
        filesReadWithoutSegment,
        rowGroupsPruned,
        parquetRequests,
        parquetBytesRead,
        parquetPagesRead,
        parquetPagesKept,
        filesAnsweredFromStarTree,
        0,
        0);
  }

  /** Statistics without star-tree answers. */
  public ExecutionStatistics(
      long docsScanned,
      long totalDocs,
      long filesQueried,
      long filesMatched,
      long segmentsQueried,
      long segmentsMatched,
      long filesAnsweredFromSegment,
      long filesReadWithoutSegment,
      long rowGroupsPruned,
      long parquetRequests,
      long parquetBytesRead,
      long parquetPagesRead,
      long parquetPagesKept) {
    this(
        docsScanned,
        totalDocs,
        filesQueried,
        filesMatched,
        segmentsQueried,
        segmentsMatched,
        filesAnsweredFromSegment,
        filesReadWithoutSegment,
        rowGroupsPruned,
        parquetRequests,
        parquetBytesRead,
        parquetPagesRead,
        parquetPagesKept,
        0);
  }

  public ExecutionStatistics plus(ExecutionStatistics other) {
    return new ExecutionStatistics(
        docsScanned + other.docsScanned,
        totalDocs + other.totalDocs,
        filesQueried + other.filesQueried,
        filesMatched + other.filesMatched,
        segmentsQueried + other.segmentsQueried,
        segmentsMatched + other.segmentsMatched,
        filesAnsweredFromSegment + other.filesAnsweredFromSegment,
        filesReadWithoutSegment + other.filesReadWithoutSegment,
        rowGroupsPruned + other.rowGroupsPruned,
        parquetRequests + other.parquetRequests,
        parquetBytesRead + other.parquetBytesRead,
        parquetPagesRead + other.parquetPagesRead,
        parquetPagesKept + other.parquetPagesKept,
        filesAnsweredFromStarTree + other.filesAnsweredFromStarTree,
        parquetPagesFromStatistics + other.parquetPagesFromStatistics,
        parquetChunksReadWhole + other.parquetChunksReadWhole);
  }

  long[] toArray() {
    return new long[] {
      docsScanned,
      totalDocs,
      filesQueried,
      filesMatched,
      segmentsQueried,
      segmentsMatched,
      filesAnsweredFromSegment,
      filesReadWithoutSegment,
      rowGroupsPruned,
      parquetRequests,
      parquetBytesRead,
      parquetPagesRead,
      parquetPagesKept,
      filesAnsweredFromStarTree,
      parquetPagesFromStatistics,
      parquetChunksReadWhole
    };
  }

  /**
   * From {@link #toArray()}'s values; 13 values (partial result version 2) have no star-trees, 14
   * (version 3) no page statistics or whole chunks.
   */
  static ExecutionStatistics fromArray(long[] v) {
    return new ExecutionStatistics(
        v[0],
        v[1],
        v[2],
        v[3],
        v[4],
        v[5],
        v[6],
        v[7],
        v[8],
        v[9],
        v[10],
        v[11],
        v[12],
        v.length > 13 ? v[13] : 0,
        v.length > 14 ? v[14] : 0,
        v.length > 15 ? v[15] : 0);
  }
}
