package io.shelfmark.sql.bind;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.schema.BoundTable;
import io.shelfmark.sql.schema.Column;
import io.shelfmark.sql.tree.IdentifierNode;
import io.shelfmark.sql.tree.StarNode;
import io.shelfmark.sql.tree.TableReference;
import io.shelfmark.sql.type.UnsupportedType;
import java.util.List;
import java.util.Optional;

/**
 * Resolves column names against the queried table. A name matches the column spelled exactly the
 * same, else the only column equal to it ignoring case (two such columns: an error asking for the
 * exact spelling). A qualified name ({@code m.org_id}) must be qualified by the table's alias, its
 * name or its last name part.
 */
final class ColumnResolver {
  private static final int MAX_COLUMNS_LISTED = 30;

  private final TableReference from;
  private final BoundTable table;

  ColumnResolver(TableReference from, BoundTable table) {
    this.from = requireNonNull(from, "from is null");
    this.table = requireNonNull(table, "table is null");
  }

  BoundTable table() {
    return table;
  }

  /** The column {@code node} names, if any; errors for a wrong qualifier or an ambiguous name. */
  Optional<Column> find(IdentifierNode node) {
    List<String> names = node.names();
    checkQualifier(names.subList(0, names.size() - 1), node);
    String name = node.simpleName();
    Optional<Column> exact = table.column(name);
    if (exact.isPresent()) {
      return exact;
    }
    List<Column> matches = table.columnsIgnoreCase(name);
    if (matches.size() > 1) {
      throw SqlException.of(
          SqlErrorKind.UNRESOLVED,
          node.position(),
          "resolve column '" + node.sql() + "'",
          "it matches " + matches.stream().map(Column::name).toList() + " ignoring case",
          "spell the column exactly, in double quotes");
    }
    return matches.stream().findFirst();
  }

  /** The column {@code node} names as a reference; an error when there is none. */
  ColumnRef resolve(IdentifierNode node) {
    Column column = find(node).orElseThrow(() -> unknown(node));
    if (column.type() instanceof UnsupportedType unsupported) {
      throw SqlException.of(
          SqlErrorKind.UNSUPPORTED,
          node.position(),
          "read column '" + column.name() + "'",
          "its type " + unsupported.description() + " is not supported",
          "query the table's other columns");
    }
    return new ColumnRef(column.name(), column.type());
  }

  SqlException unknown(IdentifierNode node) {
    List<String> names = table.columnNames();
    String listed =
        names.size() <= MAX_COLUMNS_LISTED
            ? String.join(", ", names)
            : String.join(", ", names.subList(0, MAX_COLUMNS_LISTED))
                + ", and "
                + (names.size() - MAX_COLUMNS_LISTED)
                + " more";
    return SqlException.of(
        SqlErrorKind.UNRESOLVED,
        node.position(),
        "resolve column '" + node.sql() + "'",
        null,
        "columns of " + table.name() + ": " + listed);
  }

  /** The columns {@code *} or {@code m.*} stands for, in schema order. */
  List<Column> star(StarNode node) {
    if (!node.qualifier().isEmpty()) {
      checkQualifier(node.qualifier(), new IdentifierNode(node.qualifier(), node.position()));
    }
    return table.columns();
  }

  private void checkQualifier(List<String> qualifier, IdentifierNode node) {
    if (qualifier.isEmpty()) {
      return;
    }
    String joined = String.join(".", qualifier);
    boolean matches =
        from.alias()
                .map(alias -> qualifier.size() == 1 && alias.equalsIgnoreCase(joined))
                .orElse(false)
            || (from.alias().isEmpty()
                && (joined.equalsIgnoreCase(table.name().toString())
                    || joined.equalsIgnoreCase(from.name().toString())
                    || joined.equalsIgnoreCase(from.name().simpleName())));
    if (!matches) {
      throw SqlException.of(
          SqlErrorKind.UNRESOLVED,
          node.position(),
          "resolve '" + node.sql() + "'",
          "'" + joined + "' is not the queried table",
          "the query reads "
              + from.name()
              + from.alias()
                  .map(alias -> " AS " + alias + "; qualify columns with " + alias)
                  .orElse(""));
    }
  }
}
