package io.shelfmark.indexbuilder.build;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The outcome of a batch build: one {@link FileOutcome} per data file, in the order the files were
 * given, and the batch's wall time.
 *
 * @param outcomes per data file, in input order
 * @param wallTime from the first build started to the last finished
 * @param threads how many files were built at once
 */
public record IndexingReport(List<FileOutcome> outcomes, Duration wallTime, int threads) {
  public IndexingReport {
    outcomes = ImmutableList.copyOf(requireNonNull(outcomes, "outcomes is null"));
    requireNonNull(wallTime, "wallTime is null");
  }

  public List<BuildResult> built() {
    List<BuildResult> built = new ArrayList<>();
    for (FileOutcome outcome : outcomes) {
      if (outcome instanceof FileOutcome.Built(BuildResult result)) {
        built.add(result);
      }
    }
    return built;
  }

  public List<FileOutcome.Reused> reused() {
    List<FileOutcome.Reused> reused = new ArrayList<>();
    for (FileOutcome outcome : outcomes) {
      if (outcome instanceof FileOutcome.Reused found) {
        reused.add(found);
      }
    }
    return reused;
  }

  public List<BuildFailure> failed() {
    List<BuildFailure> failed = new ArrayList<>();
    for (FileOutcome outcome : outcomes) {
      if (outcome instanceof FileOutcome.Failed(BuildFailure failure)) {
        failed.add(failure);
      }
    }
    return failed;
  }

  /** Rows of the files built now. */
  public long rowsBuilt() {
    long rows = 0;
    for (BuildResult result : built()) {
      rows += result.rows();
    }
    return rows;
  }

  /** Bytes of the data files that have a segment (built or reused). */
  public long dataBytes() {
    long bytes = 0;
    for (FileOutcome outcome : outcomes) {
      bytes +=
          switch (outcome) {
            case FileOutcome.Built built -> built.result().dataFileBytes();
            case FileOutcome.Reused reused -> reused.dataFileBytes();
            case FileOutcome.Failed failed -> 0;
          };
    }
    return bytes;
  }

  /** Bytes of their segments. */
  public long segmentBytes() {
    long bytes = 0;
    for (FileOutcome outcome : outcomes) {
      bytes +=
          switch (outcome) {
            case FileOutcome.Built built -> built.result().segmentBytes();
            case FileOutcome.Reused reused -> reused.segmentBytes();
            case FileOutcome.Failed failed -> 0;
          };
    }
    return bytes;
  }

  /** The built segments' bytes by part kind, summed. */
  public Map<String, Long> bytesByPart() {
    Map<String, Long> bytes = new TreeMap<>();
    for (BuildResult result : built()) {
      result.bytesByPart().forEach((kind, size) -> bytes.merge(kind, size, Long::sum));
    }
    return bytes;
  }

  /** The built files' phase timings, summed over files (CPU-ish time, not wall time). */
  public BuildTimings timings() {
    BuildTimings total = BuildTimings.ZERO;
    for (BuildResult result : built()) {
      total = total.plus(result.timings());
    }
    return total;
  }

  /** Rows built per second of the batch's wall time. */
  public double rowsPerSecond() {
    double seconds = wallTime.toNanos() / 1e9;
    return seconds <= 0 ? 0 : rowsBuilt() / seconds;
  }
}
