package io.shelfmark.config.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TestTableConfig {
  private static final TableIdentity METRICS = new TableIdentity("shelfmark", "obs", "metrics");

  @Test
  void builderFillsDefaults() {
    TableConfig config = TableConfig.builder(METRICS).build();
    assertThat(config.replication()).isEqualTo(2);
    assertThat(config.refreshInterval()).isEqualTo(Duration.ofSeconds(60));
    assertThat(config.timeColumn()).isEmpty();
    assertThat(METRICS).hasToString("shelfmark.obs.metrics");
  }

  @Test
  void refusesInvalidValues() {
    assertThatThrownBy(() -> TableConfig.builder(METRICS).replication(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot use replication: 0 (expected 1 to 100)");
    assertThatThrownBy(
            () -> TableConfig.builder(METRICS).refreshInterval(Duration.ofMillis(10)).build())
        .hasMessage("Cannot use refresh-interval: PT0.01S (expected at least 1s)");
    assertThatThrownBy(() -> TableConfig.builder(METRICS).replication(2).replication(3))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot set replication twice: already set to 2");
    assertThatThrownBy(() -> new TableIdentity("shelfmark", " ", "metrics"))
        .hasMessage("Cannot use table.namespace: blank");
    assertThatThrownBy(() -> new ColumnConfig(Set.of()))
        .hasMessage("Cannot use a column config without indexes");
    assertThatThrownBy(() -> new MapKeySelection.Listed(List.of("node", "node")))
        .hasMessage("Cannot use map keys: [node, node] (key node repeated)");
    assertThatThrownBy(() -> new MapKeySelection.Auto(0))
        .hasMessage("Cannot use min-share: 0.0 (expected a number above 0 and at most 1)");
    assertThatThrownBy(
            () ->
                TableConfig.builder(METRICS)
                    .column("a", ColumnConfig.of(IndexKind.BLOOM))
                    .column("a", ColumnConfig.of(IndexKind.RANGE))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Multiple entries with same key");
  }

  @Test
  void indexKindsHaveStableConfigNames() {
    assertThat(IndexKind.values())
        .extracting(IndexKind::configName)
        .containsExactly("inverted", "range", "sorted", "bloom", "forward");
  }
}
