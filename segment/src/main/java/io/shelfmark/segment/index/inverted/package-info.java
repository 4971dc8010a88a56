/**
 * The inverted index: for each dictionary id of a column, the docs holding that value. Answers
 * {@code =}, {@code IN} and (as a union over an id range) ranges exactly; {@code NOT} and {@code
 * <>} follow from the column's null bitmap.
 *
 * <h2>Part {@code inverted[<column>]}, version 1 (little-endian)</h2>
 *
 * <pre>
 * cardinality varint                  the dictionary's size
 * offsets                             MonotoneLongs of cardinality + 1 byte offsets into the postings;
 *                                     the last is the postings' length
 * postings                            per id, a posting list:
 *   tag u8 0..31  count varint | first doc varint | count - 1 (gap - 1)s byte-packed, tag bits each
 *   tag u8 255    a RoaringBitmap in the portable format, run-optimized
 * </pre>
 *
 * <p>Each list takes whichever encoding is smaller: bitmaps for frequent or clustered values (a bit
 * or less per doc, a few bytes per run), packed gaps for rare values scattered over the file (about
 * log2(docs / count) bits per doc, where a bitmap would pay a container header per doc). Cost: one
 * list decoded per matching id. Size: at most about 2 bytes per doc, plus about one byte per
 * distinct value for the offsets.
 */
package io.shelfmark.segment.index.inverted;
