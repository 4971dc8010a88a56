package io.shelfmark.testing.query;

/**
 * A scalar expression queries filter, group or select on: a column or a map key.
 *
 * @param name the {@link ValueDomain} term name
 * @param kind the value kind (STRING for a map key)
 * @param sql the expression text, the same in both dialects
 * @param column the column it reads
 * @param mapKey whether it is {@code column['key']}
 */
record Term(String name, ColumnKind kind, String sql, Column column, boolean mapKey) {}
