package io.shelfmark.segment.build;

/**
 * Docs {@code start .. end - 1}: a data file or one of its row groups.
 *
 * @param file the data file's ordinal in the segment
 * @param rowGroup the row group's ordinal in its file, or -1 for the whole file
 */
record DocRange(int file, int rowGroup, int start, int end) {}
