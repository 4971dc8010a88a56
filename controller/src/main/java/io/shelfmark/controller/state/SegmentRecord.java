package io.shelfmark.controller.state;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.shelfmark.controller.table.SegmentState;
import io.shelfmark.indexbuilder.build.BuildFailure;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.storage.spi.Location;
import java.util.Optional;

/**
 * What the controller knows durably about the segment of one data file: built (where, how large) or
 * failed (why), for the spec with {@code specFingerprint}. A record is taken as it is only when its
 * data file, size and fingerprint all match the file and spec being served; otherwise the file gets
 * a new segment.
 *
 * @param dataFile the data file's path
 * @param fileSize the data file's size in bytes
 * @param specFingerprint the fingerprint of the spec the segment was built from
 * @param state {@code ready} or {@code failed}
 * @param location the segment's location in the segment store (ready only; else empty)
 * @param sizeInBytes the segment's size (ready only; 0 when failed)
 * @param failureKind the failure's kind, as {@link BuildFailure.Kind} names it (failed only; else
 *     empty)
 * @param reason why the build failed (failed only; else empty)
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record SegmentRecord(
    String dataFile,
    long fileSize,
    String specFingerprint,
    String state,
    String location,
    long sizeInBytes,
    String failureKind,
    String reason) {
  public static final String READY = "ready";
  public static final String FAILED = "failed";

  public SegmentRecord {
    requireNonNull(dataFile, "dataFile is null");
    requireNonNull(specFingerprint, "specFingerprint is null");
    requireNonNull(state, "state is null");
    // Absent in JSON (left out when empty) reads as null.
    location = location == null ? "" : location;
    failureKind = failureKind == null ? "" : failureKind;
    reason = reason == null ? "" : reason;
    if (!state.equals(READY) && !state.equals(FAILED)) {
      throw new IllegalArgumentException(
          "Cannot record the segment of " + dataFile + ": unknown state \"" + state + "\"");
    }
  }

  /** The record of a built segment. */
  public static SegmentRecord ready(
      String dataFile, long fileSize, String specFingerprint, Location location, long size) {
    return new SegmentRecord(
        dataFile, fileSize, specFingerprint, READY, location.toString(), size, "", "");
  }

  /** The record of a failed build. */
  public static SegmentRecord failed(
      String dataFile, long fileSize, String specFingerprint, BuildFailure failure) {
    return new SegmentRecord(
        dataFile,
        fileSize,
        specFingerprint,
        FAILED,
        "",
        0,
        failure.kind().name(),
        failure.reason());
  }

  /** The record of a data file's segment in {@code state}; empty for a pending one. */
  public static Optional<SegmentRecord> of(
      String dataFile, long fileSize, String specFingerprint, SegmentState state) {
    return switch (state) {
      case SegmentState.Ready ready ->
          Optional.of(
              ready(dataFile, fileSize, specFingerprint, ready.location(), ready.sizeInBytes()));
      case SegmentState.Failed failed ->
          Optional.of(failed(dataFile, fileSize, specFingerprint, failed.failure()));
      case SegmentState.Pending pending -> Optional.empty();
    };
  }

  /**
   * The name of the record's node: the data file named as the segment store names its segment,
   * {@code <sha-256 of the path, 32 hex>-<size>}.
   */
  public static String fileKey(String dataFile, long fileSize) {
    String name = SegmentStore.segmentName(dataFile, fileSize);
    return name.substring(0, name.length() - SegmentStore.EXTENSION.length());
  }

  public String fileKey() {
    return fileKey(dataFile, fileSize);
  }

  /**
   * The state this record gives a file of {@code fileSize} bytes at {@code dataFile} served with
   * the spec {@code fingerprint}: empty when the record is of another file or spec, or when it
   * records a failure a new build may not repeat (a storage error), so the file is built again.
   */
  public Optional<SegmentState> stateFor(String path, long size, String fingerprint) {
    if (!dataFile.equals(path) || fileSize != size || !specFingerprint.equals(fingerprint)) {
      return Optional.empty();
    }
    if (state.equals(READY)) {
      return location.isEmpty()
          ? Optional.empty()
          : Optional.of(new SegmentState.Ready(Location.parse(location), sizeInBytes));
    }
    BuildFailure.Kind kind;
    try {
      kind = BuildFailure.Kind.valueOf(failureKind);
    } catch (IllegalArgumentException e) {
      kind = BuildFailure.Kind.INTERNAL; // an unknown kind is not retried
    }
    BuildFailure failure =
        new BuildFailure(dataFile, kind, reason.isEmpty() ? "no reason recorded" : reason);
    return failure.retryable() ? Optional.empty() : Optional.of(new SegmentState.Failed(failure));
  }
}
