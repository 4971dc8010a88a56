package io.shelfmark.sql.expression;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.type.SqlType;
import java.util.List;

/**
 * An implicit widening the binder inserted so both sides of a comparison or arithmetic have one
 * type: INT to LONG, an integral or DECIMAL to a wider DECIMAL, any number to FLOAT or DOUBLE, DATE
 * to TIMESTAMP (midnight). Every such cast is exact except to FLOAT/DOUBLE (nearest value). An
 * explicit {@code CAST} binds to these widenings too, and LONG to TIMESTAMP relabels the number as
 * epoch microseconds (the binder multiplies epoch milliseconds by 1000 first: Pinot's {@code
 * CAST(millis AS TIMESTAMP)}). Literals are cast at bind time and never appear under a Cast.
 */
public record Cast(Expression operand, SqlType type) implements Expression {
  public Cast {
    requireNonNull(operand, "operand is null");
    requireNonNull(type, "type is null");
    checkArgument(!operand.type().equals(type), "cast to the same type: %s", type);
  }

  @Override
  public List<Expression> children() {
    return List.of(operand);
  }

  @Override
  public String toString() {
    return "CAST(" + operand + " AS " + type.displayName() + ")";
  }
}
