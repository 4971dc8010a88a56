package io.shelfmark.sql.expression;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code t1 AND t2 AND ...} (two or more BOOLEAN terms): FALSE if any is FALSE, else NULL if any is
 * NULL, else TRUE.
 */
public record And(List<Expression> terms) implements Expression {
  public And {
    requireNonNull(terms, "terms is null");
    terms = ImmutableList.copyOf(terms);
    checkArgument(terms.size() >= 2, "AND needs two or more terms: %s", terms);
    for (Expression term : terms) {
      checkArgument(term.type() == PrimitiveType.BOOLEAN, "AND term is not BOOLEAN: %s", term);
    }
  }

  public static And of(Expression... terms) {
    return new And(List.of(terms));
  }

  @Override
  public SqlType type() {
    return PrimitiveType.BOOLEAN;
  }

  @Override
  public List<Expression> children() {
    return terms;
  }

  @Override
  public String toString() {
    return terms.stream().map(Expression::toString).collect(Collectors.joining(" AND ", "(", ")"));
  }
}
