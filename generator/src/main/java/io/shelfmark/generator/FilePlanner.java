package io.shelfmark.generator;

import io.shelfmark.generator.distribution.MetricsDistribution;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Cuts the table into data files: one or more per non-empty (org, day) partition, each a run of
 * whole minutes, closed once it holds at least {@code maxRowsPerFile} rows. Cutting at minute
 * boundaries keeps each file's time range disjoint from its neighbours' and lets every file be
 * generated on its own (a minute's rows depend only on its coordinates).
 */
final class FilePlanner {
  private FilePlanner() {}

  /** The files of the table, in (org rank, day, sequence) order. */
  static List<FileTask> plan(MetricsDistribution distribution, long maxRowsPerFile) {
    List<FileTask> tasks = new ArrayList<>();
    for (int rank = 0; rank < MetricsDistribution.ORG_COUNT; rank++) {
      for (int day = 0; day < MetricsDistribution.DAYS; day++) {
        if (distribution.partitionRows(rank, day) > 0) {
          planPartition(rank, day, distribution.sliceRows(rank, day), maxRowsPerFile, tasks);
        }
      }
    }
    return tasks;
  }

  private static void planPartition(
      int rank, int day, int[] sliceRows, long maxRowsPerFile, List<FileTask> tasks) {
    int sequence = 0;
    int first = 0;
    long rows = 0;
    for (int slice = 0; slice < sliceRows.length; slice++) {
      rows += sliceRows[slice];
      boolean last = slice == sliceRows.length - 1;
      if (rows > 0 && (rows >= maxRowsPerFile || last)) {
        int end = slice + 1;
        int[] counts = Arrays.copyOfRange(sliceRows, first, end);
        tasks.add(new FileTask(rank, day, sequence++, first, end, rows, counts));
        first = end;
        rows = 0;
      }
    }
  }
}
