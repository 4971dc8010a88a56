package io.shelfmark.sql.parse;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.SqlLimits;
import io.shelfmark.sql.SqlPosition;
import io.shelfmark.sql.StatementOptions;
import io.shelfmark.sql.tree.SelectStatement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSetOption;
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

  /**
   * The stack of the thread that re-parses a query whose parse overflowed the caller's stack:
   * enough for the deepest operator chain {@link SqlLimits#MAX_SQL_LENGTH_KEY} lets through at its
   * default (reserved address space; pages are committed only as the parser uses them).
   */
  private static final long LARGE_STACK_BYTES = 256L * 1024 * 1024;

  /**
   * How many such parses run at once, process-wide: each may commit tens of MiB of stack, and a
   * burst of deep queries must not add that up. The others wait their turn (still answered).
   */
  private static final Semaphore LARGE_STACK_PARSES = new Semaphore(2, true);

  private SqlParser() {}

  /** Parses {@code sql} within the {@linkplain SqlLimits#defaults() default limits}. */
  public static SelectStatement parse(String sql) {
    return parse(sql, SqlLimits.defaults());
  }

  /**
   * Parses {@code sql}, which must hold exactly one SELECT statement (a trailing semicolon is
   * allowed). Query options in the text ({@code SET name=value;} before it, {@code OPTION(...)}
   * after it) are accepted and dropped; {@link #parseStatement} returns them.
   *
   * @throws SqlException when the text does not parse ({@link SqlErrorKind#SYNTAX}), is larger than
   *     {@code limits} allow ({@link SqlErrorKind#LIMIT}) or is a form Shelfmark does not answer
   */
  public static SelectStatement parse(String sql, SqlLimits limits) {
    return parseStatement(sql, limits).statement();
  }

  /**
   * Parses {@code sql} as {@link #parseStatement(String, SqlLimits)}, within the default limits.
   */
  public static ParsedStatement parseStatement(String sql) {
    return parseStatement(sql, SqlLimits.defaults());
  }

  /**
   * Parses {@code sql}: any number of {@code SET name = value;} statements, one SELECT statement,
   * and an optional trailing {@code OPTION(name=value, ...)} clause (Pinot's forms of query
   * options). Positions in errors are positions in {@code sql} as sent.
   *
   * @throws SqlException when the text does not parse ({@link SqlErrorKind#SYNTAX}), is larger than
   *     {@code limits} allow ({@link SqlErrorKind#LIMIT}) or is a form Shelfmark does not answer
   */
  public static ParsedStatement parseStatement(String sql, SqlLimits limits) {
    requireNonNull(sql, "sql is null");
    requireNonNull(limits, "limits is null");
    SourceText source = new SourceText(sql);
    SizeLimits sizeLimits = new SizeLimits(limits, source);
    sizeLimits.checkText();
    Map<String, StatementOptions.Option> options = new LinkedHashMap<>();
    Map<String, StatementOptions.Option> clause = new LinkedHashMap<>();
    String query = OptionClause.strip(source, clause);
    SqlNodeList statements;
    try {
      statements = parseStatements(query);
    } catch (SqlParseException e) {
      throw ParseErrors.translate(source, e);
    }
    List<SqlNode> rest = new ArrayList<>();
    for (SqlNode statement : statements) {
      if (statement instanceof SqlSetOption set && rest.isEmpty()) {
        setOption(set, options);
      } else {
        rest.add(statement);
      }
    }
    options.putAll(clause);
    if (rest.isEmpty()) {
      throw new SqlException(
          SqlErrorKind.SYNTAX, null, "Cannot parse SQL: the query is empty (send one SELECT)");
    }
    if (rest.size() > 1) {
      SqlNode second = rest.get(1);
      throw SqlException.of(
          SqlErrorKind.UNSUPPORTED,
          NodeConverter.position(second.getParserPosition()),
          "plan multiple statements",
          "the request holds " + rest.size() + " statements",
          "send one statement per request, after any SET name=value; options");
    }
    sizeLimits.checkTree(rest.get(0));
    return new ParsedStatement(
        new NodeConverter(source).statement(rest.get(0)), new StatementOptions(options));
  }

  private static void setOption(SqlSetOption set, Map<String, StatementOptions.Option> options) {
    SqlPosition position = NodeConverter.position(set.getParserPosition());
    if (set.getValue() == null || set.getScope() != null) {
      throw SqlException.of(
          SqlErrorKind.UNSUPPORTED,
          position,
          "plan " + (set.getValue() == null ? "RESET" : "ALTER " + set.getScope()),
          "only SET name=value; query options before the query are supported",
          null);
    }
    SqlNode value = set.getValue();
    String text;
    if (value instanceof SqlCharStringLiteral string) {
      text = string.getValueAs(String.class);
    } else if (value instanceof SqlLiteral literal) {
      text = String.valueOf(literal.toValue());
    } else {
      text = value.toString();
    }
    options.put(String.join(".", set.getName().names), new StatementOptions.Option(text, position));
  }

  /** A statement and the query options written with it. */
  public record ParsedStatement(SelectStatement statement, StatementOptions options) {
    public ParsedStatement {
      requireNonNull(statement, "statement is null");
      requireNonNull(options, "options is null");
    }
  }

  /**
   * Calcite's parser recurses once or more per operator of a chain ({@code a OR b OR ...}, {@code
   * NOT NOT ...}) and reports a stack overflow as a syntax error without a position. Such a query
   * is parsed again on a thread with a large stack, so that it is answered, or refused by {@link
   * SizeLimits} with a position; ordinary queries never pay for that thread.
   */
  private static SqlNodeList parseStatements(String sql) throws SqlParseException {
    try {
      return org.apache.calcite.sql.parser.SqlParser.create(sql, CONFIG).parseStmtList();
    } catch (SqlParseException e) {
      if (!(rootCause(e) instanceof StackOverflowError)) {
        throw e;
      }
    }
    CompletableFuture<SqlNodeList> result = new CompletableFuture<>();
    try {
      LARGE_STACK_PARSES.acquire();
      Thread thread =
          new Thread(
              null,
              () -> {
                try {
                  result.complete(
                      org.apache.calcite.sql.parser.SqlParser.create(sql, CONFIG).parseStmtList());
                } catch (Throwable t) {
                  result.completeExceptionally(t);
                } finally {
                  LARGE_STACK_PARSES.release();
                }
              },
              "sql-parse-large-stack",
              LARGE_STACK_BYTES);
      thread.setDaemon(true);
      try {
        thread.start();
      } catch (RuntimeException | Error e) {
        LARGE_STACK_PARSES.release(); // the thread that would release it never ran
        throw e;
      }
      return result.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SqlException(
          SqlErrorKind.SYNTAX, null, "Cannot parse SQL: interrupted while parsing", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof SqlParseException parse) {
        throw parse;
      }
      throw new SqlException(
          SqlErrorKind.LIMIT,
          null,
          "Cannot parse SQL: the query nests too deeply to parse (simplify the query, or lower "
              + SqlLimits.MAX_SQL_LENGTH_KEY
              + ")",
          e.getCause());
    }
  }

  private static Throwable rootCause(Throwable error) {
    Throwable cause = error;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause;
  }
}
