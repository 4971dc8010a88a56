/**
 * The inverted index: for each dictionary id of a column, the RoaringBitmap of the docs holding
 * that value. Answers {@code =}, {@code IN} and (as a union over an id range) ranges exactly;
 * {@code NOT} and {@code <>} follow from the column's null bitmap.
 *
 * <h2>Part {@code inverted[<column>]}, version 1 (little-endian)</h2>
 *
 * <pre>
 * cardinality varint                       the dictionary's size
 * offsets u32 × (cardinality + 1)          start of each id's bitmap in the bitmap area; last = its length
 * bitmap area                              per id, a RoaringBitmap in the portable format, run-optimized
 * </pre>
 *
 * <p>Cost: one bitmap read per matching id. Size: about 2 bytes per doc for random low-cardinality
 * values, far less for clustered or sorted ones (runs), plus 4 bytes per distinct value.
 */
package io.shelfmark.segment.index.inverted;
