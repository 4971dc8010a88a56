package io.shelfmark.testing.query;

import static java.util.Objects.requireNonNull;

import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.QueryResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Values that really occur in the table, per column and per map key, so that generated predicates
 * match something. Values are in the oracle's normal form (Long, Double, String, Boolean,
 * LocalDate, LocalDateTime) and sorted, without nulls; {@link #hasNulls} says whether nulls occur
 * (a map key counts as null in rows that lack it).
 *
 * <p>Terms are named {@code column} or {@code column['key']}.
 */
public final class ValueDomain {
  private final Map<String, List<Object>> values;
  private final Set<String> nullable;

  private ValueDomain(Map<String, List<Object>> values, Set<String> nullable) {
    this.values = Map.copyOf(values);
    this.nullable = Set.copyOf(nullable);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Samples up to {@code maxValues} distinct values of every column and map key of a table
   * registered in the oracle under {@code table.name()}. The sample is deterministic: the distinct
   * values ordered by DuckDB's hash of them.
   */
  public static ValueDomain sample(DuckDbOracle oracle, TableDescription table, int maxValues) {
    requireNonNull(oracle, "oracle is null");
    requireNonNull(table, "table is null");
    if (maxValues < 1) {
      throw new IllegalArgumentException(
          "Cannot sample values: " + maxValues + " per column (expected 1 or more)");
    }
    Builder builder = builder();
    for (Column column : table.columns()) {
      if (column.kind() == ColumnKind.MAP) {
        for (String key : column.mapKeys()) {
          String term = QuerySql.mapTerm(column.name(), key);
          sampleTerm(
              oracle,
              table.name(),
              term,
              QuerySql.mapAccess(column.name(), key),
              maxValues,
              builder);
        }
      } else {
        sampleTerm(
            oracle,
            table.name(),
            column.name(),
            QuerySql.identifier(column.name()),
            maxValues,
            builder);
      }
    }
    return builder.build();
  }

  private static void sampleTerm(
      DuckDbOracle oracle,
      String table,
      String term,
      String expression,
      int maxValues,
      Builder builder) {
    QueryResult sample =
        oracle.query(
            "SELECT v FROM (SELECT DISTINCT "
                + expression
                + " AS v FROM "
                + table
                + " WHERE "
                + expression
                + " IS NOT NULL) ORDER BY hash(v), v LIMIT "
                + maxValues);
    List<Object> found = new ArrayList<>();
    for (List<Object> row : sample.rows()) {
      found.add(row.getFirst());
    }
    builder.values(term, found);
    QueryResult nulls =
        oracle.query("SELECT COUNT(*) FROM " + table + " WHERE " + expression + " IS NULL");
    if ((Long) nulls.rows().getFirst().getFirst() > 0) {
      builder.nullable(term);
    }
  }

  /** The sorted sample of a term's values; empty when none was found. */
  public List<Object> values(String term) {
    return values.getOrDefault(requireNonNull(term, "term is null"), List.of());
  }

  public boolean hasNulls(String term) {
    return nullable.contains(requireNonNull(term, "term is null"));
  }

  @Override
  public String toString() {
    return "ValueDomain{" + values.size() + " terms, nullable " + nullable + "}";
  }

  /** Builds a {@link ValueDomain} by hand (tests) or from a sample. */
  public static final class Builder {
    private final Map<String, List<Object>> values = new HashMap<>();
    private final Set<String> nullable = new HashSet<>();

    private Builder() {}

    /** The values of a term, any order, no nulls; each term once. */
    public Builder values(String term, List<?> termValues) {
      requireNonNull(term, "term is null");
      requireNonNull(termValues, "termValues is null");
      if (values.containsKey(term)) {
        throw new IllegalStateException(
            "Cannot set values of " + term + ": already set to " + values.get(term));
      }
      List<Object> sorted = new ArrayList<>(termValues.size());
      for (Object value : termValues) {
        sorted.add(requireNonNull(value, "value is null"));
      }
      sorted.sort(ValueDomain::compareValues);
      values.put(term, Collections.unmodifiableList(sorted));
      return this;
    }

    /** Marks a term as having nulls. */
    public Builder nullable(String term) {
      nullable.add(requireNonNull(term, "term is null"));
      return this;
    }

    public ValueDomain build() {
      return new ValueDomain(values, nullable);
    }
  }

  @SuppressWarnings("unchecked")
  static int compareValues(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return Double.compare(x.doubleValue(), y.doubleValue());
    }
    if (a.getClass() == b.getClass() && a instanceof Comparable<?>) {
      return ((Comparable<Object>) a).compareTo(b);
    }
    throw new IllegalArgumentException(
        "Cannot order values "
            + a
            + " and "
            + b
            + " of one term: types "
            + a.getClass().getSimpleName()
            + " and "
            + b.getClass().getSimpleName()
            + " differ");
  }
}
