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
 *   <li>Equality deletes in Parquet: the delete file's keys (values of its equality field ids)
 *       matched against the data file's columns of the same field ids, NULL equal to NULL, turned
 *       into positions once per data file and snapshot.
 *   <li>Refused with {@link io.shelfmark.server.delete.UnsupportedDeletesException} naming the
 *       delete and data files: delete files in Avro or ORC, equality deletes on FLOAT/DOUBLE/INT96
 *       or repeated columns, data files without Parquet field ids or lacking an equality column,
 *       deletion vectors over positions of 2^32 and above.
 * </ul>
 *
 * Sequence-number rules are Iceberg's: {@code TableSnapshot} lists exactly the delete files {@code
 * planFiles} assigned. Delete files are immutable, so what was read is cached (Caffeine, weighed by
 * bitmap bytes).
 */
package io.shelfmark.server.delete;
