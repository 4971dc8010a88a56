/**
 * The sorted index: for a column whose values never decrease in doc order (the data file is sorted
 * on it, or it is constant), each distinct value's docs form one contiguous run, so a comparison's
 * answer is one doc range per interval of values. Detected while building: the builder profiles
 * every column and, when it is sorted, writes this index instead of a configured range or inverted
 * index (it answers everything they do, exactly, for less). Configured on an unsorted column it
 * writes nothing.
 *
 * <h2>Part {@code sorted[<column>]}, version 1 (little-endian)</h2>
 *
 * <pre>
 * domain u8          0: LONG values, 1: DOUBLE sortable bits, 2: dictionary ids
 * leadingNulls varint | trailingNulls varint    null docs before and after the non-null run
 * runs varint
 * domain 0, 1: MonotoneLongs of each run's value (strictly increasing) — or, when most values
 *              are distinct, of every non-null doc's value (non-decreasing), each doc then being
 *              its own run (startsMode 1 below)
 *              (domain 2 stores none: run i is dictionary id i, since every id occurs)
 * startsMode u8     0: MonotoneLongs of runs + 1 run starts follows, relative to the first
 *                     non-null doc, the last being the number of non-null docs
 *                   1: nothing follows: every run is one doc
 * </pre>
 *
 * <p>Cost: two binary searches per interval. Size: about two small integers per distinct value,
 * independent of the number of docs.
 */
package io.shelfmark.segment.index.sorted;
