/**
 * The range index: RoaringBitmap's {@code RangeBitmap} (a bit-sliced index) over a column's values
 * made small — numbers relative to the segment's minimum, or dictionary ids when the column has a
 * dictionary — so the number of slices is the bit width of the segment's value spread, not 64.
 * Answers {@code <}, {@code <=}, {@code >}, {@code >=}, {@code BETWEEN}, {@code =} and {@code IN}
 * exactly, evaluated within the context bitmap.
 *
 * <h2>Part {@code range[<column>]}, version 1 (little-endian)</h2>
 *
 * <pre>
 * mode u8            0: values (LONG values, DOUBLE sortable bits) minus base
 *                    1: dictionary ids (base 0)
 *                    2: no non-null value (nothing follows but the fields below, zeros)
 * base i64           the smallest domain value
 * maxRelative i64    the largest value minus base, unsigned
 * nullsEncoded u8    1: null docs hold maxRelative + 1, outside every query, so no null bitmap is
 *                    needed; 0: they hold 0 and queries exclude the column's null docs
 * length varint | RangeBitmap bytes (its own serialized format)
 * </pre>
 *
 * <p>Cost: one pass over the slices per comparison, about (bit width + 1) containers per 65536
 * docs. Size: up to (bit width) bits per doc before compression, so a timestamp column spanning a
 * day in milliseconds takes 27 slices rather than 41; sorted columns are better served by the
 * sorted index, which the builder uses instead.
 */
package io.shelfmark.segment.index.range;
