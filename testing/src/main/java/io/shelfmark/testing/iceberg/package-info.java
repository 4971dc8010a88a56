/**
 * Iceberg tables with a scripted history for differential tests: {@link
 * io.shelfmark.testing.iceberg.IcebergScenario} creates a small table (nulls, several types) in any
 * catalog and applies appends, overwrites, position deletes (v2), deletion vectors (v3), equality
 * deletes, added/renamed/dropped columns and partition spec changes; after each step {@link
 * io.shelfmark.testing.iceberg.ScenarioState} lists the live data files with their local copies,
 * deleted positions, equality-deleted row ids and per-file column names by field id, and renders
 * the snapshot as one DuckDB query (a per-file {@code SELECT old_name AS new_name}, {@code NULL}
 * for columns a file lacks, deletes as {@code NOT IN} filters, {@code UNION ALL} across files).
 * {@code TestIcebergScenario} checks that this query and Iceberg's own generic reader agree after
 * every step.
 */
package io.shelfmark.testing.iceberg;
