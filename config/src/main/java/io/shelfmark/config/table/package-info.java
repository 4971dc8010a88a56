/**
 * Table configs: {@link io.shelfmark.config.table.TableConfig}, which says how one Iceberg table is
 * indexed (per-column {@link io.shelfmark.config.table.IndexKind}s, extracted map keys,
 * replication, refresh interval).
 */
package io.shelfmark.config.table;
