package io.shelfmark.indexbuilder.build;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * Where one build's wall time went, phase by phase, for profiling the builder on real data.
 *
 * @param metadata reading the footer and the page locations
 * @param decode waiting for pages and decoding them ({@code ParquetRead.next})
 * @param feed moving decoded values into the segment builder (hashing into dictionaries, map key
 *     extraction)
 * @param seal building the star-trees, sorting dictionaries, building every index and writing the
 *     segment file
 * @param upload writing the segment to the segment store
 * @param starTreeCpu the building thread's CPU time in the star-trees' feeding and building (a part
 *     of feed and seal): CPU, not wall time, so that on a shared machine what the trees cost can be
 *     told apart from what the other processes took
 */
public record BuildTimings(
    Duration metadata,
    Duration decode,
    Duration feed,
    Duration seal,
    Duration upload,
    Duration starTreeCpu) {
  public static final BuildTimings ZERO =
      new BuildTimings(
          Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO);

  public BuildTimings {
    requireNonNull(metadata, "metadata is null");
    requireNonNull(decode, "decode is null");
    requireNonNull(feed, "feed is null");
    requireNonNull(seal, "seal is null");
    requireNonNull(upload, "upload is null");
    requireNonNull(starTreeCpu, "starTreeCpu is null");
  }

  /** The phases of two builds added up. */
  public BuildTimings plus(BuildTimings other) {
    return new BuildTimings(
        metadata.plus(other.metadata),
        decode.plus(other.decode),
        feed.plus(other.feed),
        seal.plus(other.seal),
        upload.plus(other.upload),
        starTreeCpu.plus(other.starTreeCpu));
  }
}
