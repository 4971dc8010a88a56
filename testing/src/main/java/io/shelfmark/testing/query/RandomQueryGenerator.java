package io.shelfmark.testing.query;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A seeded generator of SQL over one table, in the dialect Shelfmark and DuckDB both accept, for
 * differential tests: run {@link GeneratedQuery#shelfmarkSql()} on Shelfmark, {@link
 * GeneratedQuery#duckDbSql()} on the {@code DuckDbOracle}, and compare with {@code
 * ResultComparison} using {@link GeneratedQuery#ordered()} and {@link
 * GeneratedQuery#approximateColumns()}.
 *
 * <p>Shapes: 2% select literals without FROM; 6% are {@code SELECT DISTINCT term, ... [WHERE] ORDER
 * BY <all outputs> LIMIT n}; 22% are plain {@code SELECT term, ... [WHERE] ORDER BY <all outputs>
 * LIMIT n [OFFSET m]}; the rest aggregate ({@code COUNT(*)}, {@code COUNT(term)}, {@code SUM},
 * {@code AVG}, {@code MIN}, {@code MAX} over numeric columns, {@code COUNT(DISTINCT term)}, and
 * {@code DISTINCTCOUNTHLL} on the Shelfmark side only) over 0–2 grouping keys (columns, map keys,
 * {@code dateTrunc} of epoch-millis columns, {@code date_trunc} of timestamps), sometimes with
 * {@code HAVING} and {@code ORDER BY}, and {@code LIMIT}/{@code OFFSET} only after an {@code ORDER
 * BY} that is total. WHERE trees come from {@code PredicateGenerator} with literals from the {@link
 * ValueDomain}.
 *
 * <p>Determinism: {@code ORDER BY} gives every item an explicit {@code NULLS FIRST}/{@code LAST}
 * when the output can be null (the dialects' default null orders differ). An ORDER BY is total when
 * it lists every grouping key (keys are unique per group) or, for plain selects, every output
 * column (rows equal in all of them are indistinguishable). Ordering first by a double aggregate
 * can still, very rarely, swap two groups whose values differ only in the last bits between
 * engines.
 *
 * <p>Not thread-safe: one generator per thread.
 */
public final class RandomQueryGenerator {
  /**
   * The relative tolerance marked on {@code DISTINCTCOUNTHLL} columns (HLL with log2m 8: ~6.5% σ).
   */
  public static final double HLL_TOLERANCE = 0.2;

  private static final String[] MILLIS_UNITS = {"second", "minute", "hour", "day"};
  private static final String[] TIMESTAMP_UNITS = {"minute", "hour", "day"};
  private static final String[] GRAIN_UNITS = {
    "second", "minute", "hour", "day", "week", "month", "quarter", "year"
  };
  private static final long[] ROUND_MILLIS = {300_000L, 600_000L, 900_000L, 1_800_000L};
  private static final String[] CONVERT_UNITS = {"MILLISECONDS", "SECONDS", "MINUTES", "HOURS"};
  private static final long[] CONVERT_UNIT_MILLIS = {1L, 1_000L, 60_000L, 3_600_000L};
  private static final int[] CONVERT_COUNTS = {1, 5, 15, 30, 250};

  private final TableDescription table;
  private final ValueDomain domain;
  private final Random random;
  private final List<Term> terms;
  private final List<Term> groupTerms;
  private final List<Term> numericTerms;
  private final List<Column> timeColumns;
  private final PredicateGenerator predicates;

  public RandomQueryGenerator(TableDescription table, ValueDomain domain, long seed) {
    this.table = requireNonNull(table, "table is null");
    this.domain = requireNonNull(domain, "domain is null");
    this.random = new Random(seed);
    this.terms = terms(table);
    this.groupTerms = new ArrayList<>();
    this.numericTerms = new ArrayList<>();
    for (Term term : terms) {
      if (term.kind() != ColumnKind.DOUBLE && term.kind() != ColumnKind.TIMESTAMP) {
        groupTerms.add(term);
      }
      if (term.kind().numeric()) {
        numericTerms.add(term);
      }
    }
    this.timeColumns = new ArrayList<>();
    for (Column column : table.columns()) {
      if (column.epochMillis() || column.kind() == ColumnKind.TIMESTAMP) {
        timeColumns.add(column);
      }
    }
    this.predicates = new PredicateGenerator(terms, domain, random);
  }

  /** The next query. */
  public GeneratedQuery next() {
    int roll = random.nextInt(100);
    if (roll < 2) {
      return constantSelect();
    }
    if (roll < 8) {
      return distinctSelect();
    }
    return roll < 30 ? plainSelect() : aggregation();
  }

  /** {@code SELECT <literal> AS c0, ...} without FROM; the literals come from the data. */
  private GeneratedQuery constantSelect() {
    Set<Construct> used = EnumSet.of(Construct.SELECT_WITHOUT_FROM);
    if (random.nextBoolean()) {
      return dateTimeText(used);
    }
    StringBuilder sql = new StringBuilder("SELECT ");
    int count = 1 + random.nextInt(3);
    for (int i = 0; i < count; i++) {
      String literal = Integer.toString(random.nextInt(1000));
      Term term = terms.get(random.nextInt(terms.size()));
      List<Object> values = domain.values(term.name());
      if (random.nextBoolean() && !values.isEmpty()) {
        Object value = values.get(random.nextInt(values.size()));
        if (!(value instanceof Double)) {
          literal = QuerySql.literal(value);
        }
      }
      sql.append(i > 0 ? ", " : "").append(literal).append(" AS c").append(i);
    }
    return new GeneratedQuery(sql.toString(), sql.toString(), true, used, Map.of());
  }

  /**
   * Pinot's {@code ToDateTime} and {@code FromDateTime} of a literal time between 1970 and 2100,
   * against DuckDB's {@code strftime} and {@code strptime}.
   */
  private GeneratedQuery dateTimeText(Set<Construct> used) {
    used.add(Construct.DATE_TIME_TEXT);
    long millis = (long) (random.nextDouble() * 4_102_444_800_000L);
    String text =
        java.time.Instant.ofEpochMilli(millis)
            .atOffset(java.time.ZoneOffset.UTC)
            .format(
                java.time.format.DateTimeFormatter.ofPattern(
                    "yyyy-MM-dd HH:mm:ss", java.util.Locale.ROOT));
    String shelfmark =
        "SELECT ToDateTime("
            + millis
            + ", 'yyyy-MM-dd HH:mm:ss') AS c0, FromDateTime('"
            + text
            + "', 'yyyy-MM-dd HH:mm:ss') AS c1";
    String duckDb =
        "SELECT strftime(make_timestamp("
            + millis
            + " * 1000), '%Y-%m-%d %H:%M:%S') AS c0, epoch_ms(strptime('"
            + text
            + "', '%Y-%m-%d %H:%M:%S')) AS c1";
    return new GeneratedQuery(shelfmark, duckDb, true, used, Map.of());
  }

  /**
   * {@code SELECT DISTINCT} of one or two groupable terms, ordered by all of them: the query behind
   * a dashboard's variable or filter drop-down.
   */
  private GeneratedQuery distinctSelect() {
    Set<Construct> used = EnumSet.of(Construct.SELECT_DISTINCT);
    List<Term> chosen = distinctTerms(groupTerms, 1 + random.nextInt(2));
    List<Output> outputs = new ArrayList<>();
    for (int i = 0; i < chosen.size(); i++) {
      Term term = chosen.get(i);
      outputs.add(new Output("c" + i, term.sql(), term.sql(), domain.hasNulls(term.name())));
    }
    String where = random.nextInt(100) < 60 ? " WHERE " + predicates.predicate(used) : "";
    String tail = orderBy(outputs, false, used) + limit(used, 30);
    GeneratedQuery query = build(outputs, where, "", "", tail, true, used, Map.of());
    return new GeneratedQuery(
        query.shelfmarkSql().replaceFirst("^SELECT ", "SELECT DISTINCT "),
        query.duckDbSql().replaceFirst("^SELECT ", "SELECT DISTINCT "),
        true,
        used,
        Map.of());
  }

  /** The next {@code count} queries. */
  public List<GeneratedQuery> next(int count) {
    List<GeneratedQuery> queries = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      queries.add(next());
    }
    return queries;
  }

  private GeneratedQuery plainSelect() {
    Set<Construct> used = EnumSet.of(Construct.PLAIN_SELECT);
    List<Term> chosen = distinctTerms(terms, 1 + random.nextInt(3));
    List<Output> outputs = new ArrayList<>();
    for (int i = 0; i < chosen.size(); i++) {
      Term term = chosen.get(i);
      boolean nullable = domain.hasNulls(term.name());
      if (term.column().epochMillis() && !term.mapKey() && random.nextInt(100) < 40) {
        outputs.add(epochFunction("c" + i, term.sql(), nullable, used));
        continue;
      }
      String sql = random.nextInt(100) < 20 ? cast(term, used) : term.sql();
      outputs.add(new Output("c" + i, sql, sql, nullable));
    }
    String where = random.nextInt(100) < 80 ? " WHERE " + predicates.predicate(used) : "";
    String tail = orderBy(outputs, false, used) + limit(used, 50);
    return build(outputs, where, "", "", tail, true, used, Map.of());
  }

  private GeneratedQuery aggregation() {
    Set<Construct> used = EnumSet.noneOf(Construct.class);
    int keyCount = random.nextInt(100) < 25 ? 0 : random.nextInt(100) < 60 ? 1 : 2;
    List<Output> outputs = new ArrayList<>();
    for (int i = 0; i < keyCount; i++) {
      outputs.add(groupKey("k" + i, used));
    }
    if (keyCount == 0) {
      used.add(Construct.GLOBAL_AGGREGATION);
    } else if (keyCount == 2) {
      used.add(Construct.GROUP_BY_TWO_KEYS);
    }
    Map<Integer, Double> approximate = new HashMap<>();
    int aggregates = 1 + random.nextInt(3);
    List<Aggregate> chosen = new ArrayList<>();
    for (int i = 0; i < aggregates; i++) {
      Aggregate aggregate = aggregate(used);
      chosen.add(aggregate);
      if (aggregate.approximate) {
        approximate.put(outputs.size(), HLL_TOLERANCE);
      }
      outputs.add(aggregate.output("a" + i));
    }
    String where = random.nextInt(100) < 80 ? " WHERE " + predicates.predicate(used) : "";
    String groupBy = keyCount == 0 ? "" : " GROUP BY ";
    String groupByDuck = groupBy;
    for (int i = 0; i < keyCount; i++) {
      groupBy += (i > 0 ? ", " : "") + outputs.get(i).shelfmarkSql;
      groupByDuck += (i > 0 ? ", " : "") + outputs.get(i).duckDbSql;
    }
    String having = keyCount > 0 && random.nextInt(100) < 25 ? having(chosen, used) : "";
    String tail = "";
    boolean ordered = keyCount == 0;
    if (keyCount > 0 && random.nextInt(100) < 70) {
      List<Output> sortable = new ArrayList<>();
      for (int i = 0; i < outputs.size(); i++) {
        if (!approximate.containsKey(i)) {
          sortable.add(outputs.get(i));
        }
      }
      tail = orderBy(sortable, true, used);
      ordered = tail.contains("ORDER BY") && coversKeys(tail, keyCount);
      if (ordered) {
        tail += limit(used, 20);
      }
    }
    return build(
        outputs, where, groupBy + having, groupByDuck + having, tail, ordered, used, approximate);
  }

  /** Pinot's epoch conversion of epoch millis, against DuckDB's integer division. */
  private Output epochFunction(String alias, String millis, boolean nullable, Set<Construct> used) {
    used.add(Construct.EPOCH_FUNCTION);
    int unit = 1 + random.nextInt(4);
    String name = new String[] {"", "Seconds", "Minutes", "Hours", "Days"}[unit];
    long width = new long[] {0, 1_000L, 60_000L, 3_600_000L, 86_400_000L}[unit];
    int count = 1 + random.nextInt(15);
    return switch (random.nextInt(4)) {
      case 0 ->
          new Output(
              alias, "ToEpoch" + name + "(" + millis + ")", millis + " // " + width, nullable);
      case 1 ->
          new Output(
              alias,
              "ToEpoch" + name + "Rounded(" + millis + ", " + count + ")",
              "(" + millis + " // " + (width * count) + ") * " + count,
              nullable);
      case 2 ->
          new Output(
              alias,
              "ToEpoch" + name + "Bucket(" + millis + ", " + count + ")",
              millis + " // " + (width * count),
              nullable);
      default ->
          new Output(
              alias,
              "FromEpoch" + name + "(ToEpoch" + name + "(" + millis + "))",
              "(" + millis + " // " + width + ") * " + width,
              nullable);
    };
  }

  /** An explicit CAST both dialects answer alike, or the term itself when there is none. */
  private String cast(Term term, Set<Construct> used) {
    String target =
        switch (term.kind()) {
          case INT -> random.nextBoolean() ? "BIGINT" : "DOUBLE";
          case LONG -> random.nextBoolean() ? "DOUBLE" : "DECIMAL(38, 2)";
          case DATE -> "TIMESTAMP";
          case TIMESTAMP -> "TIMESTAMP";
          case STRING, BOOLEAN, DOUBLE -> null;
          default -> null;
        };
    if (target == null || term.mapKey()) {
      return term.sql();
    }
    used.add(Construct.CAST);
    return "CAST(" + term.sql() + " AS " + target + ")";
  }

  private Output groupKey(String alias, Set<Construct> used) {
    int roll = random.nextInt(100);
    if (!timeColumns.isEmpty() && roll < 25 && random.nextBoolean()) {
      return dashboardTimeKey(alias, used);
    }
    if (!timeColumns.isEmpty() && roll < 25) {
      used.add(Construct.GROUP_BY_DATE_TRUNC);
      Column column = timeColumns.get(random.nextInt(timeColumns.size()));
      String name = QuerySql.identifier(column.name());
      boolean nullable = domain.hasNulls(column.name());
      if (column.epochMillis()) {
        String unit = MILLIS_UNITS[random.nextInt(MILLIS_UNITS.length)];
        return new Output(
            alias,
            "dateTrunc('" + unit + "', " + name + ")",
            "epoch_ms(date_trunc('" + unit + "', make_timestamp(" + name + " * 1000)))",
            nullable);
      }
      String unit = TIMESTAMP_UNITS[random.nextInt(TIMESTAMP_UNITS.length)];
      String sql = "date_trunc('" + unit + "', " + name + ")";
      return new Output(alias, sql, sql, nullable);
    }
    Term term = groupTerms.get(random.nextInt(groupTerms.size()));
    used.add(term.mapKey() ? Construct.GROUP_BY_MAP_KEY : Construct.GROUP_BY_COLUMN);
    return new Output(alias, term.sql(), term.sql(), domain.hasNulls(term.name()));
  }

  /**
   * A time bucket as dashboards write it: Superset's grains over a timestamp or epoch millis, and
   * Grafana's DATETIMECONVERT over epoch millis. DuckDB gets the same bucket in its own terms
   * ({@code make_timestamp(micros)}, integer division); it has no BIGINT-to-TIMESTAMP cast.
   */
  private Output dashboardTimeKey(String alias, Set<Construct> used) {
    Column column = timeColumns.get(random.nextInt(timeColumns.size()));
    String name = QuerySql.identifier(column.name());
    boolean nullable = domain.hasNulls(column.name());
    String duckTimestamp =
        column.epochMillis()
            ? "make_timestamp(" + name + " * 1000)"
            : "CAST(" + name + " AS TIMESTAMP)";
    String duckMicros = column.epochMillis() ? name + " * 1000" : "epoch_us(" + name + ")";
    int roll = random.nextInt(3);
    if (roll == 0 && column.epochMillis()) {
      used.add(Construct.GROUP_BY_DATETIMECONVERT);
      int unit = random.nextInt(CONVERT_UNITS.length);
      int count = CONVERT_COUNTS[random.nextInt(CONVERT_COUNTS.length)];
      long width = count * CONVERT_UNIT_MILLIS[unit];
      return new Output(
          alias,
          "DATETIMECONVERT("
              + name
              + ", '1:MILLISECONDS:EPOCH', '1:MILLISECONDS:EPOCH', '"
              + count
              + ":"
              + CONVERT_UNITS[unit]
              + "')",
          "(" + name + " // " + width + ") * " + width,
          nullable);
    }
    if (roll == 1) {
      used.add(Construct.GROUP_BY_SUPERSET_ROUND_GRAIN);
      long width = ROUND_MILLIS[random.nextInt(ROUND_MILLIS.length)];
      long micros = width * 1000;
      return new Output(
          alias,
          "CAST(ROUND(DATE_TRUNC('minute', CAST("
              + name
              + " AS TIMESTAMP)), "
              + width
              + ") AS TIMESTAMP)",
          "make_timestamp((" + duckMicros + " // " + micros + ") * " + micros + ")",
          nullable);
    }
    used.add(Construct.GROUP_BY_SUPERSET_TIME_GRAIN);
    String unit = GRAIN_UNITS[random.nextInt(GRAIN_UNITS.length)];
    return new Output(
        alias,
        "CAST(DATE_TRUNC('" + unit + "', CAST(" + name + " AS TIMESTAMP)) AS TIMESTAMP)",
        "CAST(DATE_TRUNC('" + unit + "', " + duckTimestamp + ") AS TIMESTAMP)",
        nullable);
  }

  private Aggregate aggregate(Set<Construct> used) {
    int roll = random.nextInt(100);
    Term any = terms.get(random.nextInt(terms.size()));
    if (roll < 20 || (roll >= 55 && numericTerms.isEmpty())) {
      used.add(Construct.COUNT_STAR);
      return new Aggregate("COUNT(*)", "COUNT(*)", null, false, false);
    }
    if (roll < 32) {
      used.add(Construct.COUNT_COLUMN);
      return new Aggregate(
          "COUNT(" + any.sql() + ")", "COUNT(" + any.sql() + ")", any, false, false);
    }
    if (roll < 45) {
      used.add(Construct.COUNT_DISTINCT);
      String sql = "COUNT(DISTINCT " + any.sql() + ")";
      return new Aggregate(sql, sql, any, false, false);
    }
    if (roll < 55) {
      used.add(Construct.DISTINCT_COUNT_HLL);
      return new Aggregate(
          "DISTINCTCOUNTHLL(" + any.sql() + ")",
          "COUNT(DISTINCT " + any.sql() + ")",
          any,
          false,
          true);
    }
    Term numeric = numericTerms.get(random.nextInt(numericTerms.size()));
    Construct function =
        new Construct[] {Construct.SUM, Construct.AVG, Construct.MIN, Construct.MAX}
            [random.nextInt(4)];
    used.add(function);
    String sql = function.name() + "(" + numeric.sql() + ")";
    return new Aggregate(sql, sql, numeric, domain.hasNulls(numeric.name()), false);
  }

  private String having(List<Aggregate> aggregates, Set<Construct> used) {
    List<Aggregate> exact = new ArrayList<>();
    for (Aggregate aggregate : aggregates) {
      if (!aggregate.approximate) {
        exact.add(aggregate);
      }
    }
    if (exact.isEmpty()) {
      return "";
    }
    used.add(Construct.HAVING);
    Aggregate aggregate = exact.get(random.nextInt(exact.size()));
    String bound;
    if (aggregate.shelfmarkSql.startsWith("COUNT") || aggregate.term == null) {
      bound = Integer.toString(1 + random.nextInt(3));
    } else {
      List<Object> values = domain.values(aggregate.term.name());
      bound = values.isEmpty() ? "0" : QuerySql.literal(values.get(random.nextInt(values.size())));
    }
    return " HAVING " + aggregate.shelfmarkSql + (random.nextBoolean() ? " >= " : " <= ") + bound;
  }

  /**
   * ORDER BY over a random arrangement of the sortable outputs: all of them, or, when {@code
   * allowPartial}, sometimes (30%) a random part of them.
   */
  private String orderBy(List<Output> sortable, boolean allowPartial, Set<Construct> used) {
    List<Output> items = new ArrayList<>(sortable);
    Collections.shuffle(items, random);
    if (allowPartial && random.nextInt(100) >= 70 && items.size() > 1) {
      items = items.subList(0, 1 + random.nextInt(items.size() - 1));
    }
    StringBuilder text = new StringBuilder(" ORDER BY ");
    for (int i = 0; i < items.size(); i++) {
      Output output = items.get(i);
      text.append(i > 0 ? ", " : "").append(output.alias);
      boolean descending = random.nextBoolean();
      used.add(descending ? Construct.ORDER_BY_DESC : Construct.ORDER_BY_ASC);
      if (descending) {
        text.append(" DESC");
      } else if (random.nextBoolean()) {
        text.append(" ASC");
      }
      if (output.nullable || random.nextBoolean()) {
        boolean first = random.nextBoolean();
        used.add(first ? Construct.NULLS_FIRST : Construct.NULLS_LAST);
        text.append(first ? " NULLS FIRST" : " NULLS LAST");
      }
    }
    return text.toString();
  }

  private static boolean coversKeys(String orderBy, int keyCount) {
    for (int i = 0; i < keyCount; i++) {
      if (!orderBy.matches(".*\\bk" + i + "\\b.*")) {
        return false;
      }
    }
    return true;
  }

  private String limit(Set<Construct> used, int maxLimit) {
    if (random.nextInt(100) < 40
        && !used.contains(Construct.PLAIN_SELECT)
        && !used.contains(Construct.SELECT_DISTINCT)) {
      return "";
    }
    used.add(Construct.LIMIT);
    String text = " LIMIT " + (1 + random.nextInt(maxLimit));
    if (random.nextInt(100) < 35) {
      used.add(Construct.OFFSET);
      text += " OFFSET " + (1 + random.nextInt(5));
    }
    return text;
  }

  private GeneratedQuery build(
      List<Output> outputs,
      String where,
      String groupShelfmark,
      String groupDuckDb,
      String tail,
      boolean ordered,
      Set<Construct> used,
      Map<Integer, Double> approximate) {
    StringBuilder shelfmark = new StringBuilder("SELECT ");
    StringBuilder duckDb = new StringBuilder("SELECT ");
    for (int i = 0; i < outputs.size(); i++) {
      Output output = outputs.get(i);
      String separator = i > 0 ? ", " : "";
      shelfmark.append(separator).append(output.shelfmarkSql).append(" AS ").append(output.alias);
      duckDb.append(separator).append(output.duckDbSql).append(" AS ").append(output.alias);
    }
    String from = " FROM " + table.name() + where;
    shelfmark.append(from).append(groupShelfmark).append(tail);
    duckDb.append(from).append(groupDuckDb).append(tail);
    return new GeneratedQuery(shelfmark.toString(), duckDb.toString(), ordered, used, approximate);
  }

  private List<Term> distinctTerms(List<Term> from, int count) {
    List<Term> shuffled = new ArrayList<>(from);
    Collections.shuffle(shuffled, random);
    return shuffled.subList(0, Math.min(count, shuffled.size()));
  }

  private static List<Term> terms(TableDescription table) {
    List<Term> terms = new ArrayList<>();
    for (Column column : table.columns()) {
      if (column.kind() == ColumnKind.MAP) {
        for (String key : column.mapKeys()) {
          terms.add(
              new Term(
                  QuerySql.mapTerm(column.name(), key),
                  ColumnKind.STRING,
                  QuerySql.mapAccess(column.name(), key),
                  column,
                  true));
        }
      } else {
        terms.add(
            new Term(
                column.name(), column.kind(), QuerySql.identifier(column.name()), column, false));
      }
    }
    return List.copyOf(terms);
  }

  /** One output column in both dialects. */
  private record Output(String alias, String shelfmarkSql, String duckDbSql, boolean nullable) {}

  /** One aggregate in both dialects; {@code term} is null for COUNT(*). */
  private record Aggregate(
      String shelfmarkSql, String duckDbSql, Term term, boolean nullable, boolean approximate) {
    Output output(String alias) {
      return new Output(alias, shelfmarkSql, duckDbSql, nullable);
    }
  }
}
