package io.shelfmark.exchange.fragment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TestEngineOption {
  @Test
  void namesAreMatchedExactly() {
    assertThat(EngineOption.named("useStarTree")).contains(EngineOption.USE_STAR_TREE);
    assertThat(EngineOption.named("usePageStatistics")).contains(EngineOption.USE_PAGE_STATISTICS);
    assertThat(EngineOption.named("chunkReads")).contains(EngineOption.CHUNK_READS);
    // Pinot matches option names exactly: another spelling is an option Shelfmark does not know.
    assertThat(EngineOption.named("usestartree")).isEmpty();
    assertThat(EngineOption.named("timeoutMs")).isEmpty();
  }

  @Test
  void valuesAreReadWithoutCaseOrBlanks() {
    assertThat(EngineOption.USE_STAR_TREE.parse(" FALSE ")).isEqualTo("false");
    assertThat(EngineOption.CHUNK_READS.parse("Whole")).isEqualTo("whole");
  }

  @Test
  void anUnsetSwitchHasItsDefault() {
    assertThat(EngineOption.USE_STAR_TREE.value(Map.of())).isEqualTo("true");
    assertThat(EngineOption.USE_PAGE_STATISTICS.value(Map.of("timeoutMs", "5"))).isEqualTo("true");
    assertThat(EngineOption.CHUNK_READS.value(Map.of())).isEqualTo("cost");
    assertThat(EngineOption.CHUNK_READS.value(Map.of("chunkReads", "pages"))).isEqualTo("pages");
  }

  @Test
  void aValueTheSwitchDoesNotTakeIsRefusedNamingTheValuesItTakes() {
    // Before, anything but "false" left star-trees on: a typo silently measured the wrong path.
    assertThatThrownBy(() -> EngineOption.USE_STAR_TREE.value(Map.of("useStarTree", "fasle")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot use query option useStarTree=fasle: it must be true or false");
    assertThatThrownBy(() -> EngineOption.USE_PAGE_STATISTICS.parse("0"))
        .hasMessage("Cannot use query option usePageStatistics=0: it must be true or false");
    assertThatThrownBy(() -> EngineOption.CHUNK_READS.parse("all"))
        .hasMessage("Cannot use query option chunkReads=all: it must be cost, pages or whole");
    assertThatThrownBy(() -> EngineOption.CHUNK_READS.parse(""))
        .hasMessage("Cannot use query option chunkReads=: it must be cost, pages or whole");
  }
}
