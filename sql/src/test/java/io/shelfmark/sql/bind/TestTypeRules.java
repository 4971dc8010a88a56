package io.shelfmark.sql.bind;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.sql.expression.ArithmeticOperator;
import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.MapType;
import io.shelfmark.sql.type.PrimitiveType;
import org.junit.jupiter.api.Test;

class TestTypeRules {
  @Test
  void commonTypes() {
    assertThat(TypeRules.common(PrimitiveType.INT, PrimitiveType.LONG))
        .contains(PrimitiveType.LONG);
    assertThat(TypeRules.common(PrimitiveType.LONG, new DecimalType(10, 2)))
        .contains(new DecimalType(21, 2));
    assertThat(TypeRules.common(new DecimalType(38, 0), new DecimalType(10, 5)))
        .contains(PrimitiveType.DOUBLE);
    assertThat(TypeRules.common(PrimitiveType.FLOAT, PrimitiveType.INT))
        .contains(PrimitiveType.DOUBLE);
    assertThat(TypeRules.common(PrimitiveType.DATE, PrimitiveType.TIMESTAMP_TZ))
        .contains(PrimitiveType.TIMESTAMP_TZ);
    assertThat(TypeRules.common(PrimitiveType.STRING, PrimitiveType.INT)).isEmpty();
    assertThat(TypeRules.common(PrimitiveType.BOOLEAN, PrimitiveType.INT)).isEmpty();
    assertThat(
            TypeRules.common(
                new MapType(PrimitiveType.STRING, PrimitiveType.INT), PrimitiveType.INT))
        .isEmpty();
  }

  @Test
  void arithmeticTypes() {
    assertThat(TypeRules.arithmetic(ArithmeticOperator.ADD, PrimitiveType.INT, PrimitiveType.INT))
        .isEqualTo(PrimitiveType.INT);
    assertThat(
            TypeRules.arithmetic(
                ArithmeticOperator.MULTIPLY, new DecimalType(20, 10), new DecimalType(20, 10)))
        .isEqualTo(new DecimalType(38, 20));
    assertThat(
            TypeRules.arithmetic(
                ArithmeticOperator.MULTIPLY, new DecimalType(30, 20), new DecimalType(30, 20)))
        .isEqualTo(PrimitiveType.DOUBLE);
    assertThat(
            TypeRules.arithmetic(
                ArithmeticOperator.SUBTRACT, new DecimalType(38, 2), new DecimalType(38, 2)))
        .isEqualTo(new DecimalType(38, 2));
    assertThat(
            TypeRules.arithmetic(ArithmeticOperator.DIVIDE, PrimitiveType.INT, PrimitiveType.INT))
        .isEqualTo(PrimitiveType.DOUBLE);
  }
}
