package io.shelfmark.broker.query;

/**
 * What answering a query cost, in the vocabulary of Pinot's broker response plus Shelfmark's
 * object-storage and cache figures. All counts are totals over every segment and server.
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
    long snapshotId) {

  /** Nothing was read: a query refused before execution. Snapshot id -1 means none answered. */
  public static final QueryStatistics NONE = new QueryStatistics(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1);
}
