package io.shelfmark.cli.bench.report;

import static java.util.Objects.requireNonNull;

/**
 * One query in one mode: cold and hot latency, storage traffic and what the engine reports.
 *
 * @param query Q1 … Q4
 * @param mode {@code remote}, {@code pinned} or {@code pinned+pages}
 * @param coldMs the cold run's client-observed latency; null when the cold run failed
 * @param coldIo the cold run's storage traffic; null when it failed
 * @param hot the hot runs
 * @param hotIo storage traffic of the last hot run (the steady state)
 * @param docsMatched {@code numDocsScanned}: rows left after index filtering
 * @param totalDocs {@code totalDocs}
 * @param segmentsQueried {@code numSegmentsQueried}
 * @param segmentsPruned {@code numSegmentsPrunedByBroker}
 * @param serverTimeMs {@code timeUsedMs}, the broker's own time
 * @param lowerBoundBytes the query's lower bound of bytes (see {@link QueryBound})
 * @param bytesOverLowerBound hot storage bytes / lower bound; null when the bound is 0
 * @param duckDbMedianMs DuckDB's hot median for the query; null when not measured
 * @param shelfmarkOverDuckDb hot median / DuckDB hot median (below 1: Shelfmark is faster)
 * @param error the first error the engine answered, or null
 * @param flightSqlHot the hot runs over Arrow Flight SQL (the same node, after the HTTP runs); null
 *     when not measured or a run failed
 * @param topology where the query ran: {@code all-in-one} (every role in one process) or {@code
 *     cluster} (a local cluster: broker and servers as separate processes, Arrow Flight between
 *     them); a report written before topologies reads as {@code all-in-one}
 * @param secondIo storage traffic of the query's second execution: run again on the cold run's node
 *     right after the cold run, so in page-cache mode it shows what the first left to fetch; null
 *     when there was no cold run (a cluster record, a failed cold run, a report written before it)
 */
public record QueryRecord(
    String query,
    String mode,
    Double coldMs,
    IoFigures coldIo,
    LatencySummary hot,
    IoFigures hotIo,
    long docsMatched,
    long totalDocs,
    long segmentsQueried,
    long segmentsPruned,
    long serverTimeMs,
    long lowerBoundBytes,
    Double bytesOverLowerBound,
    Double duckDbMedianMs,
    Double shelfmarkOverDuckDb,
    String error,
    LatencySummary flightSqlHot,
    String topology,
    IoFigures secondIo) {
  /** The topology of a record that names none. */
  public static final String ALL_IN_ONE = "all-in-one";

  public QueryRecord {
    requireNonNull(query, "query is null");
    requireNonNull(mode, "mode is null");
    requireNonNull(hot, "hot is null");
    requireNonNull(hotIo, "hotIo is null");
    topology = topology == null ? ALL_IN_ONE : topology;
  }

  /** This record with the Flight SQL hot runs. */
  public QueryRecord withFlightSql(LatencySummary flightSqlHot) {
    return new QueryRecord(
        query,
        mode,
        coldMs,
        coldIo,
        hot,
        hotIo,
        docsMatched,
        totalDocs,
        segmentsQueried,
        segmentsPruned,
        serverTimeMs,
        lowerBoundBytes,
        bytesOverLowerBound,
        duckDbMedianMs,
        shelfmarkOverDuckDb,
        error,
        flightSqlHot,
        topology,
        secondIo);
  }

  /** This record measured on {@code topology}. */
  public QueryRecord withTopology(String topology) {
    return new QueryRecord(
        query,
        mode,
        coldMs,
        coldIo,
        hot,
        hotIo,
        docsMatched,
        totalDocs,
        segmentsQueried,
        segmentsPruned,
        serverTimeMs,
        lowerBoundBytes,
        bytesOverLowerBound,
        duckDbMedianMs,
        shelfmarkOverDuckDb,
        error,
        flightSqlHot,
        topology,
        secondIo);
  }

  /** This record with {@code error} (when it had none). */
  public QueryRecord withError(String error) {
    return new QueryRecord(
        query,
        mode,
        coldMs,
        coldIo,
        hot,
        hotIo,
        docsMatched,
        totalDocs,
        segmentsQueried,
        segmentsPruned,
        serverTimeMs,
        lowerBoundBytes,
        bytesOverLowerBound,
        duckDbMedianMs,
        shelfmarkOverDuckDb,
        this.error == null ? error : this.error,
        flightSqlHot,
        topology,
        secondIo);
  }

  /** This record with the second execution's storage traffic. */
  public QueryRecord withSecondIo(IoFigures secondIo) {
    return new QueryRecord(
        query,
        mode,
        coldMs,
        coldIo,
        hot,
        hotIo,
        docsMatched,
        totalDocs,
        segmentsQueried,
        segmentsPruned,
        serverTimeMs,
        lowerBoundBytes,
        bytesOverLowerBound,
        duckDbMedianMs,
        shelfmarkOverDuckDb,
        error,
        flightSqlHot,
        topology,
        secondIo);
  }

  /** Whether it ran on the all-in-one node. */
  public boolean allInOne() {
    return ALL_IN_ONE.equals(topology);
  }
}
