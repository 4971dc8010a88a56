package io.shelfmark.sql.parse;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.tree.SelectStatement;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * Parses one SQL statement with Apache Calcite's parser into Shelfmark's syntax tree ({@link
 * SelectStatement}). Calcite is used for parsing only, and this package is the only one that sees
 * its types.
 *
 * <p>Parser configuration: identifiers in double quotes, case kept as written (quoted or not) and
 * matched later by the binder, LENIENT conformance (so {@code LIMIT n OFFSET m}, {@code LIMIT m,
 * n}, {@code map['key']}, GROUP BY aliases and ordinals all parse).
 *
 * <p>Statement-level forms Shelfmark refuses (joins, set operations, WITH, subqueries in FROM, DML,
 * DDL, several statements) are refused here with a {@link SqlException} naming the form and its
 * position; expression-level ones become {@link io.shelfmark.sql.tree.UnsupportedNode}s that the
 * binder refuses in query order.
 *
 * <p>Stateless and thread-safe.
 */
public final class SqlParser {
  private static final org.apache.calcite.sql.parser.SqlParser.Config CONFIG =
      org.apache.calcite.sql.parser.SqlParser.config()
          .withQuoting(Quoting.DOUBLE_QUOTE)
          .withUnquotedCasing(Casing.UNCHANGED)
          .withQuotedCasing(Casing.UNCHANGED)
          .withCaseSensitive(true)
          .withConformance(SqlConformanceEnum.LENIENT);

  private SqlParser() {}

  /**
   * Parses {@code sql}, which must hold exactly one SELECT statement (a trailing semicolon is
   * allowed).
   *
   * @throws SqlException when the text does not parse ({@link SqlErrorKind#SYNTAX}) or is a form
   *     Shelfmark does not answer
   */
  public static SelectStatement parse(String sql) {
    requireNonNull(sql, "sql is null");
    SourceText source = new SourceText(sql);
    SqlNodeList statements;
    try {
      statements = org.apache.calcite.sql.parser.SqlParser.create(sql, CONFIG).parseStmtList();
    } catch (SqlParseException e) {
      throw ParseErrors.translate(source, e);
    }
    if (statements.isEmpty()) {
      throw new SqlException(
          SqlErrorKind.SYNTAX, null, "Cannot parse SQL: the query is empty (send one SELECT)");
    }
    if (statements.size() > 1) {
      SqlNode second = statements.get(1);
      throw SqlException.of(
          SqlErrorKind.UNSUPPORTED,
          NodeConverter.position(second.getParserPosition()),
          "plan multiple statements",
          "the request holds " + statements.size() + " statements",
          "send one statement per request");
    }
    return new NodeConverter(source).statement(statements.get(0));
  }
}
