/**
 * Star-tree pre-aggregation: per segment, the data file's rows aggregated by a tuple of dimensions
 * (plain columns, extracted map keys, time buckets) in a split order, with star nodes that
 * aggregate one dimension away, so that a dashboard aggregation reads a few hundred pre-aggregated
 * records instead of the matching rows. See docs/segment-format.md.
 *
 * <p>{@link io.shelfmark.segment.startree.StarTreeBuilder} collects the records while the file
 * streams, {@link io.shelfmark.segment.startree.StarTree} is the sealed tree (build, serialize,
 * parse, traverse). NULL dimension values (and map keys missing from a row) are a value of their
 * own, never merged with another.
 *
 * <h2>Part {@code star-tree[<ordinal>]}, version 3 (little-endian)</h2>
 *
 * <pre>
 * dimensions varint, per dimension:
 *   name str | type u8 (ValueType code) | values varint | hasNull u8
 *   | values (LONG: zigzag varlong of the difference from the previous value, the first from 0;
 *     DOUBLE: f64; STRING: str) in id order; the null id is values
 * metrics varint, per metric: column str | type u8 (LONG or DOUBLE) | extremes u8 (min and max kept)
 * [version 3 only] sketches varint (1 or more), per sketch column: column str | type u8 | lgK u8
 * records varint
 * per dimension: the records' ids, varint each (star = values + 1; rolled up = values + 2, only in
 *   the last dimension: the record aggregates all of its values, see StarTreeBuilder)
 * count(*) per record: varlong
 * per metric, per record: nonNull varlong, then LONG: sumHigh zigzag | sumLow zigzag [| min zigzag
 *   | max zigzag]; DOUBLE: sum f64 [| min f64 | max f64] (bracketed only with extremes; min/max
 *   meaningless when nonNull is 0)
 * [version 3 only] per sketch column, per record: length varint | the record's DataSketches HLL_4
 *   sketch in its compact form (a coupon list of 4 bytes a value under a few hundred values, 2 KB
 *   and more above), nothing when length is 0 (no non-null value in the record's rows)
 * nodes varint, per node: value (zigzag: an id, -1 for a star node, -2 for the root)
 *   | first record varint | end record varint | split dimension (zigzag, -1 for a leaf)
 *   | first child varint | children varint
 * </pre>
 *
 * <p>Records under a node are contiguous; a node's children are contiguous in the node array,
 * ordered by value id with the star child last (a rolled-up child, under a split on the last
 * dimension, first). A tree without sketch columns is written as version 2: the same layout without
 * the two bracketed sections, byte for byte what the release before sketches wrote; this reader
 * reads both. Version 1 wrote LONG values as themselves (zigzag) and had no rolled-up ids; a
 * version 1 part is skipped (the rows answer) and its segment rebuilt, as the spec's fingerprint
 * names the version.
 */
package io.shelfmark.segment.startree;
