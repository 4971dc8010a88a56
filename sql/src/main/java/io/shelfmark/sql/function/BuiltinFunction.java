package io.shelfmark.sql.function;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.Locale;

/**
 * The functions Shelfmark's SQL knows, with every spelling a query may use (matched ignoring case).
 * Pinot's spellings come first, then the standard or DuckDB ones.
 */
public enum BuiltinFunction {
  /** {@code dateTrunc('unit', value)}: see {@code DateTrunc}. */
  DATE_TRUNC(Kind.SCALAR, "datetrunc", "date_trunc"),
  /**
   * Pinot's {@code DATETIMECONVERT(millis, '1:MILLISECONDS:EPOCH', '1:MILLISECONDS:EPOCH',
   * '5:MINUTES')}: epoch time bucketed; see {@code TimeFunctions} in the binder.
   */
  DATETIMECONVERT(Kind.SCALAR, "datetimeconvert"),
  /**
   * {@code ROUND(time, bucketMillis)}: Pinot's rounding of a time down to a multiple of a width, as
   * Superset's time grains use it.
   */
  ROUND(Kind.SCALAR, "round"),
  /** Pinot's {@code FromDateTime('2026-01-02', 'yyyy-MM-dd')}: epoch millis of a literal. */
  FROM_DATE_TIME(Kind.SCALAR, "fromdatetime"),
  /** Pinot's {@code ToDateTime(millis, 'yyyy-MM-dd')}: the text of a literal time, in UTC. */
  TO_DATE_TIME(Kind.SCALAR, "todatetime"),
  /**
   * Pinot's {@code ToEpochSeconds(millis)} ... {@code ToEpochDays}: whole units since the epoch.
   */
  TO_EPOCH(Kind.SCALAR, "toepochseconds", "toepochminutes", "toepochhours", "toepochdays"),
  /**
   * Pinot's {@code ToEpochMinutesRounded(millis, n)}: whole units, rounded down to a multiple of n.
   */
  TO_EPOCH_ROUNDED(
      Kind.SCALAR,
      "toepochsecondsrounded",
      "toepochminutesrounded",
      "toepochhoursrounded",
      "toepochdaysrounded"),
  /**
   * Pinot's {@code ToEpochMinutesBucket(millis, n)}: the number of n-unit buckets since the epoch.
   */
  TO_EPOCH_BUCKET(
      Kind.SCALAR,
      "toepochsecondsbucket",
      "toepochminutesbucket",
      "toepochhoursbucket",
      "toepochdaysbucket"),
  /** Pinot's {@code FromEpochSeconds(seconds)} ... {@code FromEpochDays}: epoch milliseconds. */
  FROM_EPOCH(
      Kind.SCALAR, "fromepochseconds", "fromepochminutes", "fromepochhours", "fromepochdays"),
  /** {@code element_at(map, 'key')}: the same as {@code map['key']}. */
  ELEMENT_AT(Kind.SCALAR, "element_at"),
  /** {@code COUNT(*)}, {@code COUNT(x)}, {@code COUNT(DISTINCT x)}. */
  COUNT(Kind.AGGREGATE, "count"),
  SUM(Kind.AGGREGATE, "sum"),
  AVG(Kind.AGGREGATE, "avg"),
  MIN(Kind.AGGREGATE, "min"),
  MAX(Kind.AGGREGATE, "max"),
  /** Pinot's exact distinct count: {@code DISTINCTCOUNT(x)} is {@code COUNT(DISTINCT x)}. */
  DISTINCT_COUNT(Kind.AGGREGATE, "distinctcount"),
  /** Approximate distinct count with a HyperLogLog sketch. */
  DISTINCT_COUNT_HLL(Kind.AGGREGATE, "distinctcounthll", "approx_count_distinct");

  /** Whether a function maps values of one row, or rows of a group to one value. */
  public enum Kind {
    SCALAR,
    AGGREGATE
  }

  private final Kind kind;
  private final List<String> spellings;

  BuiltinFunction(Kind kind, String... spellings) {
    checkArgument(spellings.length > 0, "no spelling");
    this.kind = kind;
    this.spellings = ImmutableList.copyOf(spellings);
  }

  public Kind kind() {
    return kind;
  }

  public boolean isAggregate() {
    return kind == Kind.AGGREGATE;
  }

  /** Lower-case names a query may use for this function. */
  public List<String> spellings() {
    return spellings;
  }

  /** Whether {@code name} is one of this function's spellings, ignoring case. */
  public boolean isSpelled(String name) {
    return spellings.contains(name.toLowerCase(Locale.ROOT));
  }
}
