package io.shelfmark.segment.build;

import io.shelfmark.segment.metadata.ColumnStatistics;
import io.shelfmark.segment.spi.ColumnDescriptor;
import io.shelfmark.segment.spi.ColumnProfile;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A column's parts and statistics, ready to be written.
 *
 * @param column the column
 * @param profile what its values look like
 * @param nulls the nulls part
 * @param dictionary the dictionary part, when the column has one
 * @param indexes index parts by type id, in id order
 * @param statistics per doc range given to seal, in the same order
 */
record SealedColumn(
    ColumnDescriptor column,
    ColumnProfile profile,
    byte[] nulls,
    Optional<byte[]> dictionary,
    Map<String, byte[]> indexes,
    List<ColumnStatistics> statistics) {}
