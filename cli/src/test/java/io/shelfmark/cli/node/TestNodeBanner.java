package io.shelfmark.cli.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.unit.DataSize;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class TestNodeBanner {
  @Test
  void saysWhetherParquetPagesAreCached() {
    CacheConfig off =
        CacheConfig.builder()
            .memoryMaxSize(DataSize.of(64, DataSize.Unit.MEBIBYTE))
            .diskMaxSize(DataSize.of(0, DataSize.Unit.BYTE))
            .build(Path.of("/data"));
    assertThat(NodeBanner.cacheLine(off))
        .startsWith("  page cache off (cache.disk.max-size is 0")
        .contains("64MiB");
    CacheConfig on =
        CacheConfig.builder()
            .memoryMaxSize(DataSize.of(1, DataSize.Unit.GIBIBYTE))
            .diskMaxSize(DataSize.of(10, DataSize.Unit.GIBIBYTE))
            .build(Path.of("/data"));
    assertThat(NodeBanner.cacheLine(on))
        .isEqualTo(
            "  page cache on: memory 1GiB, disk 10GiB in " + on.diskDirectory().toAbsolutePath());
  }

  @Test
  void namesTheWebConsole() {
    assertThat(NodeBanner.consoleLine("http://127.0.0.1:8099", false))
        .isEqualTo("  web console: http://127.0.0.1:8099/");
    assertThat(NodeBanner.consoleLine("https://broker.example:8099", true))
        .isEqualTo(
            "  web console: https://broker.example:8099/ (the browser asks for a configured user"
                + " and password)");
  }
}
