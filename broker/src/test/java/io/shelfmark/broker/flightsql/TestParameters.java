package io.shelfmark.broker.flightsql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

class TestParameters {
  @Test
  void placeholdersInQuotesAndCommentsAreText() {
    String sql =
        "SELECT '?' AS q, \"a?\" FROM t -- why?\nWHERE x = ? /* and ? */ AND y = 'it''s ?' AND z = ?";
    assertThat(Parameters.count(sql)).isEqualTo(2);
    assertThat(Parameters.substitute(sql, List.of("1", "'b'")))
        .isEqualTo(
            "SELECT '?' AS q, \"a?\" FROM t -- why?\nWHERE x = 1 /* and ? */ AND y = 'it''s ?' AND z = 'b'");
  }

  @Test
  void quotesInTextAreDoubled() {
    assertThat(Parameters.quoted("x' OR 'a' = 'a")).isEqualTo("'x'' OR ''a'' = ''a'");
  }

  @Test
  void wrongParameterCountsAreRefused() {
    assertThatThrownBy(() -> Parameters.substitute("SELECT ? + ?", List.of("1")))
        .isInstanceOf(FlightRuntimeException.class)
        .hasMessageContaining("Cannot bind 1 parameters: the statement has 2 placeholders");
    assertThatThrownBy(() -> Parameters.substitute("SELECT ?", List.of("1", "2")))
        .isInstanceOf(FlightRuntimeException.class)
        .hasMessageContaining("Cannot bind 2 parameters: the statement has 1 placeholders");
  }

  @Test
  void valuesBecomeLiteralsOfTheirKind() {
    try (BufferAllocator allocator = new RootAllocator();
        BigIntVector number = new BigIntVector("n", allocator);
        VarCharVector text = new VarCharVector("s", allocator);
        Float8Vector real = new Float8Vector("d", allocator);
        TimeStampMicroVector time = new TimeStampMicroVector("t", allocator)) {
      number.allocateNew(2);
      number.set(0, 184833768L);
      number.setNull(1);
      text.allocateNew(2);
      text.set(0, "it's".getBytes(StandardCharsets.UTF_8));
      text.set(1, "x".getBytes(StandardCharsets.UTF_8));
      real.allocateNew(2);
      real.set(0, 0.5);
      real.set(1, 1e300);
      time.allocateNew(2);
      time.set(0, 1_754_229_600_000_001L);
      time.set(1, 0);
      try (VectorSchemaRoot root = VectorSchemaRoot.of(number, text, real, time)) {
        root.setRowCount(2);
        assertThat(Parameters.literals(root, 0))
            .containsExactly("184833768", "'it''s'", "0.5E0", "'2025-08-03 14:00:00.000001'");
        assertThat(Parameters.literals(root, 1))
            .containsExactly("NULL", "'x'", "1.0E300", "'1970-01-01 00:00:00.000000'");
      }
    }
  }
}
