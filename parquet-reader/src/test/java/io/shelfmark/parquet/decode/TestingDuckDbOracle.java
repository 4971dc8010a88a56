package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.schema.ColumnSchema;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Type;

/**
 * DuckDB (through its JDBC driver, offline) as the independent reader: for one leaf column of a
 * Parquet file, the per-row canonical values in the shape {@link TestingCanonicalValues} makes from
 * decoded batches. A leaf inside lists and maps becomes a nested {@code list_transform} over the
 * user-level column (map keys through {@code map_keys}, values through {@code map_values}),
 * following the format's backward-compatibility rules for two- and three-level lists.
 */
final class TestingDuckDbOracle implements AutoCloseable {
  private final Connection connection;

  TestingDuckDbOracle() throws SQLException {
    connection = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement statement = connection.createStatement()) {
      statement.execute("SET autoinstall_known_extensions=false");
      statement.execute("SET autoload_known_extensions=false");
      statement.execute("SET threads=1");
    }
  }

  /** Every row's canonical value of leaf {@code column}, in file order. */
  List<Object> column(Path file, List<SchemaElement> schema, ColumnSchema column)
      throws SQLException {
    String expression = expression(schema, column);
    String sql =
        "SELECT %s FROM read_parquet('%s')"
            .formatted(expression, file.toString().replace("'", "''"));
    List<Object> rows = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      while (result.next()) {
        rows.add(canonical(result.getObject(1)));
      }
    }
    return rows;
  }

  /** Runs a statement that returns no rows, for example a {@code COPY ... TO} writing a file. */
  void execute(String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  private static Object canonical(Object value) throws SQLException {
    if (value instanceof Array array) {
      return canonicalArray((Object[]) array.getArray());
    }
    return value;
  }

  private static Object canonicalArray(Object[] elements) throws SQLException {
    List<Object> list = new ArrayList<>(elements.length);
    for (Object element : elements) {
      list.add(element instanceof Object[] nested ? canonicalArray(nested) : canonical(element));
    }
    return list;
  }

  /** The SQL expression of leaf {@code column}'s values, nested in lists as the leaf is. */
  static String expression(List<SchemaElement> schema, ColumnSchema column) {
    List<Node> path = path(schema, column.path());
    return expression(path, 0, quote(path.get(0).element.getName()), false, column, 1);
  }

  /**
   * @param cur the SQL denoting node {@code i}'s value
   * @param asElement whether node {@code i} is a repeated node already taken as a list element
   */
  private static String expression(
      List<Node> path, int i, String cur, boolean asElement, ColumnSchema column, int depth) {
    Node node = path.get(i);
    String variable = "x" + depth;
    boolean repeated = node.element.getRepetition_type() == FieldRepetitionType.REPEATED;
    if (repeated && !asElement) {
      return "list_transform(%s, lambda %s: %s)"
          .formatted(cur, variable, expression(path, i, variable, true, column, depth + 1));
    }
    if (i == path.size() - 1) {
      return leaf(cur, column);
    }
    Node child = path.get(i + 1);
    if (isMap(node) && child.element.getRepetition_type() == FieldRepetitionType.REPEATED) {
      Node keyOrValue = path.get(i + 2);
      String function = keyOrValue == child.children.get(0) ? "map_keys" : "map_values";
      return "list_transform(%s(%s), lambda %s: %s)"
          .formatted(
              function, cur, variable, expression(path, i + 2, variable, false, column, depth + 1));
    }
    if (isList(node) && child.element.getRepetition_type() == FieldRepetitionType.REPEATED) {
      boolean threeLevel =
          !child.children.isEmpty()
              && child.children.size() == 1
              && !child.element.getName().equals("array")
              && !child.element.getName().equals(node.element.getName() + "_tuple");
      String inner =
          threeLevel
              ? expression(path, i + 2, variable, false, column, depth + 1)
              : expression(path, i + 1, variable, true, column, depth + 1);
      return "list_transform(%s, lambda %s: %s)".formatted(cur, variable, inner);
    }
    return expression(
        path, i + 1, cur + "." + quote(child.element.getName()), false, column, depth);
  }

  private static String leaf(String x, ColumnSchema column) {
    Optional<LogicalType> logical = column.logicalType();
    ConvertedType converted = column.convertedType().orElse(null);
    Type type = column.physicalType();
    if (type == Type.BOOLEAN || type == Type.FLOAT || type == Type.DOUBLE) {
      return x;
    }
    if (logical.isPresent() && logical.get().isSetFLOAT16()) {
      return x;
    }
    if (type == Type.INT96) {
      return "CAST(epoch_us(%s) AS VARCHAR)".formatted(x);
    }
    if (logical.map(LogicalType::isSetDATE).orElse(converted == ConvertedType.DATE)) {
      return "CAST((%s - DATE '1970-01-01') AS VARCHAR)".formatted(x);
    }
    boolean timestamp =
        logical
            .map(LogicalType::isSetTIMESTAMP)
            .orElse(
                converted == ConvertedType.TIMESTAMP_MILLIS
                    || converted == ConvertedType.TIMESTAMP_MICROS);
    boolean time =
        logical
            .map(LogicalType::isSetTIME)
            .orElse(
                converted == ConvertedType.TIME_MILLIS || converted == ConvertedType.TIME_MICROS);
    if (timestamp || time) {
      boolean nanos =
          logical.isPresent()
              && (timestamp
                  ? logical.get().getTIMESTAMP().getUnit().isSetNANOS()
                  : logical.get().getTIME().getUnit().isSetNANOS());
      return "CAST(%s(%s) AS VARCHAR)".formatted(nanos ? "epoch_ns" : "epoch_us", x);
    }
    if ((type == Type.BYTE_ARRAY || type == Type.FIXED_LEN_BYTE_ARRAY)
        && !TestingCanonicalValues.isText(logical, converted)
        && !TestingCanonicalValues.isDecimal(logical, converted)
        && !(logical.isPresent() && logical.get().isSetUUID())) {
      return "hex(CAST(%s AS BLOB))".formatted(x);
    }
    return "CAST(%s AS VARCHAR)".formatted(x);
  }

  private static boolean isList(Node node) {
    SchemaElement element = node.element;
    return (element.isSetLogicalType() && element.getLogicalType().isSetLIST())
        || (element.isSetConverted_type() && element.getConverted_type() == ConvertedType.LIST);
  }

  private static boolean isMap(Node node) {
    SchemaElement element = node.element;
    return (element.isSetLogicalType() && element.getLogicalType().isSetMAP())
        || (element.isSetConverted_type()
            && (element.getConverted_type() == ConvertedType.MAP
                || element.getConverted_type() == ConvertedType.MAP_KEY_VALUE));
  }

  private static String quote(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  /** The nodes from the root's child down to the leaf named by {@code names}. */
  private static List<Node> path(List<SchemaElement> schema, List<String> names) {
    Node root = tree(schema, new int[] {0});
    List<Node> path = new ArrayList<>();
    Node current = root;
    for (String name : names) {
      Node next = null;
      for (Node child : current.children) {
        if (child.element.getName().equals(name)) {
          next = child;
          break;
        }
      }
      if (next == null) {
        throw new IllegalArgumentException("no schema node " + names);
      }
      path.add(next);
      current = next;
    }
    return path;
  }

  private static Node tree(List<SchemaElement> schema, int[] next) {
    SchemaElement element = schema.get(next[0]++);
    Node node = new Node(element, new ArrayList<>());
    int children = element.isSetNum_children() ? element.getNum_children() : 0;
    for (int i = 0; i < children; i++) {
      node.children.add(tree(schema, next));
    }
    return node;
  }

  private record Node(SchemaElement element, List<Node> children) {}

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
