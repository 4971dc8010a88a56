package io.shelfmark.cli.bench.report;

/**
 * The broker's own view of one query, from {@code EXPLAIN ANALYZE} run several times on a warm
 * node: medians over the runs of the times its {@code explain} object reports (docs/sql.md). Under
 * EXPLAIN every file is answered from its rows (star-trees are not profiled), so for a query a
 * star-tree answers these are the times of its row path, in either topology alike.
 *
 * @param runs EXPLAIN ANALYZE runs made (the first excluded from the medians, as hot runs)
 * @param executeMs the broker's execute phase: dispatch to the servers until every partial result
 *     is back (in the all-in-one node, the in-process dispatch)
 * @param serverMs per run the slowest server's time as the broker saw it, from sending its fragment
 *     to its whole partial result ({@code servers[].timeMicros}; {@code local} in the all-in-one
 *     node); the servers run in parallel, so the slowest one bounds the execute phase
 * @param serverWorkMs per run the files' own index, read and aggregate times summed over every file
 *     (on the servers' threads; files run in parallel, so this can exceed {@code serverMs})
 * @param totalMs the broker's whole time: plan, prune, execute and finish
 * @param servers servers that answered the last run
 */
public record ExplainTimes(
    int runs,
    double executeMs,
    double serverMs,
    double serverWorkMs,
    double totalMs,
    int servers) {}
