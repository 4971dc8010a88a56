package io.shelfmark.parquet.schema;

import static java.util.Objects.requireNonNull;

/**
 * One repeated ancestor of a leaf column, at repetition level {@code level} (1 for the outermost
 * repeated node). Each entry of the enclosing level (a row for level 1, an element of level {@code
 * level - 1} otherwise) holds one list at this level; an entry's definition level {@code d} tells
 * whether that list is null, empty or has elements:
 *
 * <pre>
 *   d &lt;  definitionLevel - 1   the list is null (only when {@link #nullable()})
 *   d == definitionLevel - 1   the list is empty
 *   d &gt;= definitionLevel       the list has an element here
 * </pre>
 *
 * <p>A null optional struct between two repeated nodes is reported as a null list: the reader
 * flattens structs to their leaves.
 *
 * @param level the repetition level of this repeated node (1-based)
 * @param path the dotted path of the repeated node
 * @param definitionLevel the definition level reached when this repeated node holds an element
 * @param nullable whether the list itself can be null (an optional node lies between this repeated
 *     node and the enclosing repeated node or the row): then definition levels below {@code
 *     definitionLevel - 1} mean null rather than empty
 */
public record RepeatedLevel(int level, String path, int definitionLevel, boolean nullable) {
  public RepeatedLevel {
    requireNonNull(path, "path is null");
    if (level < 1 || definitionLevel < 1) {
      throw new IllegalArgumentException(
          "Cannot create repeated level %d of %s: definition level %d (both must be >= 1)"
              .formatted(level, path, definitionLevel));
    }
  }
}
