package io.shelfmark.broker.prune;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Seeded random WHERE clauses that read the same in Shelfmark's SQL and DuckDB's: AND/OR/NOT over
 * comparisons, BETWEEN, [NOT] IN (sometimes with NULL), IS [NOT] NULL and [NOT] LIKE, with literals
 * drawn from values the data holds (plus a few just outside them), so filters select something and
 * ranges straddle file boundaries.
 */
final class PredicateWriter {
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS", Locale.ROOT);

  private final Map<String, List<Object>> values;
  private final List<String> terms;
  private final Random random;

  /**
   * @param values per term (a column or {@code map['key']}), values it holds; at least one each
   */
  PredicateWriter(Map<String, List<Object>> values, long seed) {
    this.values = values;
    this.terms = values.keySet().stream().sorted().toList();
    this.random = new Random(seed);
  }

  String next() {
    return predicate(0);
  }

  private String predicate(int depth) {
    if (depth < 2 && random.nextInt(100) < 40) {
      int choice = random.nextInt(10);
      if (choice < 2) {
        return "NOT (" + predicate(depth + 1) + ")";
      }
      String combinator = choice < 7 ? " AND " : " OR ";
      return "(" + predicate(depth + 1) + ")" + combinator + "(" + predicate(depth + 1) + ")";
    }
    return leaf();
  }

  private String leaf() {
    String term = terms.get(random.nextInt(terms.size()));
    List<Object> domain = values.get(term);
    Object value = domain.get(random.nextInt(domain.size()));
    int roll = random.nextInt(100);
    if (roll < 8) {
      return term + (random.nextBoolean() ? " IS NULL" : " IS NOT NULL");
    }
    if (value instanceof Boolean) {
      return term + (roll < 50 ? " = " : " <> ") + literal(value);
    }
    if (value instanceof String text && roll < 25) {
      int end = 1 + random.nextInt(text.length());
      String pattern = text.substring(0, Math.min(end, text.length())) + "%";
      return term + (roll < 20 ? " LIKE " : " NOT LIKE ") + literal(pattern);
    }
    String[] operators = {"=", "=", "<>", "<", "<=", ">", ">="};
    return switch (random.nextInt(10)) {
      case 0, 1 -> {
        Object other = domain.get(random.nextInt(domain.size()));
        boolean ordered = compare(value, other) <= 0;
        yield term
            + (random.nextInt(4) == 0 ? " NOT BETWEEN " : " BETWEEN ")
            + literal(ordered ? value : other)
            + " AND "
            + literal(ordered ? other : value);
      }
      case 2 -> term + " IN (" + literal(value) + ", " + literal(domain.getFirst()) + ")";
      case 3 -> term + " NOT IN (" + literal(value) + (random.nextInt(3) == 0 ? ", NULL)" : ")");
      default -> term + " " + operators[random.nextInt(operators.length)] + " " + literal(value);
    };
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Object a, Object b) {
    return ((Comparable) a).compareTo(b);
  }

  static String literal(Object value) {
    return switch (value) {
      case Long l -> Long.toString(l);
      case Double d -> BigDecimal.valueOf(d).toPlainString();
      case String s -> "'" + s.replace("'", "''") + "'";
      case Boolean b -> b ? "TRUE" : "FALSE";
      case LocalDate date -> "DATE '" + date + "'";
      case LocalDateTime time -> "TIMESTAMP '" + TIMESTAMP.format(time) + "'";
      default -> throw new IllegalArgumentException("Cannot write a literal of " + value);
    };
  }
}
