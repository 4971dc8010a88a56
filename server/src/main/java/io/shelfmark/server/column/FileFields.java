package io.shelfmark.server.column;

import static java.util.Objects.requireNonNull;

import io.shelfmark.exchange.error.UnsupportedQueryException;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.schema.ColumnSchema;
import io.shelfmark.parquet.schema.ParquetSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.apache.parquet.format.SchemaElement;

/**
 * Which top-level field of one Parquet file holds a column of the table's current schema. Fields
 * are matched by Iceberg field id when the file records ids (so a renamed column is still found and
 * a dropped-and-re-added one is not confused with its predecessor), else by name. A column the file
 * lacks (added after the file was written) reads as NULL. Immutable.
 */
public final class FileFields {
  private final String file;
  private final Schema tableSchema;
  private final ParquetSchema schema;
  private final Map<Integer, String> namesById = new HashMap<>();
  private final Map<String, Optional<Integer>> idsByName = new HashMap<>();
  private final boolean hasIds;

  public FileFields(ParquetFooter footer, ParquetSchema schema, Schema tableSchema) {
    this.file = footer.file();
    this.schema = requireNonNull(schema, "schema is null");
    this.tableSchema = requireNonNull(tableSchema, "tableSchema is null");
    List<SchemaElement> elements = footer.schema();
    boolean ids = false;
    // Element 0 is the root; walk its children, skipping each child's subtree.
    int index = 1;
    int children = elements.isEmpty() ? 0 : elements.get(0).getNum_children();
    for (int child = 0; child < children && index < elements.size(); child++) {
      SchemaElement element = elements.get(index);
      Optional<Integer> id =
          element.isSetField_id() ? Optional.of(element.getField_id()) : Optional.empty();
      idsByName.put(element.getName(), id);
      if (id.isPresent()) {
        ids = true;
        namesById.put(id.get(), element.getName());
      }
      index = skipSubtree(elements, index);
    }
    this.hasIds = ids;
  }

  private static int skipSubtree(List<SchemaElement> elements, int index) {
    int remaining = 1;
    while (remaining > 0 && index < elements.size()) {
      SchemaElement element = elements.get(index++);
      remaining--;
      if (element.isSetNum_children()) {
        remaining += element.getNum_children();
      }
    }
    return index;
  }

  public ParquetSchema schema() {
    return schema;
  }

  /** The table schema whose columns these fields are mapped to. */
  public Schema tableSchema() {
    return tableSchema;
  }

  /**
   * The file's top-level field holding table column {@code column}, or empty when the file has none
   * (the column reads as NULL).
   */
  public Optional<String> fieldName(String column) {
    Types.NestedField field = tableSchema.findField(column);
    if (field == null) {
      throw new IllegalArgumentException(
          "Cannot find column " + column + " in the table schema " + tableSchema);
    }
    if (hasIds) {
      return Optional.ofNullable(namesById.get(field.fieldId()));
    }
    return idsByName.containsKey(column) ? Optional.of(column) : Optional.empty();
  }

  /**
   * Whether the file's field named {@code column} is the table's column of that name: the same
   * field id when the file records ids, the same name otherwise. A segment describes columns by
   * their name in the file, so only then may its indexes stand for the table's column.
   */
  public boolean sameField(String column) {
    return fieldName(column).map(column::equals).orElse(false);
  }

  /** The leaf columns of the file's field {@code fieldName}: one, or a map's key and value. */
  public List<ColumnSchema> leaves(String fieldName) {
    Optional<ColumnSchema> leaf = schema.findColumn(fieldName);
    if (leaf.isPresent() && !leaf.get().isRepeated()) {
      return List.of(leaf.get());
    }
    List<ColumnSchema> leaves = new ArrayList<>(schema.columnsOfField(fieldName));
    if (leaves.isEmpty()) {
      throw new UnsupportedQueryException(
          "Cannot read column %s of %s: it is a nested field this server does not read"
              .formatted(fieldName, file));
    }
    return leaves;
  }

  public String file() {
    return file;
  }
}
