package io.shelfmark.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class TestContentRange {
  @Test
  void parsesPartialAndUnsatisfiableAnswers() {
    assertThat(ContentRange.parse("bytes 100-199/1000"))
        .contains(new ContentRange(100, 199, OptionalLong.of(1000)));
    assertThat(ContentRange.parse("bytes */1000"))
        .contains(new ContentRange(-1, -1, OptionalLong.of(1000)));
    assertThat(ContentRange.parse("bytes 0-9/*"))
        .contains(new ContentRange(0, 9, OptionalLong.empty()));
  }

  @Test
  void malformedHeadersCountAsAbsent() {
    assertThat(ContentRange.parse(null)).isEmpty();
    assertThat(ContentRange.parse("items 0-9/10")).isEqualTo(Optional.empty());
    assertThat(ContentRange.parse("bytes 0-9")).isEmpty();
    assertThat(ContentRange.parse("bytes a-b/10")).isEmpty();
    assertThat(ContentRange.parse("bytes 5/10")).isEmpty();
  }
}
