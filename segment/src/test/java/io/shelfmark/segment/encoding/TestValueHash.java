package io.shelfmark.segment.encoding;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The hash is persisted in bloom parts: these outputs were computed by the first implementation
 * (bytes assembled one at a time) and must never change without a new bloom part version.
 */
class TestValueHash {
  @Test
  void testStringHashesArePinned() {
    assertThat(hash("")).isEqualTo(0xF80BC8A4EF4F0655L);
    assertThat(hash("a")).isEqualTo(0x56BBA0A30B68C71EL);
    assertThat(hash("node-01")).isEqualTo(0xDB9CB06CCEE2523DL);
    assertThat(hash("node-012")).isEqualTo(0xD4A856758989F939L);
    assertThat(hash("node-0123")).isEqualTo(0x0963757A41CA0D82L);
    assertThat(hash("tk_cache")).isEqualTo(0xE9CDA59028C2A5BBL);
    assertThat(hash("us-east-1-a-very-long-service-name")).isEqualTo(0xD4CBB54254ED6029L);
    assertThat(hash("\u00e9t\u00e9 \u2603")).isEqualTo(0x9139576D13FCB266L);
  }

  @Test
  void testHashesBytesInsideALargerArray() {
    byte[] data = new byte[40];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (i * 37 + 200);
    }
    assertThat(ValueHash.hashBytes(data, 3, 29)).isEqualTo(0xB7C95812E3A5A895L);
    assertThat(ValueHash.hashBytes(data, 5, 8)).isEqualTo(0x45FAD56F99A2E276L);
  }

  @Test
  void testLongHashIsPinned() {
    assertThat(ValueHash.hashLong(184833768L)).isEqualTo(0x0E417BD2033B276EL);
  }

  @Test
  void testEqualBytesHashEquallyAtAnyOffset() {
    SplittableRandom random = new SplittableRandom(17);
    for (int length = 0; length <= 40; length++) {
      byte[] value = new byte[length];
      random.nextBytes(value);
      byte[] shifted = new byte[length + 11];
      System.arraycopy(value, 0, shifted, 7, length);
      assertThat(ValueHash.hashBytes(shifted, 7, length))
          .as("length %d", length)
          .isEqualTo(ValueHash.hashBytes(value, 0, length));
    }
  }

  private static long hash(String value) {
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    return ValueHash.hashBytes(utf8, 0, utf8.length);
  }
}
