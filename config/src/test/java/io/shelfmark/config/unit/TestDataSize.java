package io.shelfmark.config.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.config.unit.DataSize.Unit;
import org.junit.jupiter.api.Test;

class TestDataSize {
  @Test
  void parsesDecimalBinaryAndPlainBytes() {
    assertThat(DataSize.parse("512MB").bytes()).isEqualTo(512_000_000L);
    assertThat(DataSize.parse("2GiB").bytes()).isEqualTo(2L << 30);
    assertThat(DataSize.parse("1024").bytes()).isEqualTo(1024);
    assertThat(DataSize.parse("1024B").bytes()).isEqualTo(1024);
    assertThat(DataSize.parse("1KB").bytes()).isEqualTo(1000);
    assertThat(DataSize.parse("1KiB").bytes()).isEqualTo(1024);
    assertThat(DataSize.parse("3TiB").bytes()).isEqualTo(3L << 40);
    assertThat(DataSize.parse("1PB").bytes()).isEqualTo(1_000_000_000_000_000L);
  }

  @Test
  void acceptsAnyCaseSpacesAndExactFractions() {
    assertThat(DataSize.parse("512mb")).isEqualTo(DataSize.parse("512MB"));
    assertThat(DataSize.parse("2gib")).isEqualTo(DataSize.of(2, Unit.GIBIBYTE));
    assertThat(DataSize.parse(" 10 MiB ")).isEqualTo(DataSize.of(10, Unit.MEBIBYTE));
    assertThat(DataSize.parse("1.5GiB").bytes()).isEqualTo(3L << 29);
    assertThat(DataSize.parse("0")).isEqualTo(DataSize.ofBytes(0));
  }

  @Test
  void refusesWhatIsNotASize() {
    assertThatThrownBy(() -> DataSize.parse("12 parsecs"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot parse data size: \"12 parsecs\" (unknown unit; use B, KB, MB, GB, TB, PB,"
                + " KiB, MiB, GiB, TiB or PiB)");
    assertThatThrownBy(() -> DataSize.parse("-1MB"))
        .hasMessage("Cannot parse data size: \"-1MB\" (expected a size such as 512MB or 2GiB)");
    assertThatThrownBy(() -> DataSize.parse(""))
        .hasMessage("Cannot parse data size: \"\" (expected a size such as 512MB or 2GiB)");
    assertThatThrownBy(() -> DataSize.parse("MB"))
        .hasMessage("Cannot parse data size: \"MB\" (expected a size such as 512MB or 2GiB)");
    assertThatThrownBy(() -> DataSize.parse("1.5B"))
        .hasMessage("Cannot parse data size: \"1.5B\" (not a whole number of bytes)");
    assertThatThrownBy(() -> DataSize.parse("1 000MB"))
        .hasMessage("Cannot parse data size: \"1 000MB\" (expected a size such as 512MB or 2GiB)");
  }

  @Test
  void refusesOverflow() {
    assertThatThrownBy(() -> DataSize.parse("8EB")).hasMessageContaining("unknown unit");
    assertThatThrownBy(() -> DataSize.parse("8192PiB"))
        .hasMessage("Cannot parse data size: \"8192PiB\" (larger than 9223372036854775807 bytes)");
    assertThat(DataSize.parse("8191PiB").bytes()).isEqualTo(8191L << 50);
    assertThat(DataSize.parse("9223372036854775807").bytes()).isEqualTo(Long.MAX_VALUE);
    assertThatThrownBy(() -> DataSize.parse("9223372036854775808"))
        .hasMessageContaining("larger than");
    assertThatThrownBy(() -> DataSize.of(8192, Unit.PEBIBYTE))
        .hasMessage("Cannot create a data size of 8192PiB: too large");
    assertThatThrownBy(() -> DataSize.ofBytes(-1))
        .hasMessage("Cannot create a data size of -1 bytes");
  }

  @Test
  void toStringIsShortestExactForm() {
    assertThat(DataSize.ofBytes(0)).hasToString("0B");
    assertThat(DataSize.ofBytes(1023)).hasToString("1023B");
    assertThat(DataSize.ofBytes(1024)).hasToString("1KiB");
    assertThat(DataSize.ofBytes(1000)).hasToString("1KB");
    assertThat(DataSize.parse("512MB")).hasToString("512MB");
    assertThat(DataSize.parse("2GiB")).hasToString("2GiB");
    assertThat(DataSize.parse("1.5GiB")).hasToString("1536MiB");
    // 1,024,000 is both 1000KiB and 1024KB: the smaller amount wins.
    assertThat(DataSize.ofBytes(1_024_000)).hasToString("1000KiB");
    assertThat(DataSize.ofBytes(Long.MAX_VALUE)).hasToString(Long.MAX_VALUE + "B");
  }

  @Test
  void toStringRoundTrips() {
    long[] samples = {
      0,
      1,
      999,
      1000,
      1001,
      1023,
      1024,
      1025,
      4096,
      1_000_000,
      1 << 20,
      3L << 29,
      7_000_000_000L,
      (1L << 40) + 1,
      5L << 50,
      Long.MAX_VALUE
    };
    for (long bytes : samples) {
      DataSize size = DataSize.ofBytes(bytes);
      assertThat(DataSize.parse(size.toString())).as("%s", size).isEqualTo(size);
    }
  }

  @Test
  void convertsAndCompares() {
    assertThat(DataSize.parse("3GiB").to(Unit.MEBIBYTE)).isEqualTo(3072);
    assertThat(DataSize.parse("1500KB").to(Unit.MEGABYTE)).isEqualTo(1);
    assertThat(DataSize.parse("1GB")).isLessThan(DataSize.parse("1GiB"));
  }
}
