package io.shelfmark.broker.query;

/**
 * What answering a query cost, in the vocabulary of Pinot's broker response plus Shelfmark's
 * object-storage and cache figures. All counts are totals over every segment and server. {@code
 * numSegmentsIndexOnly}: files answered from their segment alone, without reading any Parquet page
 * (a count from the posting lists, values read back from forward, sorted or inverted indexes).
 * {@code numSegmentsStarTree}: files whose aggregation came from a star-tree of their segment.
 * {@code storageRetries}: attempts the storage client repeated (503 SlowDown, connection resets,
 * 500s) while answering — faults the answer survived. {@code numPagesFromStatistics}: Parquet data
 * pages whose MIN/MAX came from their page statistics instead of being read; {@code
 * numChunksReadWhole}: partly selected column chunks fetched as one span by the read cost model.
 */
public record QueryStatistics(
    long numDocsScanned,
    long totalDocs,
    int numSegmentsQueried,
    int numSegmentsProcessed,
    int numSegmentsMatched,
    int numSegmentsPrunedByBroker,
    long storageBytesRead,
    long storageRequests,
    long cacheHits,
    long cacheMisses,
    long snapshotId,
    int numSegmentsIndexOnly,
    int numSegmentsStarTree,
    long storageRetries,
    long numPagesFromStatistics,
    long numChunksReadWhole) {

  /** Nothing was read: a query refused before execution. Snapshot id -1 means none answered. */
  public static final QueryStatistics NONE =
      new QueryStatistics(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0);

  /** Statistics without pages from statistics or whole chunks counted. */
  public QueryStatistics(
      long numDocsScanned,
      long totalDocs,
      int numSegmentsQueried,
      int numSegmentsProcessed,
      int numSegmentsMatched,
      int numSegmentsPrunedByBroker,
      long storageBytesRead,
      long storageRequests,
      long cacheHits,
      long cacheMisses,
      long snapshotId,
      int numSegmentsIndexOnly,
      int numSegmentsStarTree,
      long storageRetries) {
    this(
        numDocsScanned,
        totalDocs,
        numSegmentsQueried,
        numSegmentsProcessed,
        numSegmentsMatched,
        numSegmentsPrunedByBroker,
        storageBytesRead,
        storageRequests,
        cacheHits,
        cacheMisses,
        snapshotId,
        numSegmentsIndexOnly,
        numSegmentsStarTree,
        storageRetries,
        0,
        0);
  }

  /** Statistics without star-tree answers or storage retries counted. */
  public QueryStatistics(
      long numDocsScanned,
      long totalDocs,
      int numSegmentsQueried,
      int numSegmentsProcessed,
      int numSegmentsMatched,
      int numSegmentsPrunedByBroker,
      long storageBytesRead,
      long storageRequests,
      long cacheHits,
      long cacheMisses,
      long snapshotId,
      int numSegmentsIndexOnly) {
    this(
        numDocsScanned,
        totalDocs,
        numSegmentsQueried,
        numSegmentsProcessed,
        numSegmentsMatched,
        numSegmentsPrunedByBroker,
        storageBytesRead,
        storageRequests,
        cacheHits,
        cacheMisses,
        snapshotId,
        numSegmentsIndexOnly,
        0,
        0,
        0,
        0);
  }

  /** Statistics without index-only files counted. */
  public QueryStatistics(
      long numDocsScanned,
      long totalDocs,
      int numSegmentsQueried,
      int numSegmentsProcessed,
      int numSegmentsMatched,
      int numSegmentsPrunedByBroker,
      long storageBytesRead,
      long storageRequests,
      long cacheHits,
      long cacheMisses,
      long snapshotId) {
    this(
        numDocsScanned,
        totalDocs,
        numSegmentsQueried,
        numSegmentsProcessed,
        numSegmentsMatched,
        numSegmentsPrunedByBroker,
        storageBytesRead,
        storageRequests,
        cacheHits,
        cacheMisses,
        snapshotId,
        0);
  }
}
