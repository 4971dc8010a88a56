package io.shelfmark.sql;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.bind.Binder;
import io.shelfmark.sql.function.FunctionRegistry;
import io.shelfmark.sql.parse.SqlParser;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.schema.TableSchemaProvider;
import io.shelfmark.sql.tree.SelectStatement;

/**
 * The entry point: SQL text to a {@link QueryPlan}. Parses with Calcite ({@link SqlParser}), binds
 * against the tables ({@link Binder}), and refuses anything Shelfmark cannot answer correctly with
 * a {@link SqlException} whose message names the offending thing and its line and column.
 *
 * <pre>{@code
 * SqlPlanner planner = new SqlPlanner(TableSchemaProvider.of(table), FunctionRegistry.standard());
 * QueryPlan plan = planner.plan("SELECT COUNT(*) FROM obs.metrics WHERE resolution = 15000");
 * }</pre>
 *
 * <p>Thread-safe when the provider is: planning keeps no state between calls.
 */
public final class SqlPlanner {
  private final Binder binder;
  private final SqlLimits limits;

  public SqlPlanner(TableSchemaProvider tables, FunctionRegistry functions, SqlLimits limits) {
    this.binder =
        new Binder(
            requireNonNull(tables, "tables is null"),
            requireNonNull(functions, "functions is null"));
    this.limits = requireNonNull(limits, "limits is null");
  }

  /** With the {@linkplain SqlLimits#defaults() default limits}. */
  public SqlPlanner(TableSchemaProvider tables, FunctionRegistry functions) {
    this(tables, functions, SqlLimits.defaults());
  }

  /** With every built-in function. */
  public SqlPlanner(TableSchemaProvider tables) {
    this(tables, FunctionRegistry.standard());
  }

  /**
   * Plans one SELECT statement.
   *
   * @throws SqlException if the SQL does not parse, names something unknown, is invalid, or uses a
   *     form Shelfmark does not support; see {@link SqlException#kind()}
   */
  public QueryPlan plan(String sql) {
    return switch (planStatement(sql)) {
      case PlannedStatement.OverTable table -> table.plan();
      case PlannedStatement.Constant constant ->
          throw SqlException.of(
              SqlErrorKind.UNSUPPORTED,
              new SqlPosition(1, 1),
              "plan SELECT without FROM here",
              "this path queries a table",
              "add FROM <table>");
    };
  }

  /**
   * Plans one statement as a client sends it: query options in the text ({@code SET name=value;}
   * before it, {@code OPTION(...)} after it) and a SELECT, with or without FROM.
   *
   * @throws SqlException as {@link #plan}, and for an option Shelfmark cannot use
   */
  public PlannedStatement planStatement(String sql) {
    SqlParser.ParsedStatement parsed = SqlParser.parseStatement(sql, limits);
    StatementOptions options = parsed.options();
    options.timeout(); // validated while planning, so a bad value is a planning error
    if (parsed.statement().from().isEmpty()) {
      SelectStatement statement = parsed.statement();
      return new PlannedStatement.Constant(
          binder.bindConstant(statement),
          statement.limit().orElse(1),
          statement.offset().orElse(0),
          options);
    }
    return new PlannedStatement.OverTable(binder.bind(parsed.statement()), options);
  }
}
