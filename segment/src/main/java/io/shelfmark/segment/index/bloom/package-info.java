/**
 * The bloom index: for equality on high-cardinality columns, where an inverted index would hold
 * nearly one bitmap per doc. Docs are split into blocks of {@value
 * io.shelfmark.segment.index.bloom.BloomIndexType#BLOCK_DOCS} (one RoaringBitmap container each);
 * each block has a split-block bloom filter of its distinct values. {@code =} and {@code IN} return
 * the docs of the blocks whose filter may hold a literal as candidates (a post-filter on the values
 * decides), and nothing when no filter does — an exact empty answer. Ranges are not answered.
 *
 * <h2>Part {@code bloom[<column>]}, version 1 (little-endian)</h2>
 *
 * <pre>
 * hashVersion u8 (1: {@code ValueHash} v1) | blockDocs varint | blocks varint
 * per block: firstWord u32 | buckets u32     (a bucket is 8 u32 words, 256 bits)
 * words u32 ...
 * </pre>
 *
 * <p>A value sets one bit in each of a bucket's 8 words: the bucket is chosen by the hash's high
 * half, the bit of word i by the top 5 bits of (low half × an odd constant of word i). Buckets are
 * sized at {@value io.shelfmark.segment.index.bloom.BloomIndexType#BITS_PER_VALUE} bits per
 * distinct value of the block: about 1% false positives. Cost: one bucket probe per block and
 * literal.
 */
package io.shelfmark.segment.index.bloom;
