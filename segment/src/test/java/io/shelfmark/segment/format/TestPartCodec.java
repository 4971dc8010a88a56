package io.shelfmark.segment.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class TestPartCodec {
  @Test
  void testRoundTripOfEveryPrimitive() throws CorruptSegmentException {
    PartWriter out = new PartWriter(1);
    long[] varints = {0, 1, 127, 128, 16383, 16384, Integer.MAX_VALUE, Long.MAX_VALUE, -1L};
    for (long value : varints) {
      out.putVarLong(value).putZigZag(value).putZigZag(-value);
    }
    out.putByte(0xFE)
        .putShort(0xBEEF)
        .putInt(-7)
        .putLong(Long.MIN_VALUE)
        .putDouble(-0.5)
        .putString("ünïcode ✓");
    PartReader in = new PartReader("s", "p", 0, ByteBuffer.wrap(out.toByteArray()));
    for (long value : varints) {
      assertThat(in.getVarLong()).isEqualTo(value);
      assertThat(in.getZigZag()).isEqualTo(value);
      assertThat(in.getZigZag()).isEqualTo(-value);
    }
    assertThat(in.getByte()).isEqualTo(0xFE);
    assertThat(in.getShort()).isEqualTo(0xBEEF);
    assertThat(in.getInt()).isEqualTo(-7);
    assertThat(in.getLong()).isEqualTo(Long.MIN_VALUE);
    assertThat(in.getDouble()).isEqualTo(-0.5);
    assertThat(in.getString()).isEqualTo("ünïcode ✓");
    in.expectEnd();
  }

  @Test
  void testReadsPastThePartNameItAndTheOffset() {
    PartReader in =
        new PartReader(
            "s3://b/seg", "inverted[metric]", 1000, ByteBuffer.wrap(new byte[] {1, 2, 3}));
    assertThatThrownBy(in::getInt)
        .isInstanceOf(CorruptSegmentException.class)
        .hasMessage(
            "Cannot read segment s3://b/seg: needs 4 bytes but 3 remain in the part (part inverted[metric] at offset 1000; rebuild the segment)");
    PartReader varint =
        new PartReader(
            "seg",
            "p",
            0,
            ByteBuffer.wrap(
                new byte[] {
                  (byte) 0xFF,
                  (byte) 0xFF,
                  (byte) 0xFF,
                  (byte) 0xFF,
                  (byte) 0xFF,
                  (byte) 0xFF,
                  (byte) 0xFF,
                  (byte) 0xFF,
                  (byte) 0xFF,
                  (byte) 0xFF,
                  (byte) 0xFF
                }));
    assertThatThrownBy(varint::getVarLong)
        .isInstanceOf(CorruptSegmentException.class)
        .hasMessageContaining("varint longer than 10 bytes");
    PartReader count =
        new PartReader("seg", "p", 0, ByteBuffer.wrap(new byte[] {(byte) 0x90, 0x4E}));
    assertThatThrownBy(() -> count.getCount(1000, "page"))
        .isInstanceOf(CorruptSegmentException.class)
        .hasMessageContaining("page count 10000 exceeds 1000");
  }

  @Test
  void testPartKeys() {
    assertThat(PartKey.column("range", "logical_timestamp"))
        .hasToString("range[logical_timestamp]");
    assertThat(PartKey.file("footer", 0)).hasToString("footer[0]");
    assertThat(PartKey.of("metadata")).hasToString("metadata");
    assertThatThrownBy(() -> PartKey.of("Bad Kind"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot use part kind: 'Bad Kind' (expected 1 to 64 lower-case letters, digits or dashes)");
  }
}
