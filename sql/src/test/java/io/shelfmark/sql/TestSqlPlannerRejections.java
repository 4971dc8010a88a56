package io.shelfmark.sql;

import static io.shelfmark.sql.TestingTables.planner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every SQL form Shelfmark refuses, with the exact message (which carries the position) and the
 * error kind the broker maps to a response code.
 */
class TestSqlPlannerRejections {
  private static final String ONE_TABLE = "(Shelfmark queries one table at a time)";
  private static final String SELECT_ONLY = "Shelfmark answers SELECT queries only";
  private static final String READ_ONLY =
      "(Iceberg tables are written by their own engines; Shelfmark only reads them)";

  static Stream<Arguments> rejections() {
    return Stream.of(
        // Joins, in every spelling.
        rejected(
            "SELECT a.org_id FROM obs.metrics a JOIN obs.metrics b ON a.org_id = b.org_id",
            SqlErrorKind.UNSUPPORTED,
            1,
            36,
            "Cannot plan JOIN at line 1, column 36: joins are not supported " + ONE_TABLE),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics, test.types",
            SqlErrorKind.UNSUPPORTED,
            1,
            33,
            "Cannot plan comma join at line 1, column 33: joins are not supported " + ONE_TABLE),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics LEFT JOIN test.types ON TRUE",
            SqlErrorKind.UNSUPPORTED,
            1,
            39,
            "Cannot plan LEFT JOIN at line 1, column 39: joins are not supported " + ONE_TABLE),
        // Subqueries in FROM, WHERE and SELECT.
        rejected(
            "SELECT COUNT(*) FROM (SELECT * FROM obs.metrics) m",
            SqlErrorKind.UNSUPPORTED,
            1,
            23,
            "Cannot plan subquery in FROM at line 1, column 23: subqueries are not supported"
                + " (Shelfmark queries one table at a time: query the table directly)"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE org_id IN (SELECT org_id FROM obs.metrics)",
            SqlErrorKind.UNSUPPORTED,
            1,
            51,
            "Cannot plan subquery in IN at line 1, column 51: subqueries are not supported"
                + " (list the values)"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE EXISTS (SELECT 1 FROM obs.metrics)",
            SqlErrorKind.UNSUPPORTED,
            1,
            40,
            "Cannot plan EXISTS subquery at line 1, column 40: subqueries are not supported"
                + " (Shelfmark queries one table without subqueries)"),
        rejected(
            "SELECT (SELECT MAX(org_id) FROM obs.metrics) FROM obs.metrics LIMIT 1",
            SqlErrorKind.UNSUPPORTED,
            1,
            8,
            "Cannot plan subquery at line 1, column 8: subqueries are not supported"
                + " (Shelfmark queries one table without subqueries)"),
        // Window functions.
        rejected(
            "SELECT SUM(sum_rollup) OVER (PARTITION BY metric) FROM obs.metrics LIMIT 1",
            SqlErrorKind.UNSUPPORTED,
            1,
            8,
            "Cannot plan window function SUM at line 1, column 8: window functions (OVER) are not"
                + " supported"),
        rejected(
            "SELECT metric, COUNT(*) FROM obs.metrics GROUP BY metric QUALIFY COUNT(*) > 1",
            SqlErrorKind.UNSUPPORTED,
            1,
            66,
            "Cannot plan QUALIFY at line 1, column 66: window functions are not supported"),
        // Set operations, WITH, DISTINCT.
        rejected(
            "SELECT metric FROM obs.metrics UNION SELECT metric FROM obs.metrics",
            SqlErrorKind.UNSUPPORTED,
            1,
            32,
            "Cannot plan UNION at line 1, column 32: set operations are not supported"
                + " (run each SELECT as its own query)"),
        rejected(
            "SELECT metric FROM obs.metrics\nINTERSECT\nSELECT metric FROM obs.metrics",
            SqlErrorKind.UNSUPPORTED,
            2,
            1,
            "Cannot plan INTERSECT at line 2, column 1: set operations are not supported"
                + " (run each SELECT as its own query)"),
        rejected(
            "SELECT metric FROM obs.metrics EXCEPT SELECT metric FROM obs.metrics",
            SqlErrorKind.UNSUPPORTED,
            1,
            32,
            "Cannot plan EXCEPT at line 1, column 32: set operations are not supported"
                + " (run each SELECT as its own query)"),
        rejected(
            "WITH m AS (SELECT * FROM obs.metrics) SELECT COUNT(*) FROM m",
            SqlErrorKind.UNSUPPORTED,
            1,
            1,
            "Cannot plan WITH at line 1, column 1: common table expressions are not supported"
                + " (Shelfmark queries one table at a time: write the query over the table"
                + " directly)"),
        rejected(
            "SELECT DISTINCT metric FROM obs.metrics GROUP BY metric LIMIT 10",
            SqlErrorKind.UNSUPPORTED,
            1,
            1,
            "Cannot plan SELECT DISTINCT at line 1, column 1: DISTINCT is supported over plain"
                + " select lists, not with GROUP BY, HAVING or aggregates (drop DISTINCT: grouped"
                + " rows are already distinct by their keys)"),
        // Unknown names.
        rejected(
            "SELECT dateTrunk('second', logical_timestamp) FROM obs.metrics LIMIT 1",
            SqlErrorKind.UNRESOLVED,
            1,
            8,
            "Cannot resolve function 'dateTrunk' at line 1, column 8 (supported functions:"
                + " approx_count_distinct, avg, count, date_trunc, datetimeconvert, datetrunc,"
                + " distinctcount, distinctcounthll, element_at, fromdatetime, fromepochdays,"
                + " fromepochhours, fromepochminutes, fromepochseconds, max, min, round, sum,"
                + " todatetime, toepochdays, toepochdaysbucket, toepochdaysrounded, toepochhours,"
                + " toepochhoursbucket, toepochhoursrounded, toepochminutes, toepochminutesbucket,"
                + " toepochminutesrounded, toepochseconds, toepochsecondsbucket,"
                + " toepochsecondsrounded)"),
        rejected(
            "SELECT ToDateTime(logical_timestamp, 'yyyy-MM-dd') FROM obs.metrics LIMIT 1",
            SqlErrorKind.UNSUPPORTED,
            1,
            8,
            "Cannot call todatetime(logical_timestamp, 'yyyy-MM-dd') at line 1, column 8:"
                + " ToDateTime formats literal epoch milliseconds only, not a column's values"
                + " (select the epoch millis (dateTrunc or DATETIMECONVERT) and format them in the"
                + " client)"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics\nWHERE metrc = 'x'",
            SqlErrorKind.UNRESOLVED,
            2,
            7,
            "Cannot resolve column 'metrc' at line 2, column 7 (columns of obs.metrics: org_id,"
                + " metric, resolution, logical_timestamp, sum_rollup, latest_rollup, dimensions)"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrix",
            SqlErrorKind.UNRESOLVED,
            1,
            22,
            "Cannot resolve table 'obs.metrix' at line 1, column 22 (known tables: obs.metrics,"
                + " test.types)"),
        rejected(
            "SELECT x.org_id FROM obs.metrics m LIMIT 1",
            SqlErrorKind.UNRESOLVED,
            1,
            8,
            "Cannot resolve 'x.org_id' at line 1, column 8: 'x' is not the queried table (the"
                + " query reads obs.metrics AS m; qualify columns with m)"),
        rejected(
            "SELECT mixed, MIXED FROM test.types LIMIT 1",
            SqlErrorKind.UNRESOLVED,
            1,
            15,
            "Cannot resolve column 'MIXED' at line 1, column 15: it matches [Mixed, mixed]"
                + " ignoring case (spell the column exactly, in double quotes)"),
        rejected(
            "SELECT struct_col FROM test.types LIMIT 1",
            SqlErrorKind.UNSUPPORTED,
            1,
            8,
            "Cannot read column 'struct_col' at line 1, column 8: its type struct<18: inner:"
                + " optional int> is not supported (query the table's other columns)"),
        // Aggregates in the wrong place.
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE SUM(sum_rollup) > 1",
            SqlErrorKind.INVALID,
            1,
            40,
            "Cannot use aggregate sum(sum_rollup) in WHERE at line 1, column 40: WHERE filters"
                + " rows before they are aggregated (move the condition to HAVING)"),
        rejected(
            "SELECT SUM(COUNT(*)) FROM obs.metrics",
            SqlErrorKind.INVALID,
            1,
            12,
            "Cannot nest aggregate count(*) at line 1, column 12: it is inside the argument of"
                + " another aggregate (aggregate a column or an expression of columns)"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics GROUP BY MAX(metric)",
            SqlErrorKind.INVALID,
            1,
            43,
            "Cannot group by aggregate max(metric) at line 1, column 43: GROUP BY keys are"
                + " computed per row (group by a column or an expression of columns)"),
        rejected(
            "SELECT metric, SUM(sum_rollup) FROM obs.metrics GROUP BY 2",
            SqlErrorKind.INVALID,
            1,
            58,
            "Cannot group by ordinal 2 at line 1, column 58: it refers to sum(sum_rollup), which"
                + " is an aggregate (group by a column or an expression of columns)"),
        // Ordinals and grouping.
        rejected(
            "SELECT metric, COUNT(*) FROM obs.metrics GROUP BY 3",
            SqlErrorKind.INVALID,
            1,
            51,
            "Cannot resolve GROUP BY ordinal 3 at line 1, column 51: the select list has 2"
                + " columns (ordinals count select-list columns from 1)"),
        rejected(
            "SELECT metric, COUNT(*) FROM obs.metrics GROUP BY 0",
            SqlErrorKind.INVALID,
            1,
            51,
            "Cannot resolve GROUP BY ordinal 0 at line 1, column 51: the select list has 2"
                + " columns (ordinals count select-list columns from 1)"),
        rejected(
            "SELECT metric, COUNT(*) FROM obs.metrics GROUP BY metric ORDER BY 5",
            SqlErrorKind.INVALID,
            1,
            67,
            "Cannot resolve ORDER BY ordinal 5 at line 1, column 67: the select list has 2"
                + " columns (ordinals count select-list columns from 1)"),
        rejected(
            "SELECT metric, org_id, COUNT(*) FROM obs.metrics GROUP BY metric",
            SqlErrorKind.INVALID,
            1,
            16,
            "Cannot select org_id at line 1, column 16: it is neither in GROUP BY nor inside an"
                + " aggregate (add it to GROUP BY or aggregate it, such as MIN(org_id))"),
        rejected(
            "SELECT dimensions['node'], COUNT(*) FROM obs.metrics GROUP BY dimensions['service']",
            SqlErrorKind.INVALID,
            1,
            8,
            "Cannot select dimensions['node'] at line 1, column 8: it is neither in GROUP BY nor"
                + " inside an aggregate (add it to GROUP BY or aggregate it, such as"
                + " MIN(dimensions['node']))"),
        rejected(
            "SELECT metric, COUNT(*) FROM obs.metrics GROUP BY metric HAVING org_id > 1",
            SqlErrorKind.INVALID,
            1,
            65,
            "Cannot use org_id in HAVING at line 1, column 65: it is neither in GROUP BY nor"
                + " inside an aggregate (add it to GROUP BY or aggregate it, such as MIN(org_id))"),
        rejected(
            "SELECT metric, COUNT(*) FROM obs.metrics GROUP BY metric ORDER BY org_id",
            SqlErrorKind.INVALID,
            1,
            67,
            "Cannot use org_id in ORDER BY at line 1, column 67: it is neither in GROUP BY nor"
                + " inside an aggregate (add it to GROUP BY or aggregate it, such as MIN(org_id))"),
        rejected(
            "SELECT org_id, COUNT(*) FROM obs.metrics",
            SqlErrorKind.INVALID,
            1,
            8,
            "Cannot select org_id at line 1, column 8: it is neither in GROUP BY nor inside an"
                + " aggregate (add it to GROUP BY or aggregate it, such as MIN(org_id))"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics GROUP BY ROLLUP(metric)",
            SqlErrorKind.UNSUPPORTED,
            1,
            43,
            "Cannot plan ROLLUP at line 1, column 43: grouping sets are not supported (run one"
                + " query per grouping)"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics GROUP BY dimensions",
            SqlErrorKind.INVALID,
            1,
            43,
            "Cannot group by dimensions at line 1, column 43: it is MAP(STRING, STRING) (group by"
                + " a scalar, such as one map key: dimensions['key'])"),
        rejected(
            "SELECT DATETIMECONVERT(logical_timestamp, '1:DAYS:SIMPLE_DATE_FORMAT:yyyyMMdd',"
                + " '1:MILLISECONDS:EPOCH', '1:DAYS') AS d, COUNT(*) FROM obs.metrics GROUP BY d",
            SqlErrorKind.UNSUPPORTED,
            1,
            43,
            "Cannot use format '1:DAYS:SIMPLE_DATE_FORMAT:yyyyMMdd' in DATETIMECONVERT at line 1,"
                + " column 43: only epoch formats of milliseconds to days are supported"
                + " (SIMPLE_DATE_FORMAT is not) (write '1:MILLISECONDS:EPOCH')"),
        rejected(
            "SELECT ROUND(sum_rollup, 2) FROM obs.metrics LIMIT 1",
            SqlErrorKind.UNSUPPORTED,
            1,
            8,
            "Cannot call round(sum_rollup, 2) at line 1, column 8: ROUND is supported as a time"
                + " grain only: a TIMESTAMP or epoch milliseconds (BIGINT) and a positive integer"
                + " width in milliseconds (write ROUND(DATE_TRUNC('minute', CAST(col AS"
                + " TIMESTAMP)), 300000))"),
        // LIMIT and OFFSET.
        rejected(
            "SELECT metric FROM obs.metrics LIMIT -1",
            SqlErrorKind.INVALID,
            1,
            38,
            "Cannot plan LIMIT at line 1, column 38: a negative count is not allowed (LIMIT takes"
                + " a non-negative integer)"),
        rejected(
            "SELECT metric FROM obs.metrics LIMIT 10 OFFSET -5",
            SqlErrorKind.INVALID,
            1,
            48,
            "Cannot plan OFFSET at line 1, column 48: a negative count is not allowed (OFFSET"
                + " takes a non-negative integer)"),
        rejected(
            "SELECT metric FROM obs.metrics LIMIT 99999999999999999999",
            SqlErrorKind.INVALID,
            1,
            38,
            "Cannot plan LIMIT at line 1, column 38: 99999999999999999999 is not an integer in"
                + " the BIGINT range (LIMIT takes a non-negative integer)"),
        rejected(
            "SELECT metric FROM obs.metrics",
            SqlErrorKind.INVALID,
            1,
            1,
            "Cannot plan SELECT without LIMIT at line 1, column 1: a query that does not"
                + " aggregate returns every matching row (add LIMIT n, or aggregate with GROUP BY)"),
        // Statements other than one SELECT.
        rejected(
            "INSERT INTO obs.metrics (org_id) VALUES (1)",
            SqlErrorKind.UNSUPPORTED,
            1,
            1,
            "Cannot plan INSERT statement at line 1, column 1: " + SELECT_ONLY + " " + READ_ONLY),
        rejected(
            "UPDATE obs.metrics SET org_id = 1",
            SqlErrorKind.UNSUPPORTED,
            1,
            1,
            "Cannot plan UPDATE statement at line 1, column 1: " + SELECT_ONLY + " " + READ_ONLY),
        rejected(
            "DELETE FROM obs.metrics WHERE org_id = 1",
            SqlErrorKind.UNSUPPORTED,
            1,
            1,
            "Cannot plan DELETE statement at line 1, column 1: " + SELECT_ONLY + " " + READ_ONLY),
        rejected(
            "EXPLAIN PLAN FOR SELECT COUNT(*) FROM obs.metrics",
            SqlErrorKind.UNSUPPORTED,
            1,
            1,
            "Cannot plan EXPLAIN statement at line 1, column 1: " + SELECT_ONLY + " " + READ_ONLY),
        rejected(
            "CREATE TABLE t (a INT)",
            SqlErrorKind.UNSUPPORTED,
            1,
            1,
            "Cannot plan CREATE statement at line 1, column 1: "
                + SELECT_ONLY
                + " (tables are onboarded through the controller's admin API or the CLI)"),
        rejected(
            "  DROP TABLE obs.metrics",
            SqlErrorKind.UNSUPPORTED,
            1,
            3,
            "Cannot plan DROP statement at line 1, column 3: "
                + SELECT_ONLY
                + " (tables are onboarded through the controller's admin API or the CLI)"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics; SELECT COUNT(*) FROM obs.metrics",
            SqlErrorKind.UNSUPPORTED,
            1,
            35,
            "Cannot plan multiple statements at line 1, column 35: the request holds 2 statements"
                + " (send one statement per request, after any SET name=value; options)"),
        rejected(
            "VALUES (1)",
            SqlErrorKind.UNSUPPORTED,
            1,
            1,
            "Cannot plan VALUES at line 1, column 1: Shelfmark answers SELECT ... FROM <table>"
                + " queries only"),
        rejected(
            "SELECT 1, metric",
            SqlErrorKind.UNRESOLVED,
            1,
            11,
            "Cannot resolve column 'metric' at line 1, column 11: a SELECT without FROM has no"
                + " columns (add FROM <table>)"),
        rejected(
            "SELECT 1 ORDER BY 1",
            SqlErrorKind.UNSUPPORTED,
            1,
            19,
            "Cannot plan ORDER BY without FROM at line 1, column 19: a SELECT without FROM selects"
                + " one row of constants (add FROM <table>)"),
        rejected(
            "SET timeoutMs = 'soon'; SELECT COUNT(*) FROM obs.metrics",
            SqlErrorKind.INVALID,
            1,
            1,
            "Cannot use query option timeoutMs=soon at line 1, column 1: it must be a positive"
                + " number of milliseconds (for example SET timeoutMs=5000;)"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics\nOPTION(timeoutMs=0)",
            SqlErrorKind.INVALID,
            2,
            8,
            "Cannot use query option timeoutMs=0 at line 2, column 8: it must be a positive"
                + " number of milliseconds (for example SET timeoutMs=5000;)"),
        rejected(
            "SET timeoutMs = 10;\nSELECT COUNT(*) FROM obs.metrics WHERE nope = 1 OPTION(a=1)",
            SqlErrorKind.UNRESOLVED,
            2,
            40,
            "Cannot resolve column 'nope' at line 2, column 40 (columns of obs.metrics: org_id,"
                + " metric, resolution, logical_timestamp, sum_rollup, latest_rollup,"
                + " dimensions)"),
        // Expressions Shelfmark does not evaluate.
        rejected(
            "SELECT CAST(org_id AS VARCHAR) FROM obs.metrics LIMIT 1",
            SqlErrorKind.UNSUPPORTED,
            1,
            8,
            "Cannot cast org_id from LONG to STRING at line 1, column 8: this conversion is not"
                + " supported (supported: literals, widenings of numbers and DATE to TIMESTAMP,"
                + " epoch milliseconds (BIGINT) to TIMESTAMP)"),
        rejected(
            "SELECT CAST(metric AS JSON) FROM obs.metrics LIMIT 1",
            SqlErrorKind.UNSUPPORTED,
            1,
            8,
            "Cannot plan CAST to JSON at line 1, column 8: this type is not supported (cast to"
                + " BOOLEAN, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p, s), VARCHAR, DATE or"
                + " TIMESTAMP)"),
        rejected(
            "SELECT CAST(1e20 AS INT)",
            SqlErrorKind.INVALID,
            1,
            8,
            "Cannot cast 1.0E20 to INT at line 1, column 8: the value is out of the type's"
                + " range"),
        rejected(
            "SELECT CASE WHEN org_id = 1 THEN 1 END FROM obs.metrics LIMIT 1",
            SqlErrorKind.UNSUPPORTED,
            1,
            8,
            "Cannot plan CASE expression at line 1, column 8: CASE is not supported"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE org_id = ?",
            SqlErrorKind.UNSUPPORTED,
            1,
            49,
            "Cannot plan parameter ? at line 1, column 49: prepared-statement parameters are not"
                + " supported (inline the value)"),
        rejected(
            "SELECT metric || 'x' FROM obs.metrics LIMIT 1",
            SqlErrorKind.UNSUPPORTED,
            1,
            8,
            "Cannot plan operator || at line 1, column 8: this operator is not supported"),
        rejected(
            "SELECT COUNT(*) FILTER (WHERE org_id = 1) FROM obs.metrics",
            SqlErrorKind.UNSUPPORTED,
            1,
            8,
            "Cannot plan FILTER clause at line 1, column 8: aggregate filters are not supported"
                + " (move the condition to WHERE)"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE metric ILIKE 'a'",
            SqlErrorKind.UNSUPPORTED,
            1,
            40,
            "Cannot plan ILIKE at line 1, column 40: ILIKE is not supported (use LIKE, which is"
                + " case-sensitive)"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE org_id IN (1, org_id)",
            SqlErrorKind.UNSUPPORTED,
            1,
            54,
            "Cannot use org_id in an IN list at line 1, column 54: IN lists take literals only"
                + " (compare with OR instead)"),
        rejected(
            "SELECT list_col[1] FROM test.types LIMIT 1",
            SqlErrorKind.UNSUPPORTED,
            1,
            8,
            "Cannot access an element of list_col at line 1, column 8: element access on LIST"
                + " columns is not supported"),
        rejected(
            "SELECT SUM(DISTINCT sum_rollup) FROM obs.metrics",
            SqlErrorKind.UNSUPPORTED,
            1,
            8,
            "Cannot plan sum(DISTINCT sum_rollup) at line 1, column 8: DISTINCT is supported in"
                + " COUNT only (use COUNT(DISTINCT col))"),
        // Types and literals.
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE org_id = 'abc'",
            SqlErrorKind.INVALID,
            1,
            49,
            "Cannot cast 'abc' to LONG at line 1, column 49: it is compared with org_id, which is"
                + " LONG (write an integer, such as 184833768)"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE org_id IN (1, 'x2')",
            SqlErrorKind.INVALID,
            1,
            54,
            "Cannot cast 'x2' to LONG at line 1, column 54: it is compared with org_id, which is"
                + " LONG (write an integer, such as 184833768)"),
        rejected(
            "SELECT COUNT(*) FROM test.types WHERE int_col = '1.5'",
            SqlErrorKind.INVALID,
            1,
            49,
            "Cannot cast '1.5' to INT at line 1, column 49: the value does not fit in INT, the"
                + " type of int_col (write an integer, such as 184833768)"),
        rejected(
            "SELECT COUNT(*) FROM test.types WHERE date_col = '2025-13-01'",
            SqlErrorKind.INVALID,
            1,
            50,
            "Cannot cast '2025-13-01' to DATE at line 1, column 50: it is compared with date_col,"
                + " which is DATE (write a date as 'YYYY-MM-DD')"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE metric = 5",
            SqlErrorKind.INVALID,
            1,
            49,
            "Cannot compare metric with 5 at line 1, column 49: STRING and INT do not mix in ="
                + " (quote the literal to compare strings: '5')"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE dimensions = 'x'",
            SqlErrorKind.INVALID,
            1,
            40,
            "Cannot compare dimensions with = at line 1, column 40: it is MAP(STRING, STRING)"
                + " (compare one key, such as dimensions['key'])"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE metric",
            SqlErrorKind.INVALID,
            1,
            40,
            "Cannot use metric as a condition in WHERE at line 1, column 40: it is STRING, not"
                + " BOOLEAN (write a comparison, such as metric = ...)"),
        rejected(
            "SELECT SUM(metric) FROM obs.metrics",
            SqlErrorKind.INVALID,
            1,
            12,
            "Cannot apply SUM to metric at line 1, column 12: it is STRING (SUM takes a numeric"
                + " argument (INT, LONG, FLOAT, DOUBLE or DECIMAL))"),
        rejected(
            "SELECT metric + 1 FROM obs.metrics LIMIT 1",
            SqlErrorKind.INVALID,
            1,
            8,
            "Cannot apply + to metric at line 1, column 8: it is STRING, not a number"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE 9223372036854775807 + 1 > org_id",
            SqlErrorKind.INVALID,
            1,
            40,
            "Cannot evaluate 9223372036854775807 + 1 at line 1, column 40: the result overflows"
                + " LONG"),
        rejected(
            "SELECT metric['x'] FROM obs.metrics LIMIT 1",
            SqlErrorKind.INVALID,
            1,
            8,
            "Cannot access key 'x' of metric at line 1, column 8: it is STRING, not a MAP column"),
        rejected(
            "SELECT dimensions[metric] FROM obs.metrics LIMIT 1",
            SqlErrorKind.INVALID,
            1,
            19,
            "Cannot use metric as a key of dimensions at line 1, column 19: map keys must be"
                + " string literals (write dimensions['key'])"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE metric LIKE 'a\\b' ESCAPE '\\'",
            SqlErrorKind.INVALID,
            1,
            52,
            "Cannot compile LIKE pattern 'a\\b' at line 1, column 52: the escape character \\ is"
                + " followed by b at character 2, not by %, _ or itself (double the escape"
                + " character to match it literally)"),
        rejected(
            "SELECT dateTrunc('fortnight', logical_timestamp), COUNT(*) FROM obs.metrics GROUP BY 1",
            SqlErrorKind.INVALID,
            1,
            18,
            "Cannot use 'fortnight' as the unit of dateTrunc at line 1, column 18: the unit must"
                + " be a string literal naming one of [millisecond, second, minute, hour, day,"
                + " week, month, quarter, year] (write dateTrunc('second', ...))"),
        rejected(
            "SELECT dateTrunc('day', metric), COUNT(*) FROM obs.metrics GROUP BY 1",
            SqlErrorKind.INVALID,
            1,
            25,
            "Cannot apply dateTrunc to metric at line 1, column 25: it is STRING (dateTrunc takes"
                + " epoch milliseconds (LONG) or a TIMESTAMP)"),
        rejected(
            "SELECT dateTrunc('day', logical_timestamp, 'SECONDS') FROM obs.metrics LIMIT 1",
            SqlErrorKind.UNSUPPORTED,
            1,
            44,
            "Cannot use 'SECONDS' in dateTrunc at line 1, column 44: only epoch milliseconds"
                + " ('MILLISECONDS') are supported as the time unit (drop the argument, or write"
                + " 'MILLISECONDS')"),
        rejected(
            "SELECT dateTrunc('day', logical_timestamp, 'MILLISECONDS', 'America/New_York')"
                + " FROM obs.metrics LIMIT 1",
            SqlErrorKind.UNSUPPORTED,
            1,
            60,
            "Cannot use 'America/New_York' in dateTrunc at line 1, column 60: only the time zone"
                + " 'UTC' is supported (drop the argument, or write 'UTC')"),
        rejected(
            "SELECT NULL FROM obs.metrics LIMIT 1",
            SqlErrorKind.INVALID,
            1,
            8,
            "Cannot infer the type of NULL at line 1, column 8: it is not compared with or"
                + " combined with a typed value (use it in a comparison or write IS NULL)"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE (org_id = 1) IS TRUE",
            SqlErrorKind.UNSUPPORTED,
            1,
            40,
            "Cannot plan operator IS TRUE at line 1, column 40: this operator is not supported"),
        rejected(
            "SELECT org_id % 2 FROM obs.metrics LIMIT 1",
            SqlErrorKind.UNSUPPORTED,
            1,
            8,
            "Cannot plan operator % at line 1, column 8: this operator is not supported"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE metric SIMILAR TO 'x'",
            SqlErrorKind.UNSUPPORTED,
            1,
            40,
            "Cannot plan operator SIMILAR TO at line 1, column 40: this operator is not supported"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE org_id BETWEEN SYMMETRIC 5 AND 1",
            SqlErrorKind.UNSUPPORTED,
            1,
            40,
            "Cannot plan BETWEEN SYMMETRIC at line 1, column 40: only BETWEEN [ASYMMETRIC] is"
                + " supported (order the bounds low to high)"),
        rejected(
            "SELECT /*+ index(x) */ COUNT(*) FROM obs.metrics",
            SqlErrorKind.UNSUPPORTED,
            1,
            8,
            "Cannot plan query hint at line 1, column 8: hints are not supported (remove the /*+"
                + " ... */ comment)"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE metric LIKE metric",
            SqlErrorKind.UNSUPPORTED,
            1,
            52,
            "Cannot use metric as a LIKE pattern at line 1, column 52: the LIKE pattern must be a"
                + " string literal"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE metric LIKE 'x' ESCAPE 'ab'",
            SqlErrorKind.INVALID,
            1,
            63,
            "Cannot use 'ab' as a LIKE escape at line 1, column 63: ESCAPE takes exactly one"
                + " character (write ESCAPE '\\')"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics GROUP BY ()",
            SqlErrorKind.UNSUPPORTED,
            1,
            43,
            "Cannot plan grouping set at line 1, column 43: grouping sets are not supported (run"
                + " one query per grouping)"),
        rejected(
            "SELECT MIN(dimensions) FROM obs.metrics",
            SqlErrorKind.INVALID,
            1,
            12,
            "Cannot apply MIN to dimensions at line 1, column 12: it is MAP(STRING, STRING) (MIN"
                + " takes an orderable argument (a number, STRING, BOOLEAN, DATE or TIMESTAMP))"),
        rejected(
            "SELECT org_id FROM obs.metrics ORDER BY dimensions LIMIT 1",
            SqlErrorKind.INVALID,
            1,
            41,
            "Cannot order by dimensions at line 1, column 41: it is MAP(STRING, STRING), which has"
                + " no order"),
        rejected(
            "MERGE INTO obs.metrics t USING obs.metrics s ON t.org_id = s.org_id"
                + " WHEN MATCHED THEN UPDATE SET metric = 'x'",
            SqlErrorKind.UNSUPPORTED,
            1,
            1,
            "Cannot plan MERGE statement at line 1, column 1: " + SELECT_ONLY + " " + READ_ONLY),
        // Syntax errors.
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE",
            SqlErrorKind.SYNTAX,
            1,
            38,
            "Cannot parse SQL at line 1, column 38: the query ends too early"),
        rejected(
            "SELECT COUNT(*) FROM obs.metrics WHERE metric = 'x",
            SqlErrorKind.SYNTAX,
            1,
            49,
            "Cannot parse SQL at line 1, column 49: the string literal starting here is not closed"
                + " (end it with ' and write '' for a quote inside it)"),
        rejected(
            "SELECT metric\nFROM FROM obs.metrics",
            SqlErrorKind.SYNTAX,
            2,
            6,
            "Cannot parse SQL at line 2, column 6: Incorrect syntax near the keyword 'FROM'"),
        rejected(
            "SELECT a b c FROM t",
            SqlErrorKind.SYNTAX,
            1,
            12,
            "Cannot parse SQL at line 1, column 12: Encountered \"c\""));
  }

  private static Arguments rejected(
      String sql, SqlErrorKind kind, int line, int column, String message) {
    return Arguments.of(sql, kind, new SqlPosition(line, column), message);
  }

  @ParameterizedTest
  @MethodSource("rejections")
  void rejected(String sql, SqlErrorKind kind, SqlPosition position, String message) {
    SqlException error = catchThrowableOfType(SqlException.class, () -> planner().plan(sql));

    assertThat(error).as(sql).isNotNull();
    assertThat(error.getMessage()).isEqualTo(message);
    assertThat(error.kind()).isEqualTo(kind);
    assertThat(error.position()).contains(position);
  }

  @org.junit.jupiter.api.Test
  void emptyQuery() {
    assertThatThrownBy(() -> planner().plan("  "))
        .isInstanceOf(SqlException.class)
        .hasMessage("Cannot parse SQL: the query is empty (send one SELECT)");
  }

  @org.junit.jupiter.api.Test
  void parseErrorsKeepCalciteOnlyAsTheCause() {
    SqlException error =
        catchThrowableOfType(SqlException.class, () -> planner().plan("SELECT FROM WHERE"));

    assertThat(error.getMessage()).doesNotContain("calcite").doesNotContain("Was expecting");
    assertThat(error.getCause()).isNotNull();
  }
}
