package io.shelfmark.cli.bench.report;

/**
 * The index build of the run (all segments of the table's snapshot).
 *
 * @param seconds from onboarding to the last segment ready
 * @param rowsPerSecond rows indexed per second
 * @param segments segments ready
 * @param segmentsFailed segments that failed to build
 * @param dataBytes bytes of the Parquet data files
 * @param indexBytes bytes of the segments
 * @param indexToDataRatio indexBytes / dataBytes
 */
public record BuildFigures(
    double seconds,
    double rowsPerSecond,
    long segments,
    long segmentsFailed,
    long dataBytes,
    long indexBytes,
    double indexToDataRatio) {
  public static BuildFigures of(
      double seconds, long rows, long segments, long failed, long dataBytes, long indexBytes) {
    return new BuildFigures(
        seconds,
        seconds <= 0 ? 0 : rows / seconds,
        segments,
        failed,
        dataBytes,
        indexBytes,
        dataBytes == 0 ? 0 : (double) indexBytes / dataBytes);
  }
}
