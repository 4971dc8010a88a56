package io.shelfmark.sql.expression;

import io.shelfmark.sql.type.SqlType;
import java.util.List;

/**
 * A bound, typed expression of a {@code QueryPlan}: names resolved, types checked, implicit casts
 * made explicit, constant arithmetic folded. Immutable values with structural equality, so two
 * spellings of the same expression (in SELECT and GROUP BY) are equal.
 *
 * <p>Where an expression is evaluated is given by where it sits in the plan: filter, group keys and
 * aggregate arguments over the table's rows (column and map-key references); outputs, HAVING and
 * ORDER BY of an aggregated query over its groups ({@link GroupKeyRef}, {@link AggregateRef}).
 *
 * <p>Semantics shared by every executor (docs/sql.md has the full reference):
 *
 * <ul>
 *   <li>Three-valued logic: a comparison, BETWEEN, IN or LIKE with a NULL operand is NULL
 *       (unknown); AND, OR, NOT follow Kleene's tables; a row passes a filter only when it is TRUE.
 *   <li>Operands of a comparison, BETWEEN and IN have the same type (the binder casts); numbers
 *       compare by value, strings by Unicode code point (= UTF-8 byte order), booleans FALSE &lt;
 *       TRUE; for FLOAT/DOUBLE -0.0 = 0.0 and NaN equals NaN and is greater than every other value
 *       (DuckDB's and PostgreSQL's total order).
 * </ul>
 */
public sealed interface Expression
    permits ColumnRef,
        MapKeyRef,
        Literal,
        Cast,
        Comparison,
        Between,
        InList,
        IsNull,
        Like,
        And,
        Or,
        Not,
        Arithmetic,
        Negate,
        DateTrunc,
        GroupKeyRef,
        AggregateRef {
  SqlType type();

  /** The direct sub-expressions, in evaluation order. */
  List<Expression> children();
}
