package io.shelfmark.segment.metadata;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;

/**
 * One data file inside a segment: its identity, the doc ids its rows take ({@code firstDoc ..
 * firstDoc + docCount - 1}, doc id = row ordinal in the file plus {@code firstDoc}) and its row
 * groups' row counts, from which a doc's row group and row-group-relative row follow.
 *
 * @param identity the file
 * @param firstDoc the doc id of the file's first row
 * @param rowGroupRowCounts the rows of each row group, in file order; they add up to the file's
 *     record count
 */
public record DataFileEntry(DataFileIdentity identity, int firstDoc, List<Long> rowGroupRowCounts) {
  public DataFileEntry {
    requireNonNull(identity, "identity is null");
    rowGroupRowCounts =
        ImmutableList.copyOf(requireNonNull(rowGroupRowCounts, "rowGroupRowCounts is null"));
    if (firstDoc < 0) {
      throw new IllegalArgumentException(
          "Cannot start data file " + identity.path() + " at doc " + firstDoc);
    }
    long total = 0;
    for (long rows : rowGroupRowCounts) {
      if (rows < 0) {
        throw new IllegalArgumentException(
            "Cannot use a negative row group row count %d for %s".formatted(rows, identity.path()));
      }
      total += rows;
    }
    if (total != identity.recordCount()) {
      throw new IllegalArgumentException(
          "Cannot describe data file %s: its row groups hold %d rows but Iceberg records %d (is the footer from another file?)"
              .formatted(identity.path(), total, identity.recordCount()));
    }
  }

  /** The number of docs (rows) of the file. */
  public int docCount() {
    return (int) identity.recordCount();
  }

  /** The doc id of the first row of row group {@code rowGroup}. */
  public int rowGroupFirstDoc(int rowGroup) {
    long doc = firstDoc;
    for (int i = 0; i < rowGroup; i++) {
      doc += rowGroupRowCounts.get(i);
    }
    return (int) doc;
  }
}
