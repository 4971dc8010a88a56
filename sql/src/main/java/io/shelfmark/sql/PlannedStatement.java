package io.shelfmark.sql;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.plan.ConstantQuery;
import io.shelfmark.sql.plan.QueryPlan;

/**
 * A planned statement as a client sent it: a query over a table or a row of constants, and the
 * query options written in its text.
 */
public sealed interface PlannedStatement {
  StatementOptions options();

  /** A query over a table. */
  record OverTable(QueryPlan plan, StatementOptions options) implements PlannedStatement {
    public OverTable {
      requireNonNull(plan, "plan is null");
      requireNonNull(options, "options is null");
    }
  }

  /**
   * A {@code SELECT} without {@code FROM}.
   *
   * @param limit at most this many of its one row (LIMIT 0 asks for the columns alone)
   * @param offset rows skipped
   */
  record Constant(ConstantQuery query, long limit, long offset, StatementOptions options)
      implements PlannedStatement {
    public Constant {
      requireNonNull(query, "query is null");
      requireNonNull(options, "options is null");
    }

    /** The rows of the answer: the one row, unless LIMIT 0 or an OFFSET drops it. */
    public java.util.List<java.util.List<Object>> rows() {
      return limit > 0 && offset == 0 ? java.util.List.of(query.row()) : java.util.List.of();
    }
  }
}
