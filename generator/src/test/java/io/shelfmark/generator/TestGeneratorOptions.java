package io.shelfmark.generator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.config.unit.DataSize;
import org.junit.jupiter.api.Test;

class TestGeneratorOptions {
  @Test
  void defaults() {
    GeneratorOptions options = GeneratorOptions.defaults();
    assertThat(options.rows()).isEqualTo(1_000_000);
    assertThat(options.seed()).isEqualTo(42);
    assertThat(options.rowGroupSize()).isEqualTo(DataSize.of(32, DataSize.Unit.MEBIBYTE));
    assertThat(options.pageSize()).isEqualTo(DataSize.of(1, DataSize.Unit.MEBIBYTE));
    assertThat(options.pageRowLimit()).isEqualTo(20_000);
    assertThat(options.parallelism()).isBetween(1, 4);
    assertThat(options.existingTable()).isEqualTo(ExistingTablePolicy.REUSE);
  }

  @Test
  void builderSetsEachOption() {
    GeneratorOptions options =
        GeneratorOptions.builder()
            .rows(5)
            .seed(-9)
            .rowGroupSize(DataSize.ofBytes(4096))
            .pageSize(DataSize.ofBytes(1024))
            .pageRowLimit(100)
            .maxRowsPerFile(77)
            .parallelism(3)
            .existingTable(ExistingTablePolicy.REPLACE)
            .build();
    assertThat(options)
        .isEqualTo(
            new GeneratorOptions(
                5,
                -9,
                DataSize.ofBytes(4096),
                DataSize.ofBytes(1024),
                100,
                77,
                3,
                ExistingTablePolicy.REPLACE));
  }

  @Test
  void settingAnOptionTwiceFailsNamingTheCurrentValue() {
    assertThatThrownBy(() -> GeneratorOptions.builder().rows(10).rows(20))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot set rows: it is already set to 10 (set each once)");
    assertThatThrownBy(
            () ->
                GeneratorOptions.builder()
                    .existingTable(ExistingTablePolicy.REUSE)
                    .existingTable(ExistingTablePolicy.REPLACE))
        .hasMessage("Cannot set existing table policy: it is already set to REUSE (set each once)");
  }

  @Test
  void rejectsInvalidValues() {
    assertThatThrownBy(() -> GeneratorOptions.builder().rows(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot use rows 0 for the generator (need at least 1 row)");
    assertThatThrownBy(() -> GeneratorOptions.builder().parallelism(0).build())
        .hasMessage("Cannot use parallelism 0 for the generator (need 1 to 64)");
    assertThatThrownBy(() -> GeneratorOptions.builder().pageRowLimit(-1).build())
        .hasMessage("Cannot use page row limit -1 for the generator (need at least 1)");
    assertThatThrownBy(() -> GeneratorOptions.builder().maxRowsPerFile(0).build())
        .hasMessage("Cannot use max rows per file 0 for the generator (need at least 1)");
    assertThatThrownBy(
            () ->
                GeneratorOptions.builder()
                    .rowGroupSize(DataSize.ofBytes(2048))
                    .pageSize(DataSize.ofBytes(4096))
                    .build())
        .hasMessage(
            "Cannot use page size 4KiB for the generator (must not exceed the row group size 2KiB)");
    assertThatThrownBy(() -> GeneratorOptions.builder().rowGroupSize(DataSize.ofBytes(10)).build())
        .hasMessage("Cannot use row group size 10B for the generator (need at least 1KiB)");
  }
}
