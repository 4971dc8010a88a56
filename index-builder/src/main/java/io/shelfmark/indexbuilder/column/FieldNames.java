package io.shelfmark.indexbuilder.column;

import io.shelfmark.parquet.metadata.ParquetFooter;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.parquet.format.SchemaElement;

/**
 * The top-level fields of a Parquet file's schema, to find a table column in it: by Iceberg field
 * id when the file carries ids (Iceberg's writers always write them, and a renamed column keeps its
 * id), else by name (files written by other tools). A file with ids but without the column's id
 * does not have the column, even if another field bears its name: Iceberg resolves the same way.
 */
final class FieldNames {
  private final boolean hasIds;
  private final Map<Integer, String> byId = new HashMap<>();
  private final Set<String> names = new HashSet<>();

  FieldNames(ParquetFooter footer) {
    List<SchemaElement> elements = footer.schema();
    boolean ids = false;
    if (!elements.isEmpty()) {
      int children = elements.get(0).getNum_children();
      int position = 1;
      for (int child = 0; child < children && position < elements.size(); child++) {
        SchemaElement element = elements.get(position);
        names.add(element.getName());
        if (element.isSetField_id()) {
          ids = true;
          byId.putIfAbsent(element.getField_id(), element.getName());
        }
        position = skipSubtree(elements, position);
      }
    }
    this.hasIds = ids;
  }

  /** The index just past the subtree rooted at {@code position} (elements are depth first). */
  private static int skipSubtree(List<SchemaElement> elements, int position) {
    int pending = 1;
    int next = position;
    while (pending > 0 && next < elements.size()) {
      SchemaElement element = elements.get(next++);
      pending--;
      if (element.isSetNum_children()) {
        pending += element.getNum_children();
      }
    }
    return next;
  }

  /** The file's name of the field with this id (or, in a file without ids, this name). */
  Optional<String> find(int fieldId, String name) {
    if (hasIds) {
      return Optional.ofNullable(byId.get(fieldId));
    }
    return names.contains(name) ? Optional.of(name) : Optional.empty();
  }
}
