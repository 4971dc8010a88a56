package io.shelfmark.broker.flightsql;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.MapType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.util.JsonStringArrayList;
import org.junit.jupiter.api.Test;

class TestArrowValues {
  @Test
  void renderedValuesBecomeExactArrowValues() {
    List<SqlType> types =
        List.of(
            PrimitiveType.INT,
            new DecimalType(10, 2),
            PrimitiveType.DATE,
            PrimitiveType.TIMESTAMP_TZ,
            PrimitiveType.BINARY,
            new MapType(PrimitiveType.STRING, PrimitiveType.LONG));
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("a", 1L);
    map.put("b", null);
    List<Object> row =
        List.of(
            7L, new BigDecimal("12.50"), "2025-08-03", "2025-08-03 14:00:00.000001Z", "0aff", map);
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot root =
            VectorSchemaRoot.create(
                ArrowTypes.schema(List.of("i", "d", "day", "ts", "bin", "m"), types), allocator)) {
      assertThat(root.getSchema().getFields().get(3).getType())
          .isEqualTo(new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"));
      assertThat(root.getSchema().getFields().get(1).getType())
          .isEqualTo(new ArrowType.Decimal(10, 2, 128));
      root.allocateNew();
      for (int c = 0; c < types.size(); c++) {
        ArrowValues.set(root.getVector(c), 0, types.get(c), row.get(c));
        ArrowValues.set(root.getVector(c), 1, types.get(c), null);
      }
      root.setRowCount(2);
      assertThat(root.getVector(0).getObject(0)).isEqualTo(7);
      assertThat(root.getVector(1).getObject(0)).isEqualTo(new BigDecimal("12.50"));
      assertThat(root.getVector(2).getObject(0)).isEqualTo(20303);
      assertThat(root.getVector(3).getObject(0)).isEqualTo(1_754_229_600_000_001L);
      assertThat((byte[]) root.getVector(4).getObject(0)).containsExactly(0x0a, 0xff);
      JsonStringArrayList<?> entries = (JsonStringArrayList<?>) root.getVector(5).getObject(0);
      assertThat(entries).hasSize(2);
      assertThat(((Map<?, ?>) entries.get(0)).get("value")).isEqualTo(1L);
      for (int c = 0; c < types.size(); c++) {
        assertThat(root.getVector(c).isNull(1)).as(root.getVector(c).getName()).isTrue();
      }
    }
  }
}
