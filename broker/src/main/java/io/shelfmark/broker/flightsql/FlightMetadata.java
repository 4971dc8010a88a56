package io.shelfmark.broker.flightsql;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.auth.TableAccess;
import io.shelfmark.sql.schema.BoundTable;
import io.shelfmark.sql.schema.Column;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.sql.schema.TableSchemaProvider;
import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.MapType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.flight.sql.FlightSqlProducer.Schemas;
import org.apache.arrow.flight.sql.SqlInfoBuilder;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The catalog metadata Flight SQL clients browse (DBeaver's tree, {@code
 * DatabaseMetaData.getTables/getColumns}, Grafana's table picker): no catalogs, Iceberg namespaces
 * as database schemas, served tables as {@code TABLE}s with their Arrow schemas, only the tables
 * the caller may read. Filter patterns are SQL LIKE patterns ({@code %}, {@code _}).
 */
final class FlightMetadata {
  static final String TABLE_TYPE = "TABLE";

  private final TableSchemaProvider tables;
  private final SqlInfoBuilder sqlInfo;

  FlightMetadata(TableSchemaProvider tables, String version) {
    this.tables = requireNonNull(tables, "tables is null");
    this.sqlInfo =
        new SqlInfoBuilder()
            .withFlightSqlServerName("Shelfmark")
            .withFlightSqlServerVersion(version)
            .withFlightSqlServerArrowVersion("18.3.0")
            .withFlightSqlServerReadOnly(true)
            .withFlightSqlServerSql(true)
            .withFlightSqlServerSubstrait(false)
            .withFlightSqlServerCancel(true)
            .withFlightSqlServerTransaction(
                FlightSql.SqlSupportedTransaction.SQL_SUPPORTED_TRANSACTION_NONE)
            .withSqlIdentifierQuoteChar("\"")
            .withSqlSchemaTerm("schema")
            .withSqlCatalogTerm("catalog")
            .withSqlNullOrdering(FlightSql.SqlNullOrdering.SQL_NULLS_SORTED_HIGH);
  }

  SqlInfoBuilder sqlInfo() {
    return sqlInfo;
  }

  void catalogs(BufferAllocator allocator, ServerStreamListener listener) {
    send(Schemas.GET_CATALOGS_SCHEMA, List.of(), allocator, listener);
  }

  void tableTypes(BufferAllocator allocator, ServerStreamListener listener) {
    send(
        Schemas.GET_TABLE_TYPES_SCHEMA,
        List.of(Map.of("table_type", TABLE_TYPE)),
        allocator,
        listener);
  }

  void empty(Schema schema, BufferAllocator allocator, ServerStreamListener listener) {
    send(schema, List.of(), allocator, listener);
  }

  void schemas(
      FlightSql.CommandGetDbSchemas command,
      TableAccess access,
      BufferAllocator allocator,
      ServerStreamListener listener) {
    Pattern schemaPattern =
        like(command.hasDbSchemaFilterPattern() ? command.getDbSchemaFilterPattern() : null);
    TreeSet<String> namespaces = new TreeSet<>();
    if (!command.hasCatalog() || command.getCatalog().isEmpty()) {
      for (TableName name : readable(access)) {
        String namespace = namespace(name);
        if (schemaPattern.matcher(namespace).matches()) {
          namespaces.add(namespace);
        }
      }
    }
    List<Map<String, Object>> rows = new ArrayList<>();
    for (String namespace : namespaces) {
      rows.add(Map.of("db_schema_name", namespace));
    }
    send(Schemas.GET_SCHEMAS_SCHEMA, rows, allocator, listener);
  }

  void tables(
      FlightSql.CommandGetTables command,
      TableAccess access,
      BufferAllocator allocator,
      ServerStreamListener listener) {
    Pattern schemaPattern =
        like(command.hasDbSchemaFilterPattern() ? command.getDbSchemaFilterPattern() : null);
    Pattern tablePattern =
        like(command.hasTableNameFilterPattern() ? command.getTableNameFilterPattern() : null);
    boolean typeMatches =
        command.getTableTypesCount() == 0 || command.getTableTypesList().contains(TABLE_TYPE);
    boolean catalogMatches = !command.hasCatalog() || command.getCatalog().isEmpty();
    List<Map<String, Object>> rows = new ArrayList<>();
    if (typeMatches && catalogMatches) {
      for (TableName name : readable(access)) {
        if (!schemaPattern.matcher(namespace(name)).matches()
            || !tablePattern.matcher(name.simpleName()).matches()) {
          continue;
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("db_schema_name", namespace(name));
        row.put("table_name", name.simpleName());
        row.put("table_type", TABLE_TYPE);
        if (command.getIncludeSchema()) {
          tables.table(name).ifPresent(table -> row.put("table_schema", ipc(schema(table))));
        }
        rows.add(row);
      }
    }
    send(
        command.getIncludeSchema()
            ? Schemas.GET_TABLES_SCHEMA
            : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA,
        rows,
        allocator,
        listener);
  }

  /** The JDBC types Shelfmark's columns and results have, for {@code getTypeInfo}. */
  void typeInfo(
      FlightSql.CommandGetXdbcTypeInfo command,
      BufferAllocator allocator,
      ServerStreamListener listener) {
    List<Map<String, Object>> rows = new ArrayList<>();
    addType(rows, "BOOLEAN", Types.BOOLEAN, 1, command);
    addType(rows, "INT", Types.INTEGER, 10, command);
    addType(rows, "BIGINT", Types.BIGINT, 19, command);
    addType(rows, "FLOAT", Types.REAL, 7, command);
    addType(rows, "DOUBLE", Types.DOUBLE, 15, command);
    addType(rows, "DECIMAL", Types.DECIMAL, DecimalType.MAX_PRECISION, command);
    addType(rows, "DATE", Types.DATE, 10, command);
    addType(rows, "TIMESTAMP", Types.TIMESTAMP, 26, command);
    addType(rows, "TIMESTAMP WITH TIME ZONE", Types.TIMESTAMP_WITH_TIMEZONE, 27, command);
    addType(rows, "VARCHAR", Types.VARCHAR, Integer.MAX_VALUE, command);
    addType(rows, "VARBINARY", Types.VARBINARY, Integer.MAX_VALUE, command);
    send(Schemas.GET_TYPE_INFO_SCHEMA, rows, allocator, listener);
  }

  private static void addType(
      List<Map<String, Object>> rows,
      String name,
      int jdbcType,
      int size,
      FlightSql.CommandGetXdbcTypeInfo command) {
    if (command.hasDataType() && command.getDataType() != jdbcType) {
      return;
    }
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("type_name", name);
    row.put("data_type", jdbcType);
    row.put("column_size", size);
    row.put("nullable", 1); // columnNullable
    row.put("case_sensitive", jdbcType == Types.VARCHAR);
    row.put("searchable", 3); // typeSearchable: WHERE accepts every comparison
    row.put("unsigned_attribute", false);
    row.put("fixed_prec_scale", false);
    row.put("auto_increment", false);
    row.put("local_type_name", name);
    row.put("sql_data_type", jdbcType);
    if (jdbcType == Types.VARCHAR || jdbcType == Types.DATE || jdbcType == Types.TIMESTAMP) {
      row.put("literal_prefix", "'");
      row.put("literal_suffix", "'");
    }
    rows.add(row);
  }

  /** A table's columns as an Arrow schema; columns no result can hold (lists) are left out. */
  static Schema schema(BoundTable table) {
    List<Field> fields = new ArrayList<>();
    for (Column column : table.columns()) {
      if (selectable(column.type())) {
        fields.add(ArrowTypes.field(column.name(), column.type()));
      }
    }
    return new Schema(fields);
  }

  private static boolean selectable(SqlType type) {
    return type instanceof PrimitiveType
        || type instanceof DecimalType
        || (type instanceof MapType map && selectable(map.valueType()));
  }

  private List<TableName> readable(TableAccess access) {
    List<TableName> names = new ArrayList<>();
    for (TableName name : tables.tableNames()) {
      if (access.canRead(name.toString())) {
        names.add(name);
      }
    }
    names.sort((a, b) -> a.toString().compareTo(b.toString()));
    return names;
  }

  private static String namespace(TableName name) {
    return String.join(".", name.parts().subList(0, name.parts().size() - 1));
  }

  /** A SQL LIKE pattern as a regular expression; null matches everything. */
  static Pattern like(String pattern) {
    if (pattern == null) {
      return Pattern.compile(".*", Pattern.DOTALL);
    }
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\' && i + 1 < pattern.length()) {
        regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
      } else if (c == '%') {
        regex.append(".*");
      } else if (c == '_') {
        regex.append('.');
      } else {
        regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL);
  }

  /** A schema as an Arrow IPC message, the form Flight SQL carries schemas in. */
  static byte[] ipc(Schema schema) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      MessageSerializer.serialize(new WriteChannel(Channels.newChannel(out)), schema);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot serialize an Arrow schema in memory", e);
    }
    return out.toByteArray();
  }

  /** Sends {@code rows} (values by column name; absent: null) as one batch of {@code schema}. */
  private static void send(
      Schema schema,
      List<Map<String, Object>> rows,
      BufferAllocator allocator,
      ServerStreamListener listener) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      root.allocateNew();
      for (int r = 0; r < rows.size(); r++) {
        for (FieldVector vector : root.getFieldVectors()) {
          Object value = rows.get(r).get(vector.getName());
          switch (value) {
            case null -> vector.setNull(r);
            case String text -> ((VarCharVector) vector).setSafe(r, text.getBytes(UTF_8));
            case Integer number -> ((IntVector) vector).setSafe(r, number);
            case Boolean bool -> ((BitVector) vector).setSafe(r, bool ? 1 : 0);
            case byte[] bytes -> ((VarBinaryVector) vector).setSafe(r, bytes);
            default ->
                throw new IllegalArgumentException(
                    "Cannot write metadata value " + value + " into " + vector.getName());
          }
        }
      }
      root.setRowCount(rows.size());
      listener.start(root);
      listener.putNext();
      listener.completed();
    }
  }
}
