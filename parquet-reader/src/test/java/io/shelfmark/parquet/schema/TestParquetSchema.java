package io.shelfmark.parquet.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.parquet.CorruptParquetException;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.MapType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.StringType;
import org.apache.parquet.format.Type;
import org.junit.jupiter.api.Test;

class TestParquetSchema {
  private static final FieldRepetitionType REQUIRED = FieldRepetitionType.REQUIRED;
  private static final FieldRepetitionType OPTIONAL = FieldRepetitionType.OPTIONAL;
  private static final FieldRepetitionType REPEATED = FieldRepetitionType.REPEATED;

  /** The benchmark table's shape: flat columns and a MAP<STRING, STRING>. */
  @Test
  void mapKeyAndValueColumns() throws Exception {
    List<SchemaElement> elements = new ArrayList<>();
    elements.add(group("table", null, 3));
    elements.add(leaf("org_id", REQUIRED, Type.INT64));
    elements.add(
        leaf("metric", OPTIONAL, Type.BYTE_ARRAY)
            .setLogicalType(LogicalType.STRING(new StringType())));
    elements.add(group("dimensions", OPTIONAL, 1).setLogicalType(LogicalType.MAP(new MapType())));
    elements.add(group("key_value", REPEATED, 2));
    elements.add(leaf("key", REQUIRED, Type.BYTE_ARRAY));
    elements.add(leaf("value", OPTIONAL, Type.BYTE_ARRAY));
    ParquetSchema schema = ParquetSchema.from("s3://b/f.parquet", elements);

    assertThat(schema.columns())
        .extracting(ColumnSchema::dottedPath)
        .containsExactly(
            "org_id", "metric", "dimensions.key_value.key", "dimensions.key_value.value");
    ColumnSchema orgId = schema.column("org_id");
    assertThat(orgId.maxDefinitionLevel()).isZero();
    assertThat(orgId.role()).isEqualTo(ColumnRole.FIELD);
    ColumnSchema metric = schema.column(1);
    assertThat(metric.maxDefinitionLevel()).isEqualTo(1);
    assertThat(metric.logicalType()).isPresent();

    ColumnSchema key = schema.column("dimensions.key_value.key");
    ColumnSchema value = schema.column("dimensions.key_value.value");
    assertThat(key.role()).isEqualTo(ColumnRole.MAP_KEY);
    assertThat(value.role()).isEqualTo(ColumnRole.MAP_VALUE);
    assertThat(key.fieldPath()).isEqualTo("dimensions");
    assertThat(key.maxDefinitionLevel()).isEqualTo(2);
    assertThat(value.maxDefinitionLevel()).isEqualTo(3);
    assertThat(key.maxRepetitionLevel()).isEqualTo(1);
    assertThat(key.repeatedLevels())
        .containsExactly(new RepeatedLevel(1, "dimensions.key_value", 2, true));
    assertThat(schema.columnsOfField("dimensions")).containsExactly(key, value);
    assertThat(key.index()).isEqualTo(2);
  }

  @Test
  void listsNestedInLists() throws Exception {
    List<SchemaElement> elements = new ArrayList<>();
    elements.add(group("table", null, 1));
    elements.add(group("a", OPTIONAL, 1).setConverted_type(ConvertedType.LIST));
    elements.add(group("list", REPEATED, 1));
    elements.add(group("element", REQUIRED, 1).setConverted_type(ConvertedType.LIST));
    elements.add(group("list", REPEATED, 1));
    elements.add(leaf("element", OPTIONAL, Type.INT32));
    ColumnSchema column = ParquetSchema.from(elements).column(0);

    assertThat(column.dottedPath()).isEqualTo("a.list.element.list.element");
    assertThat(column.role()).isEqualTo(ColumnRole.LIST_ELEMENT);
    assertThat(column.maxRepetitionLevel()).isEqualTo(2);
    assertThat(column.maxDefinitionLevel()).isEqualTo(4);
    // The outer list can be null (optional group a); the inner one only empty (required element).
    assertThat(column.repeatedLevels())
        .containsExactly(
            new RepeatedLevel(1, "a.list", 2, true),
            new RepeatedLevel(2, "a.list.element.list", 3, false));
  }

  @Test
  void repeatedFieldWithoutAnnotation() throws Exception {
    List<SchemaElement> elements = new ArrayList<>();
    elements.add(group("table", null, 1));
    elements.add(leaf("numbers", REPEATED, Type.INT32));
    ColumnSchema column = ParquetSchema.from(elements).column("numbers");
    assertThat(column.role()).isEqualTo(ColumnRole.REPEATED_FIELD);
    assertThat(column.fieldPath()).isEqualTo("numbers");
    assertThat(column.repeatedLevels()).containsExactly(new RepeatedLevel(1, "numbers", 1, false));
  }

  @Test
  void unknownColumnNamesTheFilesColumns() throws Exception {
    List<SchemaElement> elements = List.of(group("t", null, 1), leaf("x", REQUIRED, Type.INT32));
    assertThatThrownBy(() -> ParquetSchema.from(elements).column("y"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot find column y: the file's leaf columns are [x]");
    assertThat(ParquetSchema.from(elements).findColumn("y")).isEmpty();
  }

  @Test
  void childrenPastTheEndAreCorrupt() {
    List<SchemaElement> elements = List.of(group("t", null, 2), leaf("x", REQUIRED, Type.INT32));
    assertThatThrownBy(() -> ParquetSchema.from("f.parquet", elements))
        .isInstanceOf(CorruptParquetException.class)
        .hasMessage(
            "Cannot read Parquet file f.parquet: invalid schema: the schema has 2 elements but its groups declare more children");
  }

  @Test
  void trailingElementsAreCorrupt() {
    List<SchemaElement> elements =
        List.of(
            group("t", null, 1), leaf("x", REQUIRED, Type.INT32), leaf("y", REQUIRED, Type.INT32));
    assertThatThrownBy(() -> ParquetSchema.from("f.parquet", elements))
        .isInstanceOf(CorruptParquetException.class)
        .hasMessageContaining("the schema has 3 elements but the tree below the root uses 2");
  }

  @Test
  void fixedLengthWithoutLengthIsCorrupt() {
    List<SchemaElement> elements =
        List.of(group("t", null, 1), leaf("x", REQUIRED, Type.FIXED_LEN_BYTE_ARRAY));
    assertThatThrownBy(() -> ParquetSchema.from("f.parquet", elements))
        .isInstanceOf(CorruptParquetException.class)
        .hasMessageContaining(
            "column x is FIXED_LEN_BYTE_ARRAY without a positive type_length (found none)");
  }

  @Test
  void untypedLeafIsCorrupt() {
    List<SchemaElement> elements = List.of(group("t", null, 1), new SchemaElement("x"));
    assertThatThrownBy(() -> ParquetSchema.from("f.parquet", elements))
        .isInstanceOf(CorruptParquetException.class)
        .hasMessageContaining("schema element x is neither a group with children nor a typed leaf");
  }

  @Test
  void emptySchemaIsCorrupt() {
    assertThatThrownBy(() -> ParquetSchema.from("f.parquet", List.of()))
        .isInstanceOf(CorruptParquetException.class)
        .hasMessageContaining("the schema has no elements");
  }

  @Test
  void hostileDepthIsRefused() {
    List<SchemaElement> elements = new ArrayList<>();
    elements.add(group("t", null, 1));
    for (int i = 0; i < 200; i++) {
      elements.add(group("g" + i, OPTIONAL, 1));
    }
    elements.add(leaf("x", OPTIONAL, Type.INT32));
    assertThatThrownBy(() -> ParquetSchema.from("f.parquet", elements))
        .isInstanceOf(CorruptParquetException.class)
        .hasMessageContaining("the schema is deeper than 100 levels");
  }

  @Test
  void int96HasTwelveBytes() throws Exception {
    List<SchemaElement> elements = List.of(group("t", null, 1), leaf("ts", OPTIONAL, Type.INT96));
    assertThat(ParquetSchema.from(elements).column(0).typeLength()).isEqualTo(12);
  }

  private static SchemaElement group(String name, FieldRepetitionType repetition, int children) {
    SchemaElement element = new SchemaElement(name).setNum_children(children);
    return repetition == null ? element : element.setRepetition_type(repetition);
  }

  private static SchemaElement leaf(String name, FieldRepetitionType repetition, Type type) {
    return new SchemaElement(name).setRepetition_type(repetition).setType(type);
  }
}
