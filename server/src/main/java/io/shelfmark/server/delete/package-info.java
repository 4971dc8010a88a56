/**
 * Deleted rows: {@link io.shelfmark.server.delete.DeletedRowsLoader} turns the delete files Iceberg
 * assigned to a data file in a snapshot into a bitmap of deleted row positions (doc ids of a
 * single-file segment), to subtract before anything is counted.
 *
 * <ul>
 *   <li>Position deletes in Parquet (v2): {@code file_path} and {@code pos} read with Shelfmark's
 *       reader (no Hadoop); rows of other data files ignored; row groups whose {@code file_path}
 *       statistics exclude every wanted path skipped; one read per delete file serves all the live
 *       data files that refer to it.
 *   <li>Deletion vectors (v3): the {@code deletion-vector-v1} blob at the manifest's offset and
 *       size in its Puffin file, length, magic and CRC-32 checked, Roaring64 portable format
 *       decoded (positions below 2^32).
 *   <li>Refused with {@link io.shelfmark.server.delete.UnsupportedDeletesException} naming the
 *       delete and data files: equality deletes (an anti-filter is future work), position deletes
 *       in Avro or ORC.
 * </ul>
 *
 * Sequence-number rules are Iceberg's: {@code TableSnapshot} lists exactly the delete files {@code
 * planFiles} assigned. Delete files are immutable, so what was read is cached (Caffeine, weighed by
 * bitmap bytes).
 */
package io.shelfmark.server.delete;
