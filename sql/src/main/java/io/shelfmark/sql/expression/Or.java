package io.shelfmark.sql.expression;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code t1 OR t2 OR ...} (two or more BOOLEAN terms): TRUE if any is TRUE, else NULL if any is
 * NULL, else FALSE.
 */
public record Or(List<Expression> terms) implements Expression {
  public Or {
    requireNonNull(terms, "terms is null");
    terms = ImmutableList.copyOf(terms);
    checkArgument(terms.size() >= 2, "OR needs two or more terms: %s", terms);
    for (Expression term : terms) {
      checkArgument(term.type() == PrimitiveType.BOOLEAN, "OR term is not BOOLEAN: %s", term);
    }
  }

  public static Or of(Expression... terms) {
    return new Or(List.of(terms));
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
    return terms.stream().map(Expression::toString).collect(Collectors.joining(" OR ", "(", ")"));
  }
}
