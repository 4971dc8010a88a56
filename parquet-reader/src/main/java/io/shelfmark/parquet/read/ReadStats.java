package io.shelfmark.parquet.read;

import java.util.Optional;

/**
 * What one read of one file cost and did. Counts only this read's own requests, so it stays exact
 * when many reads share a store.
 *
 * @param pagesPlanned data pages in the plan
 * @param dictionaryPagesPlanned dictionary pages in the plan
 * @param pagesRead data pages decoded so far
 * @param dictionaryPagesRead dictionary pages decoded so far
 * @param requests ranged GETs issued (footer, page indexes, header walks and pages)
 * @param bytesRead bytes those GETs returned, coalescing gaps included
 * @param lowerBoundBytes the planned pages' own bytes: what any reader of the plan must fetch
 * @param keptPagesRead data pages decoded from pages kept decompressed, without fetching them
 * @param fetchNanos time the decoding threads waited for page bytes (a GET in flight, the page
 *     cache), summed over threads
 * @param decodeNanos time they spent decompressing and decoding pages, summed over threads
 * @param chunksReadWhole partly selected column chunks fetched as one span rather than page by page
 *     ({@link ChunkReadChoice})
 * @param chunkReads the figures of that choice; empty before the read started its fetches
 */
public record ReadStats(
    int pagesPlanned,
    int dictionaryPagesPlanned,
    int pagesRead,
    int dictionaryPagesRead,
    int requests,
    long bytesRead,
    long lowerBoundBytes,
    int keptPagesRead,
    long fetchNanos,
    long decodeNanos,
    int chunksReadWhole,
    Optional<ChunkReadFigures> chunkReads) {}
