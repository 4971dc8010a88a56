package io.shelfmark.sql.expression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.MapType;
import io.shelfmark.sql.type.PrimitiveType;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class TestLiteral {
  @Test
  void valuesMustMatchTheirType() {
    assertThatThrownBy(() -> new Literal(1, PrimitiveType.LONG))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("value 1 (Integer) is not a LONG literal");
    assertThatThrownBy(() -> new Literal(new BigDecimal("1.5"), new DecimalType(10, 2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("value 1.5 (BigDecimal) is not a DECIMAL(10,2) literal");
    assertThatThrownBy(() -> new Literal(new BigDecimal("123.00"), new DecimalType(4, 2)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(Literal.nullOf(new MapType(PrimitiveType.STRING, PrimitiveType.LONG)).isNull())
        .isTrue();
  }

  @Test
  void rendering() {
    assertThat(Literal.ofString("it's").toString()).isEqualTo("'it''s'");
    assertThat(new Literal(20303, PrimitiveType.DATE).toString()).isEqualTo("DATE '2025-08-03'");
    assertThat(new Literal(-1L, PrimitiveType.TIMESTAMP).toString())
        .isEqualTo("TIMESTAMP '1969-12-31 23:59:59.999999'");
    assertThat(new Literal(new BigDecimal("1.50"), new DecimalType(3, 2)).toString())
        .isEqualTo("1.50");
    assertThat(Literal.nullOf(PrimitiveType.INT).toString()).isEqualTo("NULL");
  }

  @Test
  void comparisonOperatorsNegateAndFlip() {
    for (ComparisonOperator operator : ComparisonOperator.values()) {
      assertThat(operator.negate().negate()).isEqualTo(operator);
      assertThat(operator.flip().flip()).isEqualTo(operator);
      for (int sign = -1; sign <= 1; sign++) {
        assertThat(operator.negate().test(sign)).isEqualTo(!operator.test(sign));
        assertThat(operator.flip().test(-sign)).isEqualTo(operator.test(sign));
      }
    }
  }
}
