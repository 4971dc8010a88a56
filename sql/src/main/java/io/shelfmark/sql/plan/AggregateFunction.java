package io.shelfmark.sql.plan;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;

/**
 * The aggregates, their argument rules and result types. NULL arguments are skipped by every
 * aggregate but COUNT(*); over no rows (or only NULLs) COUNT gives 0 and the others NULL.
 *
 * <pre>
 * function            argument            result
 * COUNT(*)            none                LONG
 * COUNT(x)            any                 LONG     rows where x is not NULL
 * SUM(x)              INT, LONG           LONG     exact: accumulate in 128 bits, error if the
 *                                                  final sum does not fit in LONG (see below)
 * SUM(x)              FLOAT, DOUBLE       DOUBLE
 * SUM(x)              DECIMAL(p,s)        DECIMAL(38,s), error past 38 digits
 * AVG(x)              numeric             DOUBLE   exact sum (as SUM) / count, rounded once
 * MIN(x), MAX(x)      orderable           x's type
 * COUNT(DISTINCT x)   primitive           LONG     exact
 * DISTINCTCOUNTHLL(x) primitive           LONG     HyperLogLog estimate
 * </pre>
 *
 * <p>SUM of integers: DuckDB returns HUGEINT (128-bit) for SUM(BIGINT); Shelfmark returns LONG
 * (BIGINT), and keeps DuckDB's answer whenever it fits: partial sums exchanged between server and
 * broker are 128-bit, so an intermediate overflow that later cancels out still gives the exact
 * result, and a final sum outside the LONG range fails the query with an error naming the aggregate
 * rather than wrapping around. FLOAT/DOUBLE sums follow IEEE and depend on addition order only in
 * the last bits.
 */
public enum AggregateFunction {
  COUNT_STAR("count"),
  COUNT("count"),
  SUM("sum"),
  AVG("avg"),
  MIN("min"),
  MAX("max"),
  COUNT_DISTINCT("count"),
  DISTINCT_COUNT_HLL("distinctcounthll");

  private final String sqlName;

  AggregateFunction(String sqlName) {
    this.sqlName = sqlName;
  }

  /** The lower-case SQL name: {@code count} for the three COUNTs. */
  public String sqlName() {
    return sqlName;
  }

  /** Whether the function takes an argument (all but COUNT(*)). */
  public boolean hasArgument() {
    return this != COUNT_STAR;
  }

  /** Whether {@code type} is a valid argument. */
  public boolean accepts(SqlType type) {
    requireNonNull(type, "type is null");
    return switch (this) {
      case COUNT_STAR -> false;
      case COUNT -> true;
      case SUM, AVG -> type.isNumeric();
      case MIN, MAX -> type.isOrderable();
      case COUNT_DISTINCT, DISTINCT_COUNT_HLL -> type.isPrimitive();
    };
  }

  /** What {@link #accepts} wants, for messages: {@code a numeric argument}. */
  public String argumentRequirement() {
    return switch (this) {
      case COUNT_STAR -> "no argument";
      case COUNT -> "any argument";
      case SUM, AVG -> "a numeric argument (INT, LONG, FLOAT, DOUBLE or DECIMAL)";
      case MIN, MAX -> "an orderable argument (a number, STRING, BOOLEAN, DATE or TIMESTAMP)";
      case COUNT_DISTINCT, DISTINCT_COUNT_HLL -> "a scalar argument (not a MAP or LIST)";
    };
  }

  /** The result type for an argument of {@code argument}'s type (ignored by COUNT(*)). */
  public SqlType resultType(SqlType argument) {
    return switch (this) {
      case COUNT_STAR, COUNT, COUNT_DISTINCT, DISTINCT_COUNT_HLL -> PrimitiveType.LONG;
      case AVG -> PrimitiveType.DOUBLE;
      case MIN, MAX -> argument;
      case SUM -> sumType(argument);
    };
  }

  private static SqlType sumType(SqlType argument) {
    if (argument instanceof DecimalType decimal) {
      return new DecimalType(DecimalType.MAX_PRECISION, decimal.scale());
    }
    if (argument.isIntegral()) {
      return PrimitiveType.LONG;
    }
    if (argument == PrimitiveType.FLOAT || argument == PrimitiveType.DOUBLE) {
      return PrimitiveType.DOUBLE;
    }
    throw new IllegalArgumentException("SUM of a non-number: " + argument);
  }
}
