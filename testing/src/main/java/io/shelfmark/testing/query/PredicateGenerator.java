package io.shelfmark.testing.query;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Random WHERE trees (AND/OR/NOT over comparisons, BETWEEN, IN, NOT IN, IS [NOT] NULL, LIKE) with
 * literals drawn from the table's {@link ValueDomain}, so predicates select something. A predicate
 * reads the same in both dialects.
 */
final class PredicateGenerator {
  private static final int MAX_DEPTH = 2;
  private static final int MAX_IN_VALUES = 4;

  private final List<Term> terms;
  private final ValueDomain domain;
  private final Random random;

  PredicateGenerator(List<Term> terms, ValueDomain domain, Random random) {
    this.terms = terms;
    this.domain = domain;
    this.random = random;
  }

  /** A predicate tree; records what it used in {@code used}. */
  String predicate(Set<Construct> used) {
    return predicate(0, used);
  }

  private String predicate(int depth, Set<Construct> used) {
    if (depth < MAX_DEPTH && random.nextInt(100) < 35) {
      int choice = random.nextInt(100);
      if (choice < 20) {
        used.add(Construct.NOT);
        return "NOT (" + predicate(depth + 1, used) + ")";
      }
      Construct combinator = choice < 62 ? Construct.AND : Construct.OR;
      used.add(combinator);
      return "("
          + predicate(depth + 1, used)
          + ") "
          + combinator.name()
          + " ("
          + predicate(depth + 1, used)
          + ")";
    }
    return leaf(used);
  }

  private String leaf(Set<Construct> used) {
    Term term = terms.get(random.nextInt(terms.size()));
    if (term.mapKey()) {
      used.add(Construct.MAP_KEY_FILTER);
    }
    List<Object> values = domain.values(term.name());
    Construct operator = operator(term, values.isEmpty());
    used.add(operator);
    String sql = term.sql();
    return switch (operator) {
      case IS_NULL -> sql + " IS NULL";
      case IS_NOT_NULL -> sql + " IS NOT NULL";
      case EQUAL -> sql + " = " + pick(values);
      case NOT_EQUAL -> sql + " <> " + pick(values);
      case LESS_THAN -> sql + " < " + pick(values);
      case LESS_THAN_OR_EQUAL -> sql + " <= " + pick(values);
      case GREATER_THAN -> sql + " > " + pick(values);
      case GREATER_THAN_OR_EQUAL -> sql + " >= " + pick(values);
      case BETWEEN -> between(sql, values);
      case IN -> sql + " IN (" + inList(values) + ")";
      case NOT_IN -> sql + " NOT IN (" + inList(values) + ")";
      case LIKE -> sql + " LIKE " + QuerySql.string(likePattern((String) pickValue(values)));
      default -> throw new IllegalStateException("Cannot write predicate " + operator);
    };
  }

  private Construct operator(Term term, boolean noValues) {
    int roll = random.nextInt(100);
    if (noValues || roll < 8) {
      return random.nextBoolean() ? Construct.IS_NULL : Construct.IS_NOT_NULL;
    }
    if (term.kind() == ColumnKind.BOOLEAN) {
      return roll < 60 ? Construct.EQUAL : Construct.NOT_EQUAL;
    }
    if (term.kind() == ColumnKind.STRING && roll < 22) {
      return Construct.LIKE;
    }
    Construct[] choices = {
      Construct.EQUAL,
      Construct.EQUAL,
      Construct.NOT_EQUAL,
      Construct.LESS_THAN,
      Construct.LESS_THAN_OR_EQUAL,
      Construct.GREATER_THAN,
      Construct.GREATER_THAN_OR_EQUAL,
      Construct.BETWEEN,
      Construct.BETWEEN,
      Construct.IN,
      Construct.IN,
      Construct.NOT_IN
    };
    return choices[random.nextInt(choices.length)];
  }

  private String between(String sql, List<Object> values) {
    Object low = pickValue(values);
    Object high = pickValue(values);
    if (ValueDomain.compareValues(low, high) > 0) {
      Object swap = low;
      low = high;
      high = swap;
    }
    return sql + " BETWEEN " + QuerySql.literal(low) + " AND " + QuerySql.literal(high);
  }

  private String inList(List<Object> values) {
    int count = 1 + random.nextInt(Math.min(MAX_IN_VALUES, values.size()));
    List<Object> chosen = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      Object value = pickValue(values);
      if (!chosen.contains(value)) {
        chosen.add(value);
      }
    }
    StringBuilder list = new StringBuilder();
    for (Object value : chosen) {
      if (!list.isEmpty()) {
        list.append(", ");
      }
      list.append(QuerySql.literal(value));
    }
    return list.toString();
  }

  // A prefix, an infix or a one-character wildcard, all taken from a real value so they match it.
  private String likePattern(String value) {
    if (value.isEmpty()) {
      return "%";
    }
    int start = random.nextInt(value.length());
    int end = start + 1 + random.nextInt(value.length() - start);
    return switch (random.nextInt(3)) {
      case 0 -> value.substring(0, end) + "%";
      case 1 -> "%" + value.substring(start, end) + "%";
      default -> value.substring(0, start) + "_" + value.substring(start + 1);
    };
  }

  private String pick(List<Object> values) {
    return QuerySql.literal(pickValue(values));
  }

  private Object pickValue(List<Object> values) {
    return values.get(random.nextInt(values.size()));
  }
}
