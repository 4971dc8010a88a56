package io.shelfmark.generator;

/**
 * One data file to write: minutes {@code [firstSlice, endSlice)} of partition ({@code orgRank},
 * {@code day}), holding {@code rows} rows. {@code sequence} numbers the partition's files from 0.
 * {@code sliceRows[i]} is the row count of minute {@code firstSlice + i}; the array is owned by the
 * task and never modified.
 */
record FileTask(
    int orgRank, int day, int sequence, int firstSlice, int endSlice, long rows, int[] sliceRows) {
  FileTask {
    if (endSlice <= firstSlice || sliceRows.length != endSlice - firstSlice || rows <= 0) {
      throw new IllegalArgumentException(
          "Cannot plan file: minutes ["
              + firstSlice
              + ", "
              + endSlice
              + ") with "
              + sliceRows.length
              + " counts and "
              + rows
              + " rows");
    }
  }

  @Override
  public String toString() {
    return "FileTask{org rank "
        + orgRank
        + ", day "
        + day
        + ", file "
        + sequence
        + ", minutes ["
        + firstSlice
        + ", "
        + endSlice
        + "), "
        + rows
        + " rows}";
  }
}
