package io.shelfmark.cli.bench.report;

/**
 * Object-storage traffic of one query execution, from both sides of the wire.
 *
 * @param storageBytes bytes Shelfmark reports it read from object storage ({@code
 *     storageBytesRead})
 * @param storageRequests requests Shelfmark reports ({@code storageRequests})
 * @param proxyRequests requests the latency proxy counted (every method)
 * @param proxyBytes response body bytes the proxy counted
 * @param sequentialRounds sequential rounds of GETs the proxy saw: the critical path's round trips
 * @param cacheHits cache hits Shelfmark reports
 * @param cacheMisses cache misses Shelfmark reports
 */
public record IoFigures(
    long storageBytes,
    long storageRequests,
    long proxyRequests,
    long proxyBytes,
    int sequentialRounds,
    long cacheHits,
    long cacheMisses) {}
