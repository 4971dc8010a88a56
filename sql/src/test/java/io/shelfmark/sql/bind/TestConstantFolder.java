package io.shelfmark.sql.bind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.sql.expression.ArithmeticOperator;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.PrimitiveType;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class TestConstantFolder {
  @Test
  void integerOverflowIsAnError() {
    assertThatThrownBy(
            () ->
                ConstantFolder.arithmetic(
                    ArithmeticOperator.ADD,
                    Literal.ofInt(Integer.MAX_VALUE),
                    Literal.ofInt(1),
                    PrimitiveType.INT))
        .isInstanceOf(ArithmeticException.class);
    assertThatThrownBy(() -> ConstantFolder.negate(Literal.ofLong(Long.MIN_VALUE)))
        .isInstanceOf(ArithmeticException.class);
  }

  @Test
  void decimalIsExactAndBounded() {
    DecimalType type = new DecimalType(4, 2);
    assertThat(
            ConstantFolder.arithmetic(
                ArithmeticOperator.ADD,
                new Literal(new BigDecimal("0.1"), new DecimalType(2, 1)),
                new Literal(new BigDecimal("0.25"), new DecimalType(3, 2)),
                type))
        .isEqualTo(new Literal(new BigDecimal("0.35"), type));
    assertThatThrownBy(
            () ->
                ConstantFolder.arithmetic(
                    ArithmeticOperator.MULTIPLY,
                    new Literal(new BigDecimal("99.9"), new DecimalType(3, 1)),
                    new Literal(new BigDecimal("99.9"), new DecimalType(3, 1)),
                    new DecimalType(3, 2)))
        .isInstanceOf(ArithmeticException.class)
        .hasMessage("the result 9980.01 does not fit DECIMAL(3,2)");
  }

  @Test
  void divisionIsIeeeDouble() {
    assertThat(
            ConstantFolder.arithmetic(
                ArithmeticOperator.DIVIDE,
                Literal.ofInt(1),
                Literal.ofInt(0),
                PrimitiveType.DOUBLE))
        .isEqualTo(Literal.ofDouble(Double.POSITIVE_INFINITY));
    assertThat(
            ConstantFolder.arithmetic(
                ArithmeticOperator.DIVIDE,
                Literal.ofInt(5),
                Literal.ofInt(2),
                PrimitiveType.DOUBLE))
        .isEqualTo(Literal.ofDouble(2.5));
  }

  @Test
  void nullPropagates() {
    assertThat(
            ConstantFolder.arithmetic(
                ArithmeticOperator.ADD,
                Literal.nullOf(PrimitiveType.LONG),
                Literal.ofLong(1),
                PrimitiveType.LONG))
        .isEqualTo(Literal.nullOf(PrimitiveType.LONG));
  }
}
