package io.shelfmark.catalog.snapshot;

/** Checks the sequence numbers Iceberg assigns to planned files. */
final class SequenceNumbers {
  private SequenceNumbers() {}

  /**
   * Returns the sequence number, which a planned file always has: Iceberg fills it in from the
   * manifest when reading it (0 for format v1 tables). A missing one means the file did not come
   * from a scan, and deletes could not be matched to data files correctly.
   */
  static long required(Long sequenceNumber, String kind, String path) {
    if (sequenceNumber == null) {
      throw new IllegalStateException(
          "Cannot describe %s: it has no %s sequence number (files must come from a table scan)"
              .formatted(path, kind));
    }
    return sequenceNumber;
  }
}
