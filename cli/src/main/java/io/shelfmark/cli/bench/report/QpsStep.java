package io.shelfmark.cli.bench.report;

/**
 * One target rate of a QPS sweep.
 *
 * @param targetQps the rate the load generator scheduled
 * @param achievedQps completed queries per second over the step
 * @param issued queries scheduled
 * @param completed queries answered without error
 * @param failed queries that failed or answered an error
 * @param dropped scheduled queries not sent because too many were in flight
 * @param meanMs mean latency from intended start to answer (no coordinated omission)
 * @param p50Ms median latency
 * @param p99Ms 99th percentile latency
 * @param processCpu the process's CPU use over the step, as a share of all cores (0..1)
 */
public record QpsStep(
    double targetQps,
    double achievedQps,
    long issued,
    long completed,
    long failed,
    long dropped,
    double meanMs,
    double p50Ms,
    double p99Ms,
    double processCpu) {}
