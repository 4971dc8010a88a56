package io.shelfmark.parquet.schema;

/**
 * What a leaf column stands for in the user's schema, decided by its innermost repeated ancestor.
 *
 * <p>A {@code MAP<K, V>} is stored as two leaf columns, its {@link #MAP_KEY} and {@link
 * #MAP_VALUE}, read side by side: entry {@code i} of the key column pairs with entry {@code i} of
 * the value column, and both have the same row offsets.
 */
public enum ColumnRole {
  /** A column that is not repeated (possibly nested in structs). */
  FIELD,
  /** The element of a {@code LIST}-annotated group. */
  LIST_ELEMENT,
  /** The key of a {@code MAP}-annotated group. */
  MAP_KEY,
  /** The value of a {@code MAP}-annotated group. */
  MAP_VALUE,
  /** A repeated field without a LIST or MAP annotation (legacy layout: a list of the field). */
  REPEATED_FIELD
}
