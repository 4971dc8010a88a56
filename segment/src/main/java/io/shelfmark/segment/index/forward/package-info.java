/**
 * The forward index: each doc's dictionary id, bit-packed, so GROUP BY and DISTINCT on the column
 * (or an extracted map key) aggregate on ids without reading Parquet, and the ids turn into values
 * through the dictionary only once per group. Null docs hold the id {@code cardinality}, one past
 * the last value, so they form their own group. It also answers comparisons exactly by scanning the
 * context's docs — the evaluator's last resort before reading Parquet.
 *
 * <h2>Part {@code forward[<column>]}, version 1 (little-endian)</h2>
 *
 * <pre>
 * docCount varint | cardinality varint | width u8 (bits per id, enough for cardinality)
 * words: BitPacking of docCount ids, whole little-endian 64-bit words
 * </pre>
 *
 * <p>Cost: one unpack per doc read. Size: {@code width} bits per doc — 6 for 50 values, 17 for
 * 100,000 — so configure it for low-cardinality dimensions only.
 */
package io.shelfmark.segment.index.forward;
