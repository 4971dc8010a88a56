package io.shelfmark.sql.expression;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code value [NOT] IN (literal, ...)}, items cast to the value's type. {@code x IN (a, b)} is
 * {@code x = a OR x = b} in three-valued logic: TRUE if x equals an item; else NULL if x is NULL or
 * an item is NULL; else FALSE. NOT IN is the NOT of that, so {@code x NOT IN (1, NULL)} is never
 * TRUE.
 */
public record InList(Expression value, List<Literal> items, boolean negated) implements Expression {
  public InList {
    requireNonNull(value, "value is null");
    requireNonNull(items, "items is null");
    items = ImmutableList.copyOf(items);
    checkArgument(!items.isEmpty(), "IN list is empty");
    for (Literal item : items) {
      checkArgument(
          item.type().equals(value.type()),
          "IN item %s is not of the value's type %s",
          item,
          value.type());
    }
  }

  /** Whether an item is NULL (then the predicate is never FALSE for IN, never TRUE for NOT IN). */
  public boolean hasNullItem() {
    for (Literal item : items) {
      if (item.isNull()) {
        return true;
      }
    }
    return false;
  }

  @Override
  public SqlType type() {
    return PrimitiveType.BOOLEAN;
  }

  @Override
  public List<Expression> children() {
    return ImmutableList.<Expression>builder().add(value).addAll(items).build();
  }

  @Override
  public String toString() {
    return "("
        + value
        + (negated ? " NOT IN (" : " IN (")
        + items.stream().map(Literal::toString).collect(Collectors.joining(", "))
        + "))";
  }
}
