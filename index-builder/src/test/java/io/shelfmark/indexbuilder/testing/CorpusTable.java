package io.shelfmark.indexbuilder.testing;

import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.MapKeySelection;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.parquet.metadata.FooterReader;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.schema.ColumnRole;
import io.shelfmark.parquet.schema.ColumnSchema;
import io.shelfmark.parquet.schema.ParquetSchema;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.Location;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.LogicalType;

/**
 * A table around one Parquet file written by another tool (parquet-testing): an Iceberg schema
 * derived from the file's top-level primitive and map&lt;string, string&gt; columns, as a catalog
 * importing the file would declare them (without field ids: the builder then matches by name), and
 * a table config indexing every column of an indexable type with every index that fits it.
 * Unannotated byte arrays are declared strings when every value is UTF-8 text (as Impala and old
 * Spark files mean them), else binary, which segments do not index: a string literal cannot name
 * arbitrary bytes.
 *
 * @param file the Parquet file
 * @param schema the derived table schema
 * @param config every indexable column indexed, every map's keys extracted automatically
 * @param flatColumns the indexed primitive columns
 * @param mapColumns the map columns
 */
public record CorpusTable(
    Path file,
    Schema schema,
    TableConfig config,
    List<String> flatColumns,
    List<String> mapColumns) {
  /** The parquet-testing corpus's valid files. */
  public static Path data() {
    String shared = System.getProperty("shelfmark.shared.dir", "../../shared");
    Path data = Path.of(shared).resolve("parquet-testing/data").toAbsolutePath().normalize();
    if (!Files.isDirectory(data)) {
      throw new IllegalStateException(
          "Cannot find the parquet-testing corpus at " + data + " (set -Dshelfmark.shared.dir)");
    }
    return data;
  }

  /** The parquet-testing corpus's malformed files. */
  public static Path badData() {
    return data().resolveSibling("bad_data");
  }

  public static CorpusTable of(Path file) throws IOException {
    ParquetFooter footer =
        FooterReader.withDefaults()
            .read(ObjectStores.local(), Location.parse(file.toString()), Files.size(file));
    ParquetSchema parquet = ParquetSchema.from(file.toString(), footer.schema());
    List<Types.NestedField> fields = new ArrayList<>();
    TableConfig.Builder config = TableConfig.builder(new TableIdentity("shelfmark", "corpus", "t"));
    List<String> flat = new ArrayList<>();
    List<String> maps = new ArrayList<>();
    int id = 1;
    List<ColumnSchema> columns = parquet.columns();
    for (int i = 0; i < columns.size(); i++) {
      ColumnSchema column = columns.get(i);
      if (column.role() == ColumnRole.FIELD && column.path().size() == 1) {
        Optional<Type> type = icebergType(column);
        if (type.isPresent()
            && column.physicalType() == org.apache.parquet.format.Type.BYTE_ARRAY
            && column.logicalType().isEmpty()
            && !DecodedValues.isUtf8Text(
                ObjectStores.local(),
                Location.parse(file.toString()),
                Files.size(file),
                column.dottedPath())) {
          type = Optional.empty();
        }
        if (type.isPresent()) {
          String name = column.path().getFirst();
          fields.add(Types.NestedField.optional(id++, name, type.get()));
          config.column(name, new ColumnConfig(indexes(type.get())));
          flat.add(name);
        }
      } else if (column.role() == ColumnRole.MAP_KEY
          && column.maxRepetitionLevel() == 1
          && column.path().size() == 3
          && i + 1 < columns.size()
          && isString(column)
          && isString(columns.get(i + 1))) {
        String name = column.path().getFirst();
        fields.add(
            Types.NestedField.optional(
                id,
                name,
                Types.MapType.ofOptional(
                    id + 1, id + 2, Types.StringType.get(), Types.StringType.get())));
        id += 3;
        config.mapKeys(name, new MapKeySelection.Auto(0.01));
        maps.add(name);
      }
    }
    return new CorpusTable(file, new Schema(fields), config.build(), flat, maps);
  }

  private static boolean isString(ColumnSchema column) {
    return column.physicalType() == org.apache.parquet.format.Type.BYTE_ARRAY
        && column.logicalType().map(LogicalType::isSetSTRING).orElse(true);
  }

  private static Set<IndexKind> indexes(Type type) {
    Set<IndexKind> kinds = EnumSet.of(IndexKind.INVERTED, IndexKind.FORWARD, IndexKind.BLOOM);
    if (type.typeId() != Type.TypeID.BOOLEAN && type.typeId() != Type.TypeID.STRING) {
      kinds.add(IndexKind.RANGE);
    }
    return kinds;
  }

  /** The Iceberg type a catalog would declare, empty for types segments do not index. */
  private static Optional<Type> icebergType(ColumnSchema column) {
    LogicalType logical = column.logicalType().orElse(null);
    ConvertedType converted = column.convertedType().orElse(null);
    if ((logical != null && logical.isSetDECIMAL()) || converted == ConvertedType.DECIMAL) {
      return Optional.empty();
    }
    boolean unsigned =
        (logical != null && logical.isSetINTEGER() && !logical.getINTEGER().isIsSigned())
            || converted == ConvertedType.UINT_64
            || converted == ConvertedType.UINT_32;
    return switch (column.physicalType()) {
      case BOOLEAN -> Optional.of(Types.BooleanType.get());
      case INT32 -> Optional.of(unsigned ? Types.LongType.get() : Types.IntegerType.get());
      case INT64 -> unsigned ? Optional.empty() : Optional.of(Types.LongType.get());
      case INT96 -> Optional.of(Types.TimestampType.withoutZone());
      case FLOAT -> Optional.of(Types.FloatType.get());
      case DOUBLE -> Optional.of(Types.DoubleType.get());
      case BYTE_ARRAY -> Optional.of(Types.StringType.get());
      case FIXED_LEN_BYTE_ARRAY ->
          logical != null && logical.isSetFLOAT16()
              ? Optional.of(Types.FloatType.get())
              : Optional.empty();
    };
  }
}
