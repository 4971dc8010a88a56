package io.shelfmark.storage.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TestLocation {
  @Test
  void parsesS3AndFileForms() {
    assertThat(Location.parse("s3://bucket/a/b.parquet"))
        .isEqualTo(new Location("s3", "bucket", "a/b.parquet"));
    assertThat(Location.parse("s3a://bucket/a")).isEqualTo(new Location("s3", "bucket", "a"));
    assertThat(Location.parse("s3://bucket")).isEqualTo(new Location("s3", "bucket", ""));
    assertThat(Location.parse("file:///data/x")).isEqualTo(new Location("file", "", "/data/x"));
    assertThat(Location.parse("file:/data/./y/../x"))
        .isEqualTo(new Location("file", "", "/data/x"));
    assertThat(Location.parse("/data/x")).hasToString("file:/data/x");
  }

  @Test
  void fileLocationsKeepATrailingSlashForPrefixes() {
    assertThat(Location.parse("/data/tables/").key()).isEqualTo("/data/tables/");
    assertThat(Location.parse("file:///data/tables/").key()).isEqualTo("/data/tables/");
    assertThat(Location.parse("/data/./tables/../t/").key()).isEqualTo("/data/t/");
    assertThat(Location.parse("/").key()).isEqualTo("/");
    assertThat(Location.parse("/data/tables/").resolve("x")).hasToString("file:/data/tables/x");
  }

  @Test
  void rejectsWhatItCannotRead() {
    assertThatThrownBy(() -> Location.parse("gs://bucket/key"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot parse location: gs://bucket/key (unsupported scheme gs: use s3 or file)");
    assertThatThrownBy(() -> Location.parse("relative/path"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot parse location: relative/path (expected s3://bucket/key or an absolute path)");
  }
}
