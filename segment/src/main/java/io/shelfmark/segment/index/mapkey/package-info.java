/**
 * Extracted map keys: for a MAP column, each configured key — or, when selection is automatic, each
 * key present in at least a configured share of rows — becomes a virtual column named {@code
 * map['key']} (see {@link io.shelfmark.segment.spi.ColumnDescriptor#mapKeyName}). Rows without the
 * key, rows whose map is null and entries whose value is null are null in the virtual column, so
 * {@code dimensions['node'] = 'xyz'}, {@code IS NULL} and {@code NOT} are answered as a scan of
 * {@code element_at(map, key)} would. When a map repeats a key, its last entry wins.
 *
 * <p>This package only extracts: each virtual column then gets the ordinary column parts — {@code
 * nulls}, {@code dictionary} and the configured indexes (by default {@code inverted} and {@code
 * forward}, so filters and GROUP BY on map keys never read the map from Parquet). The map columns,
 * their selection and the extracted keys are listed in the segment's metadata part ({@code
 * MapColumnInfo}); there is no part kind of its own. A key never extracted in a segment is residual
 * there: the query reads the map column for it.
 *
 * <p>Map values are STRING in this version (MAP&lt;STRING, STRING&gt;, as in {@code obs.metrics});
 * automatic selection tracks at most {@value
 * io.shelfmark.segment.index.mapkey.MapKeyExtractor#MAX_TRACKED_KEYS} distinct keys per segment, in
 * first-seen order.
 */
package io.shelfmark.segment.index.mapkey;
