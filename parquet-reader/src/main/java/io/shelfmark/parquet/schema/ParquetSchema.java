package io.shelfmark.parquet.schema;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.ParquetLocation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Type;

/**
 * A Parquet file's schema as its leaf columns, built from the footer's flattened {@code
 * List<SchemaElement>} (depth-first, each group followed by its {@code num_children} children).
 * Immutable and thread safe.
 *
 * <pre>{@code
 * ParquetSchema schema = ParquetSchema.from(file, footer.getSchema());
 * ColumnSchema keys = schema.column("dimensions.key_value.key");   // role MAP_KEY
 * ColumnSchema values = schema.column("dimensions.key_value.value"); // role MAP_VALUE
 * }</pre>
 */
public final class ParquetSchema {
  /** Deeper schemas are refused: real ones are a handful of levels, hostile ones recurse. */
  public static final int MAX_DEPTH = 100;

  private final List<ColumnSchema> columns;
  private final Map<String, ColumnSchema> byPath;

  private ParquetSchema(List<ColumnSchema> columns) {
    this.columns = List.copyOf(columns);
    Map<String, ColumnSchema> paths = new LinkedHashMap<>();
    for (ColumnSchema column : columns) {
      paths.putIfAbsent(column.dottedPath(), column);
    }
    this.byPath = paths;
  }

  /**
   * The leaf columns of a schema, for a file whose name is unknown to the caller (messages say
   * {@code <unknown file>}).
   */
  public static ParquetSchema from(List<SchemaElement> elements) throws CorruptParquetException {
    return from("<unknown file>", elements);
  }

  /**
   * The leaf columns of a schema.
   *
   * @param file the data file's location, for error messages
   * @param elements the footer's {@code FileMetaData.schema}
   * @throws CorruptParquetException when the elements do not form a tree (children counts past the
   *     end, leaves without a type, fixed-length arrays without a length, ...)
   */
  public static ParquetSchema from(String file, List<SchemaElement> elements)
      throws CorruptParquetException {
    requireNonNull(file, "file is null");
    requireNonNull(elements, "elements is null");
    return new SchemaParser(ParquetLocation.file(file), elements).parse();
  }

  /**
   * The leaf columns in file order: {@code columns().get(i)} describes {@code RowGroup.columns[i]}.
   */
  public List<ColumnSchema> columns() {
    return columns;
  }

  /** The leaf column at {@code index}. */
  public ColumnSchema column(int index) {
    if (index < 0 || index >= columns.size()) {
      throw new IllegalArgumentException(
          "Cannot find column %d: the file has %d leaf columns".formatted(index, columns.size()));
    }
    return columns.get(index);
  }

  /**
   * The leaf column with this dotted path.
   *
   * @throws IllegalArgumentException naming the file's columns when there is none
   */
  public ColumnSchema column(String dottedPath) {
    return findColumn(dottedPath)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "Cannot find column %s: the file's leaf columns are %s (use the dotted path of a leaf, for example a map's <name>.key_value.key)"
                        .formatted(dottedPath, byPath.keySet())));
  }

  /** The leaf column with this dotted path, if the file has one. */
  public Optional<ColumnSchema> findColumn(String dottedPath) {
    return Optional.ofNullable(byPath.get(requireNonNull(dottedPath, "dottedPath is null")));
  }

  /**
   * The leaf columns whose {@link ColumnSchema#fieldPath()} is {@code fieldPath}: one for a field
   * or a list of primitives, the key and value for a map of primitives, several for nested structs.
   */
  public List<ColumnSchema> columnsOfField(String fieldPath) {
    List<ColumnSchema> found = new ArrayList<>();
    for (ColumnSchema column : columns) {
      if (column.fieldPath().equals(fieldPath)) {
        found.add(column);
      }
    }
    return List.copyOf(found);
  }

  @Override
  public String toString() {
    return "ParquetSchema" + columns;
  }

  /** Walks the flattened tree once, keeping the chain of ancestors of the current element. */
  private static final class SchemaParser {
    private final ParquetLocation location;
    private final List<SchemaElement> elements;
    private final List<ColumnSchema> columns = new ArrayList<>();
    private final List<SchemaElement> ancestors = new ArrayList<>();
    private final List<Integer> ancestorIndexes = new ArrayList<>();
    private int next;

    SchemaParser(ParquetLocation location, List<SchemaElement> elements) {
      this.location = location;
      this.elements = elements;
    }

    ParquetSchema parse() throws CorruptParquetException {
      if (elements.isEmpty()) {
        throw corrupt("the schema has no elements");
      }
      SchemaElement root = elements.get(0);
      if (!root.isSetNum_children() || root.getNum_children() <= 0) {
        throw corrupt("the schema root has no children");
      }
      next = 1;
      for (int child = 0; child < root.getNum_children(); child++) {
        parseElement();
      }
      if (next != elements.size()) {
        throw corrupt(
            "the schema has %d elements but the tree below the root uses %d"
                .formatted(elements.size(), next));
      }
      return new ParquetSchema(columns);
    }

    private void parseElement() throws CorruptParquetException {
      if (next >= elements.size()) {
        throw corrupt(
            "the schema has %d elements but its groups declare more children"
                .formatted(elements.size()));
      }
      if (ancestors.size() >= MAX_DEPTH) {
        throw corrupt("the schema is deeper than %d levels".formatted(MAX_DEPTH));
      }
      SchemaElement element = elements.get(next++);
      if (!element.isSetName()) {
        throw corrupt("schema element %d has no name".formatted(next - 1));
      }
      ancestors.add(element);
      ancestorIndexes.add(next - 1);
      try {
        if (element.isSetNum_children() && element.getNum_children() > 0) {
          if (element.getNum_children() > elements.size()) {
            throw corrupt(
                "group %s declares %d children but the schema has %d elements"
                    .formatted(element.getName(), element.getNum_children(), elements.size()));
          }
          for (int child = 0; child < element.getNum_children(); child++) {
            parseElement();
          }
        } else if (element.isSetType()) {
          columns.add(leaf(element));
        } else {
          throw corrupt(
              "schema element %s is neither a group with children nor a typed leaf"
                  .formatted(element.getName()));
        }
      } finally {
        ancestors.remove(ancestors.size() - 1);
        ancestorIndexes.remove(ancestorIndexes.size() - 1);
      }
    }

    private ColumnSchema leaf(SchemaElement element) throws CorruptParquetException {
      List<String> path = new ArrayList<>(ancestors.size());
      for (SchemaElement ancestor : ancestors) {
        path.add(ancestor.getName());
      }
      String dotted = String.join(".", path);
      Type type = element.getType();
      int typeLength = 0;
      if (type == Type.FIXED_LEN_BYTE_ARRAY) {
        if (!element.isSetType_length() || element.getType_length() <= 0) {
          throw corrupt(
              "column %s is FIXED_LEN_BYTE_ARRAY without a positive type_length (found %s)"
                  .formatted(
                      dotted, element.isSetType_length() ? element.getType_length() : "none"));
        }
        typeLength = element.getType_length();
      } else if (type == Type.INT96) {
        typeLength = 12;
      }
      int definition = 0;
      List<RepeatedLevel> repeated = new ArrayList<>();
      int innermostRepeated = -1;
      int enclosingDefinition = 0;
      for (int depth = 0; depth < ancestors.size(); depth++) {
        SchemaElement ancestor = ancestors.get(depth);
        FieldRepetitionType repetition = repetitionOf(ancestor);
        if (repetition == FieldRepetitionType.OPTIONAL) {
          definition++;
        } else if (repetition == FieldRepetitionType.REPEATED) {
          definition++;
          repeated.add(
              new RepeatedLevel(
                  repeated.size() + 1,
                  String.join(".", path.subList(0, depth + 1)),
                  definition,
                  definition - 1 > enclosingDefinition));
          enclosingDefinition = definition;
          innermostRepeated = depth;
        }
      }
      ColumnRole role = ColumnRole.FIELD;
      String fieldPath = dotted;
      if (innermostRepeated >= 0) {
        role = roleOf(innermostRepeated);
        int fieldDepth =
            role == ColumnRole.REPEATED_FIELD ? innermostRepeated : innermostRepeated - 1;
        fieldPath = String.join(".", path.subList(0, fieldDepth + 1));
      }
      return new ColumnSchema(
          columns.size(),
          path,
          type,
          typeLength,
          element.isSetLogicalType() ? Optional.of(element.getLogicalType()) : Optional.empty(),
          element.isSetConverted_type()
              ? Optional.of(element.getConverted_type())
              : Optional.empty(),
          element.isSetPrecision() ? element.getPrecision() : 0,
          element.isSetScale() ? element.getScale() : 0,
          repetitionOf(element),
          definition,
          repeated.size(),
          repeated,
          role,
          fieldPath);
    }

    /**
     * The role of a leaf below the repeated ancestor at {@code depth}: a LIST-annotated parent
     * makes it a list element; a MAP (or MAP_KEY_VALUE) annotation makes the first child of the
     * repeated group the key and the others values; anything else is a legacy repeated field.
     */
    private ColumnRole roleOf(int depth) {
      SchemaElement repeated = ancestors.get(depth);
      SchemaElement parent = depth > 0 ? ancestors.get(depth - 1) : null;
      if (parent != null && isList(parent)) {
        return ColumnRole.LIST_ELEMENT;
      }
      boolean map =
          (parent != null && isMap(parent))
              || (repeated.isSetConverted_type()
                  && repeated.getConverted_type() == ConvertedType.MAP_KEY_VALUE);
      if (map && depth + 1 < ancestors.size()) {
        // The first child of the repeated group directly follows it in the flattened list.
        boolean key = ancestorIndexes.get(depth + 1) == ancestorIndexes.get(depth) + 1;
        return key ? ColumnRole.MAP_KEY : ColumnRole.MAP_VALUE;
      }
      return ColumnRole.REPEATED_FIELD;
    }

    private static boolean isList(SchemaElement element) {
      LogicalType logical = element.isSetLogicalType() ? element.getLogicalType() : null;
      return (logical != null && logical.isSetLIST())
          || (element.isSetConverted_type() && element.getConverted_type() == ConvertedType.LIST);
    }

    private static boolean isMap(SchemaElement element) {
      LogicalType logical = element.isSetLogicalType() ? element.getLogicalType() : null;
      return (logical != null && logical.isSetMAP())
          || (element.isSetConverted_type()
              && (element.getConverted_type() == ConvertedType.MAP
                  || element.getConverted_type() == ConvertedType.MAP_KEY_VALUE));
    }

    /** A missing repetition is read as REQUIRED, as parquet-java and Arrow do. */
    private static FieldRepetitionType repetitionOf(SchemaElement element) {
      return element.isSetRepetition_type()
          ? element.getRepetition_type()
          : FieldRepetitionType.REQUIRED;
    }

    private CorruptParquetException corrupt(String reason) {
      return new CorruptParquetException(location, "invalid schema: " + reason);
    }
  }
}
