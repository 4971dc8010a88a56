package io.shelfmark.catalog.snapshot;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Which snapshot of a table a query asks for when it does not want the served one (time travel): a
 * snapshot by id, or the snapshot that was current at a time, as Iceberg's table history (its
 * snapshot log) says.
 *
 * <p>The option names are the same everywhere a client can set them: HTTP {@code queryOptions},
 * {@code SET name=value;} in the SQL, Flight SQL session options and call headers, and the CLI.
 */
public sealed interface SnapshotSelector {
  /** The option naming a snapshot by id. */
  String SNAPSHOT_ID = "snapshotId";

  /** The option naming a time: epoch milliseconds or ISO-8601. */
  String AS_OF_TIMESTAMP = "asOfTimestamp";

  /** Snapshot {@code snapshotId}. */
  record Id(long snapshotId) implements SnapshotSelector {
    @Override
    public String toString() {
      return "snapshot " + snapshotId;
    }
  }

  /** The snapshot that was the table's current one at {@code time}. */
  record AsOf(Instant time) implements SnapshotSelector {
    public AsOf {
      requireNonNull(time, "time is null");
    }

    @Override
    public String toString() {
      return "as of " + time;
    }
  }

  /**
   * The selector options {@code snapshotId} and {@code asOfTimestamp} ask for; empty when both are
   * absent (or blank: a client clearing its session option).
   *
   * @throws IllegalArgumentException naming the option when a value cannot be read, or when both
   *     are given
   */
  static Optional<SnapshotSelector> of(
      Optional<String> snapshotId, Optional<String> asOfTimestamp) {
    Optional<String> id = snapshotId.map(String::trim).filter(value -> !value.isEmpty());
    Optional<String> time = asOfTimestamp.map(String::trim).filter(value -> !value.isEmpty());
    if (id.isPresent() && time.isPresent()) {
      throw new IllegalArgumentException(
          "Cannot use %s=%s together with %s=%s: they may name different snapshots (give one)"
              .formatted(SNAPSHOT_ID, id.get(), AS_OF_TIMESTAMP, time.get()));
    }
    if (id.isPresent()) {
      return Optional.of(snapshotId(id.get()));
    }
    return time.map(SnapshotSelector::asOf);
  }

  /**
   * {@code snapshotId=<value>}.
   *
   * @throws IllegalArgumentException when the value is not a snapshot id
   */
  static Id snapshotId(String value) {
    try {
      long id = Long.parseLong(value.trim());
      return new Id(id);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Cannot use %s=%s: it must be an Iceberg snapshot id, a 64-bit integer such as 6404459084686328753 (the response's snapshotId names the one answered)"
              .formatted(SNAPSHOT_ID, value));
    }
  }

  /**
   * {@code asOfTimestamp=<value>}: epoch milliseconds ({@code 1764227700000}), an instant ({@code
   * 2026-11-27T07:15:00Z}), a time with an offset ({@code 2026-11-27T08:15:00+01:00}) or a local
   * time, taken as UTC ({@code 2026-11-27T07:15:00}).
   *
   * @throws IllegalArgumentException when the value is none of these
   */
  static AsOf asOf(String value) {
    String text = value.trim();
    if (!text.isEmpty() && text.chars().allMatch(Character::isDigit)) {
      try {
        return new AsOf(Instant.ofEpochMilli(Long.parseLong(text)));
      } catch (NumberFormatException e) {
        // too long for a long: reported below with the accepted forms
      }
    }
    try {
      return new AsOf(OffsetDateTime.parse(text).toInstant());
    } catch (DateTimeParseException e) {
      // not a time with an offset or Z
    }
    try {
      return new AsOf(LocalDateTime.parse(text).toInstant(ZoneOffset.UTC));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "Cannot use %s=%s: it must be epoch milliseconds (1764227700000) or an ISO-8601 time (2026-11-27T07:15:00Z, 2026-11-27T08:15:00+01:00, or 2026-11-27T07:15:00 taken as UTC)"
              .formatted(AS_OF_TIMESTAMP, value));
    }
  }
}
